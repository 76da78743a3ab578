#include "perft.h"

#include "movegen.h"

namespace shogi {

uint64_t perft(Position& pos, int depth) {
  if (depth <= 0) return 1;
  ExtMove moves[MAX_MOVES];
  ExtMove* end = generate<LEGAL>(pos, moves);
  // Bulk counting: at the last ply the number of legal moves is the number of leaves.
  if (depth == 1) return uint64_t(end - moves);
  uint64_t nodes = 0;
  StateInfo st;
  for (ExtMove* m = moves; m != end; ++m) {
    pos.do_move(m->move, st);
    nodes += perft(pos, depth - 1);
    pos.undo_move(m->move);
  }
  return nodes;
}

uint64_t perft_divide(Position& pos, int depth, const std::function<void(Move, uint64_t)>& report) {
  uint64_t total = 0;
  StateInfo st;
  for (const ExtMove& m : MoveList<LEGAL>(pos)) {
    pos.do_move(m.move, st);
    uint64_t n = depth <= 1 ? 1 : perft(pos, depth - 1);
    pos.undo_move(m.move);
    report(m.move, n);
    total += n;
  }
  return total;
}

}  // namespace shogi
