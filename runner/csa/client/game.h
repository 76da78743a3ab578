#pragma once
// One game on a CSA server, from the Game_Summary block to the result line (csa-protocol.md §2-§7), over a
// ClientConnection (no sockets here: tests feed scripted lines) and a ClientEngine.
//
// Decisions the protocol leaves to the client:
// - Clocks: the server's T of every echoed move is the truth for both sides (CsaClock). Our turn starts when the
//   line that gave it to us (START or the opponent's move) was read. The engine is told the server budget minus
//   `margin_ms` and the time already spent since that line: taken off the main time first, then off byoyomi,
//   then off the increment. USI semantics: btime is the remaining main time WITHOUT this move's increment and
//   binc the increment.
// - Our own flag: if the engine has not answered `margin_ms` before the server budget ends, it gets `stop`;
//   if it still has not answered at half the margin before the end, the client plays a fallback move itself
//   (see below) and restarts the engine during the opponent's turn. A server may notice a time-up a minute
//   late; we never rely on it.
// - The engine's answer: `resign` -> %TORYO. `win` -> %KACHI only when check_declaration() holds under the
//   summary's declaration rule (Jishogi 1.1 or none given = the CSA 27-point rule; any other rule: never);
//   a false `win` is never sent, because the server scores it as a loss. Instead — as for an illegal or
//   malformed bestmove and for an engine that is still silent at the emergency deadline — the client plays a
//   fallback move: the head of the engine's last PV if it is legal, else the first legal move (a move keeps the
//   game alive; a false declaration or an illegal move loses it at once). No legal move at all: %TORYO.
// - An engine that crashes mid-game is restarted and asked again with the time left; if it cannot be started,
//   %TORYO. %CHUDAN or any other % command is never sent.
// - A move echoed by the server that our rules reject: the server is then the judge; we wait for its result
//   until our own budget for the next move has run out and then resign (the position is unknown to us).
// - A stop request during a game: the game is played to its end, or resigned at our next turn when
//   `resign_on_stop` is set.

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "csa/client/connection.h"
#include "csa/client/engine.h"
#include "csa/protocol/game_end.h"
#include "csa/protocol/game_summary.h"
#include "game/game_result.h"

namespace arena::csa {

struct GameSettings {
  int64_t margin_ms = 1000;
  bool floodgate_comments = false;
  bool ponder = false;
  bool resign_on_stop = false;
  int64_t untimed_move_ms = 10000;  // think time per move when the server sets no clock at all
};

// What the live status line shows.
struct LiveStatus {
  std::string phase;  // "agreeing", "our turn", "their turn", "pondering", "finished"
  std::string opponent;
  shogi::Color us = shogi::BLACK;
  int ply = 0;
  int64_t remaining_ms[shogi::COLOR_NB] = {0, 0};
  std::optional<int> score_black;  // the engine's last score, black's view
};
using StatusSink = std::function<void(const LiveStatus&)>;

enum class GameStatus {
  Finished,        // the server sent a result line
  Rejected,        // REJECT by us (unplayable conditions, engine not ready) or by the opponent / server
  ConnectionLost,  // the connection ended before a result
};
std::string_view to_string(GameStatus s);

struct CsaGameReport {
  GameStatus status = GameStatus::ConnectionLost;
  std::string detail;  // the rejection reason, the connection error, or the server's end lines
  std::string game_id;
  std::optional<GameSummary> summary;
  bool started = false;  // START was received
  shogi::Color us = shogi::BLACK;
  GameEnd end;
  PlayedGame record;           // moves with the server's times and our engine's info, result, for the CSA record
  bool engine_failed = false;  // the engine could not be (re)started: the session should not go on with it
  int engine_restarts = 0;
  int fallback_moves = 0;  // moves the client chose itself because the engine's answer was unusable
  std::vector<std::string> warnings;
  // Latency the client adds, in microseconds: server line read -> `go`/`ponderhit` written, and engine
  // `bestmove` read -> move written to the socket.
  std::vector<int64_t> line_to_go_us;
  std::vector<int64_t> bestmove_to_send_us;
};

// Plays the game whose "BEGIN Game_Summary" line `begin_line` has just been read: the rest of the summary,
// AGREE or REJECT, START, the moves, the end. The engine must be running or startable; it is made ready before
// AGREE. `stop` (may be null) is honoured as described above.
CsaGameReport play_csa_game(ClientConnection& conn, ClientEngine& engine, const GameSettings& settings,
                            ProtocolLog& log, const std::atomic<bool>* stop = nullptr, const StatusSink& status = {});

// The CSA server's result mapped onto the runner's result types (from our colour's point of view for
// #WIN / #LOSE).
GameResult to_game_result(const GameEnd& end, shogi::Color us);

}  // namespace arena::csa
