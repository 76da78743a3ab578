#pragma once
// What one finished game produced: the moves with their times and engine comments, and how it ended.
// Shared by the game loop (which fills it), the records writers and the tournament journal.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "game/time_control.h"
#include "rules/types.h"

namespace arena {

enum class Outcome { None, BlackWin, WhiteWin, Draw };

// Why a game ended. The loser is the side named by GameResult::outcome's opposite.
enum class Termination {
  None,                // still running (or never started)
  Resign,              // `bestmove resign`
  Checkmate,           // the side to move had no legal move
  Sennichite,          // fourth repetition: draw
  PerpetualCheck,      // fourth repetition with one side checking throughout: that side loses
  Declaration,         // a valid `bestmove win` (entering-king declaration)
  IllegalDeclaration,  // `bestmove win` when the declaration rule does not hold: loss
  IllegalMove,         // an illegal or unparsable bestmove: loss
  TimeForfeit,         // the move arrived after the time allowed (or not at all before the flag)
  Stall,               // no answer even after stop and the stall timeout: killed, loss
  Disconnect,          // the engine crashed or closed its pipes: loss
  MaxMoves,            // the ply limit: draw
  Adjudication,        // score-based resign/draw adjudication by the runner
  Interrupted,         // the runner stopped the game (Ctrl-C, runner error): not scored
};

std::string_view to_string(Termination t);
std::string_view to_string(Outcome o);

struct GameResult {
  Outcome outcome = Outcome::None;
  Termination termination = Termination::None;
  std::string detail;  // human-readable explanation, e.g. "7g7e: the pawn on 7g cannot move to 7e"
};

// The score_mate of a mate whose distance the engine did not say: longer than any real mate in a record.
constexpr int UNKNOWN_MATE_DISTANCE = 999;

// The engine's last `info` before its move, kept for records.
struct SearchInfo {
  std::optional<int> depth;
  std::optional<int> seldepth;
  std::optional<int> score_cp;  // from the mover's point of view
  // Plies; negative when the mover is being mated. A mate of unknown distance (`score mate +` / `score mate -`) is
  // +/-UNKNOWN_MATE_DISTANCE (game/record_info.h).
  std::optional<int> score_mate;
  std::optional<uint64_t> nodes;
  std::vector<std::string> pv;  // USI moves
};

struct MoveRecord {
  shogi::Move move = shogi::MOVE_NONE;
  int64_t time_ms = 0;  // thinking time measured by the runner (from `go` written to `bestmove` read)
  SearchInfo info;
  bool opening = false;  // part of the opening, not played by the engines
  // Steady-clock instants for measurements within one run (never written to records): when the mover's clock
  // started (its `go` written, or `ponderhit` after a correct prediction) and when its bestmove was read.
  std::chrono::steady_clock::time_point started{};
  std::chrono::steady_clock::time_point answered{};
};

struct PlayedGame {
  std::string event;
  std::string names[shogi::COLOR_NB];  // black (sente), white (gote)
  std::chrono::system_clock::time_point start_time{};
  std::chrono::system_clock::time_point end_time{};
  std::string start_sfen;    // the position before the first move of `moves`
  std::string time_control;  // human-readable, e.g. "10+0.1", or "black 10+0.1, white 5+0.1"
  // Each side's time control (black, white) when the game was timed by one: the report reconstructs the clocks
  // from them. Unknown for a game of the CSA client (the server's clock rules are not a TimeControl).
  std::optional<game::TimeControl> time_controls[shogi::COLOR_NB];
  std::vector<MoveRecord> moves;
  GameResult result;
  // The raw text of an illegal or unparsable final move (not part of `moves`), for records.
  std::string illegal_move_text;
  // A time forfeit: how long the flagged move took, as the runner measured it (to its bestmove, or to its answer to
  // `stop`); nullopt when it never answered (and in a game not lost on time).
  std::optional<int64_t> forfeit_used_ms;
};

}  // namespace arena
