#include "game/adjudication.h"

#include <cstdlib>
#include <string>

namespace arena::game {

std::optional<GameResult> Adjudicator::update(shogi::Color mover, std::optional<int> score_cp, int ply) {
  if (!score_cp) {
    losing_[shogi::BLACK] = losing_[shogi::WHITE] = drawish_ = 0;
    return std::nullopt;
  }
  // Black's point of view: each engine speaks for itself, so alternate plies come from alternate engines and a
  // streak of 2N plies is N moves of each.
  int black_view = mover == shogi::BLACK ? *score_cp : -*score_cp;
  losing_[shogi::BLACK] = black_view <= -rules_.resign_score_cp ? losing_[shogi::BLACK] + 1 : 0;
  losing_[shogi::WHITE] = black_view >= rules_.resign_score_cp ? losing_[shogi::WHITE] + 1 : 0;
  drawish_ = std::abs(black_view) <= rules_.draw_score_cp ? drawish_ + 1 : 0;

  if (rules_.resign_enabled) {
    for (shogi::Color loser : {shogi::BLACK, shogi::WHITE}) {
      if (losing_[loser] >= 2 * rules_.resign_moves) {
        return GameResult{loser == shogi::BLACK ? Outcome::WhiteWin : Outcome::BlackWin, Termination::Adjudication,
                          std::string("resign adjudication: both engines scored ") +
                              (loser == shogi::BLACK ? "black" : "white") + " at -" +
                              std::to_string(rules_.resign_score_cp) + " cp or worse for " +
                              std::to_string(rules_.resign_moves) + " moves each"};
      }
    }
  }
  if (rules_.draw_enabled && ply >= rules_.draw_min_ply && drawish_ >= 2 * rules_.draw_moves) {
    return GameResult{Outcome::Draw, Termination::Adjudication,
                      "draw adjudication: both engines within " + std::to_string(rules_.draw_score_cp) + " cp for " +
                          std::to_string(rules_.draw_moves) + " moves each after ply " +
                          std::to_string(rules_.draw_min_ply)};
  }
  return std::nullopt;
}

}  // namespace arena::game
