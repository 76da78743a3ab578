#pragma once
// How often each position (its key: board, hands and side to move) has occurred in one game, so that the game
// record knows in O(1) per move whether the current position could be a fourth occurrence. Only then does it run
// the exact repetition test, which looks back through the game (Position::repetition). An open-addressing table
// of keys and counts: it allocates only when it grows (a few times per game), never per move.

#include <cstdint>
#include <vector>

#include "types.h"

namespace shogi {

class PositionCounts {
 public:
  void clear();
  // Counts one more occurrence of `key` and returns how often it has occurred now.
  int add(Key key);
  int count(Key key) const;

 private:
  struct Slot {
    Key key = 0;
    int count = 0;  // 0: empty
  };
  size_t find(Key key) const;  // the slot holding `key`, or the empty slot where it belongs
  void grow();

  std::vector<Slot> slots_;
  size_t used_ = 0;
};

}  // namespace shogi
