#include "csa/protocol/game_end.h"

namespace arena::csa {

bool GameEndCollector::feed(const Message& msg) {
  if (finished()) return true;
  switch (msg.kind) {
    case MessageKind::Resign: end_.resign_seen = true; break;
    case MessageKind::Declare: end_.declare_seen = true; break;
    case MessageKind::OtherSpecial: end_.other_specials.push_back(msg.text); break;
    case MessageKind::GameEnd:
      if (msg.result != EndResult::None) {
        end_.result = msg.result;
      } else if (end_.reason == EndReason::None) {
        // The first reason wins: the server sends one, and a stray second one must not rewrite the cause.
        end_.reason = msg.reason;
      }
      break;
    default: break;
  }
  return finished();
}

}  // namespace arena::csa
