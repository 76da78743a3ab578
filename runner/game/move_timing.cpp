#include "game/move_timing.h"

#include <chrono>
#include <string>

#include "game/clock.h"

namespace arena::game {

namespace {

using Micros = std::chrono::microseconds;

}  // namespace

shogi::Color side_to_move(const std::string& sfen) {
  const size_t space = sfen.find(' ');
  return space != std::string::npos && sfen.compare(space, 3, " w ") == 0 ? shogi::WHITE : shogi::BLACK;
}

std::vector<MoveTiming> move_timings(const PlayedGame& game) {
  std::vector<MoveTiming> out;
  if (!game.time_controls[shogi::BLACK] || !game.time_controls[shogi::WHITE]) return out;
  Clock clocks[shogi::COLOR_NB] = {Clock(*game.time_controls[shogi::BLACK]), Clock(*game.time_controls[shogi::WHITE])};
  // The reconstruction never flags: the game's own verdicts are in its result.
  const Micros never(int64_t(1) << 50);
  // A recorded time is the runner's measure rounded down to the millisecond: charging it plus half a millisecond
  // leaves no drift in the engine's favour over a long game with an increment.
  const Micros rounding(500);
  shogi::Color mover = side_to_move(game.start_sfen);
  for (size_t i = 0; i < game.moves.size(); ++i, mover = ~mover) {
    const MoveRecord& m = game.moves[i];
    if (m.opening) continue;
    MoveTiming t;
    t.ply = int(i) + 1;
    t.mover = mover;
    if (auto allowed = clocks[mover].allowed()) t.given_ms = allowed->count() / 1000;
    t.used_ms = m.time_ms;
    out.push_back(t);
    clocks[mover].charge(Micros(m.time_ms * 1000) + rounding, never);
  }
  if (game.result.termination == Termination::TimeForfeit) {
    MoveTiming t;
    t.ply = int(game.moves.size()) + 1;
    t.mover = mover;
    if (auto allowed = clocks[mover].allowed()) t.given_ms = allowed->count() / 1000;
    t.used_ms = game.forfeit_used_ms.value_or(-1);
    t.forfeit = true;
    out.push_back(t);
  }
  return out;
}

}  // namespace arena::game
