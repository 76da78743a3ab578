#pragma once
// One game judged move by move from a referee's evaluations of its positions: what each move gave up, which moves
// were mistakes, and the decisive mistake of a lost game with the time both sides had left then. Pure: the referee's
// answers come in, nothing is asked here (referee.h asks, analyze.h drives both).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/judgement.h"
#include "game/game_result.h"
#include "usi/usi_info.h"

namespace arena::analysis {

// The referee's word on one position, from the side to move's view.
struct Evaluation {
  usi::Score score;
  std::string best;  // its bestmove ("resign" in a lost position); empty for a position the rules ended
  std::optional<int> depth;
  std::optional<std::uint64_t> nodes;
};

// The evaluation of a position the game's rules ended (the side to move is mated: it has no legal move).
Evaluation mated_now();

struct MoveAnalysis {
  int ply = 0;  // 1-based, opening moves counted
  shogi::Color mover = shogi::BLACK;
  std::string move;  // USI
  usi::Score score;  // the referee's, before the move, the mover's view
  std::string best;  // the referee's best move there
  usi::Score after;  // the referee's, after the move, the mover's view
  MoveJudgement judged;
  // The mover's own score from its last info line before the move (its view), when it sent one.
  std::optional<usi::Score> own;
  std::int64_t given_ms = -1;  // what its clock allowed before the move; -1 without a clock
  std::int64_t used_ms = -1;
};

// The loser's move after which its winning chance stayed below 50 % - margin to the end.
struct DecisiveMistake {
  int ply = 0;
  shogi::Color mover = shogi::BLACK;
  // Each side's allowance (main time left plus increment or byoyomi) at that move: the mover's before it, the
  // opponent's before its reply. -1 where no clock limited it.
  std::int64_t time_left_ms[shogi::COLOR_NB] = {-1, -1};
  // Each engine's own score there, from its info lines (its own view): the mover's before its move, the
  // opponent's before its reply. Nullopt where it sent none.
  std::optional<usi::Score> own[shogi::COLOR_NB];
};

struct GameAnalysis {
  std::int64_t game = 0;  // the journal's game number, or the record's index in the analysed list
  std::string source;     // a record's file name; empty for a journal's game
  std::string names[shogi::COLOR_NB];
  Outcome outcome = Outcome::None;
  Termination termination = Termination::None;
  int plies = 0;          // moves in the game, opening moves included
  int opening_plies = 0;  // not analysed: the runner played them
  std::vector<MoveAnalysis> moves;
  std::optional<DecisiveMistake> decisive;
};

// Judges `game`'s moves from `evaluations`, one per position from the one after the opening moves to the last
// (moves.size() - opening_plies + 1 of them, each from its side to move's view). The count is the caller's contract.
GameAnalysis analyse_game(const PlayedGame& game, const std::vector<Evaluation>& evaluations,
                          const JudgeOptions& options);

// The decisive mistake of a game with a winner, from its judged moves; nullopt in a draw, when the loser's
// winning chance never stayed below 50 % - margin (a game lost on time or by an illegal move in a position it
// held), when it was lost before its first analysed move, or when the move into the lost position was the
// referee's own choice (the loss lies beyond what the referee sees at its budget).
std::optional<DecisiveMistake> decisive_mistake(const GameAnalysis& analysis, const JudgeOptions& options);

}  // namespace arena::analysis
