#pragma once
// Shared checks for the fuzz targets: anything accepted must leave a position that passes its own validation.

#include <cstdio>
#include <cstdlib>
#include <string>

#include "rules/movegen.h"
#include "rules/position.h"

namespace fuzz {

inline void require(bool ok, const char* what, const std::string& context) {
  if (!ok) {
    std::fprintf(stderr, "fuzz invariant failed: %s (%s)\n", what, context.c_str());
    std::abort();
  }
}

// Validates a position and exercises its move generation and every legal move once.
inline void exercise(shogi::Position& pos) {
  std::string sfen = pos.sfen();
  require(pos.validate().empty(), "position validates", sfen);
  shogi::MoveList<shogi::LEGAL> moves(pos);
  for (const shogi::ExtMove& m : moves) {
    shogi::StateInfo st;
    pos.do_move(m.move, st);
    require(pos.validate().empty(), "position after a legal move validates", sfen);
    pos.undo_move(m.move);
  }
  require(pos.sfen() == sfen, "undo restores the position", sfen);
}

}  // namespace fuzz
