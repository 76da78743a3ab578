#pragma once
// Score-based adjudication (off by default): ends a game both engines already agree on. Fed one score per
// move; it never looks at the board.

#include <optional>

#include "game/game.h"
#include "game/game_result.h"
#include "rules/types.h"

namespace arena::game {

class Adjudicator {
 public:
  explicit Adjudicator(const Adjudication& rules) : rules_(rules) {}

  // The score of the move just played, from the mover's point of view (mate scores as a large cp value;
  // nullopt when the engine gave none, which breaks every streak), and the game ply after the move (counted
  // like GameOptions::max_plies). Returns the result when the game should end now.
  std::optional<GameResult> update(shogi::Color mover, std::optional<int> score_cp, int ply);

 private:
  Adjudication rules_;
  int losing_[shogi::COLOR_NB] = {0, 0};  // consecutive plies on which both agree this side is lost
  int drawish_ = 0;                       // consecutive plies within the draw window
};

// A mate score as centipawns for adjudication: beyond any resign threshold, sign kept.
constexpr int ADJUDICATION_MATE_CP = 100000;

}  // namespace arena::game
