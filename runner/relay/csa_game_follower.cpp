#include "relay/csa_game_follower.h"

#include "game/game.h"
#include "output/record_common.h"

namespace arena::relay {

void CsaGameFollower::progress(const csa::CsaGameProgress& p) {
  game::ClockView clocks;
  clocks.remaining_ms[shogi::BLACK] = p.remaining_ms[shogi::BLACK];
  clocks.remaining_ms[shogi::WHITE] = p.remaining_ms[shogi::WHITE];
  clocks.running = p.to_move;
  if (!started_) {
    started_ = true;
    game_.event = p.game_id;
    game_.names[shogi::BLACK] = p.names[shogi::BLACK];
    game_.names[shogi::WHITE] = p.names[shogi::WHITE];
    game_.start_sfen = p.start_sfen;
    game::TimeControl tc;
    tc.base_ms = int64_t(p.total_s) * 1000;
    tc.byoyomi_ms = int64_t(p.byoyomi_s) * 1000;
    tc.increment_ms = int64_t(p.increment_s) * 1000;
    game_.time_control = tc.to_string();
    game_.time_controls[shogi::BLACK] = game_.time_controls[shogi::WHITE] = tc;
    for (size_t i = 0; i < p.initial_moves && i < p.moves.size(); ++i) {
      MoveRecord m;
      m.move = p.moves[i];
      m.opening = true;
      game_.moves.push_back(m);
    }
    watcher_.started(game_, clocks);
  }
  for (size_t i = game_.moves.size(); i < p.moves.size(); ++i) {
    MoveRecord m;
    m.move = p.moves[i];
    m.time_ms = i < p.times_s.size() ? p.times_s[i] * 1000 : 0;
    if (i < p.comments.size())
      m.info.score_cp =
          record::comment_score(p.comments[i], (p.moves.size() - 1 - i) % 2 == 0 ? ~p.to_move : p.to_move);
    game_.moves.push_back(m);
    // Moves that came in one report (a move the server queued before its turn) each get the side to move after
    // them; the clocks are the report's.
    game::ClockView after = clocks;
    if ((p.moves.size() - 1 - i) % 2 == 1) after.running = ~p.to_move;
    watcher_.moved(m, after);
  }
  watcher_.search_started(clocks);
}

}  // namespace arena::relay
