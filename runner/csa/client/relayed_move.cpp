#include "csa/client/relayed_move.h"

#include "rules/notation.h"

namespace arena::csa {

RelayedMove take_relayed_move(const Message& m, shogi::Color us, const std::string& awaited_echo,
                              shogi::GameRecord& game, CsaClock& clock, int64_t seen_ms) {
  RelayedMove r;
  r.mover = m.text[0] == '+' ? shogi::BLACK : shogi::WHITE;
  if (r.mover != game.position().side_to_move()) {
    r.warnings.push_back("move out of turn ignored: " + m.text);
    return r;
  }
  if (r.mover == us) {
    if (awaited_echo.empty())
      r.warnings.push_back("the server reports a move of ours we did not send: " + m.text);
    else if (m.text != awaited_echo)
      r.warnings.push_back("the server echoed " + m.text + " for our move " + awaited_echo);
  }
  auto move = shogi::parse_csa_move(game.position(), m.text);
  if (!move) {
    r.kind = RelayedMove::Kind::Rejected;
    r.rejection = move.error();
    return r;
  }
  if (m.time_ms) {
    r.time_ms = *m.time_ms;
  } else {
    r.time_ms = clock.judge(r.mover, seen_ms).charged_ms;
    r.warnings.push_back("no ,T on " + m.text + "; charged " + std::to_string(r.time_ms) + " ms from our own clock");
  }
  clock.apply(r.mover, r.time_ms);
  game.play(*move);
  r.kind = RelayedMove::Kind::Played;
  r.move = *move;
  return r;
}

}  // namespace arena::csa
