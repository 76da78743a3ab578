#include "usi/go_builder.h"

#include <algorithm>

namespace arena::usi {

GoParams build_go(const GoRequest& r) {
  GoParams p;
  p.ponder = r.ponder;
  const shogi::Color us = r.mover, them = ~r.mover;
  if (r.movetime_ms) {
    p.movetime = *r.movetime_ms;
  } else if (const auto& mine = r.clock[us]) {
    std::int64_t rem = mine->remaining_ms, byo = mine->byoyomi_ms, inc = mine->increment_ms;
    std::int64_t take = std::max<std::int64_t>(0, r.spent_ms);
    for (std::int64_t* v : {&rem, &byo, &inc}) {
      std::int64_t d = std::min(*v, take);
      *v -= d;
      take -= d;
    }
    const auto& theirs = r.clock[them];
    (us == shogi::BLACK ? p.btime : p.wtime) = rem;
    (us == shogi::BLACK ? p.wtime : p.btime) = theirs ? theirs->remaining_ms : rem;
    if (mine->byoyomi_ms > 0) p.byoyomi = byo;
    std::int64_t their_inc = theirs ? theirs->increment_ms : 0;
    if (mine->increment_ms > 0 || their_inc > 0) {
      (us == shogi::BLACK ? p.binc : p.winc) = inc;
      (us == shogi::BLACK ? p.winc : p.binc) = their_inc;
    }
  }
  if (r.nodes) p.nodes = *r.nodes;
  if (r.depth) p.depth = *r.depth;
  return p;
}

}  // namespace arena::usi
