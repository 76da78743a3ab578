#pragma once
// Collects the end-of-game lines of §6: an optional reason line (#RESIGN, #TIME_UP, ...) followed by a terminal
// result line (#WIN, #LOSE, #DRAW, #CENSORED, #CHUDAN). Reason and result are independent lines: a result may
// come alone (#CHUDAN), and %TORYO / %KACHI echoes or other % lines before them are remembered, not required.

#include <string>
#include <vector>

#include "csa/protocol/message.h"

namespace arena::csa {

struct GameEnd {
  EndReason reason = EndReason::None;
  EndResult result = EndResult::None;
  bool resign_seen = false;   // a %TORYO line came before the result
  bool declare_seen = false;  // a %KACHI line came before the result
  std::vector<std::string> other_specials;  // e.g. "%CHUDAN", kept for the log
};

class GameEndCollector {
 public:
  // Feed every message received during the game (moves and keep-alives are ignored here). Returns true when
  // the result line has arrived; later lines change nothing.
  bool feed(const Message& msg);
  bool finished() const { return end_.result != EndResult::None; }
  const GameEnd& end() const { return end_; }

 private:
  GameEnd end_;
};

}  // namespace arena::csa
