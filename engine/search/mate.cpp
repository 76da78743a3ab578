#include "search/mate.h"

#include <algorithm>
#include <cassert>

#include "rules/movegen.h"

namespace shogi {

bool has_no_legal_move(const Position& pos) {
  ExtMove moves[MAX_MOVES];
  ExtMove* end = pos.in_check() ? generate<EVASIONS>(pos, moves) : generate<NON_EVASIONS>(pos, moves);
  for (ExtMove* m = moves; m != end; ++m)
    if (pos.legal(m->move)) return false;
  return true;
}

// Whether the defender's king could step out of the check m gives, answered without making m: a square next to the
// king that holds none of the defender's pieces (the checker's square included) and that no attacker covers once m
// is made (the moved piece from its new square, a slider through the square it left or through the king's square).
// Nine checks in ten that mate_in_one tries fail here, before any move is made.
bool king_escapes_check(const Position& pos, Move m) {
  const Color us = pos.side_to_move(), them = ~us;
  assert(pos.has_king(them));
  const Square ksq = pos.king_square(them);
  const Square to = to_sq(m);
  const Bitboard left = is_drop(m) ? Bitboard() : square_bb(from_sq(m));
  const Bitboard occ = ((pos.pieces() ^ left) | square_bb(to)) ^ square_bb(ksq);
  const Bitboard checker_attacks = attacks_from(moved_piece_after(m), to, occ);
  bool escape = false;
  king_attacks(ksq).andnot(pos.pieces(them).andnot(square_bb(to))).andnot(checker_attacks).for_each([&](Square s) {
    if (!escape && pos.attackers_to(us, s, occ).andnot(left).empty()) escape = true;
  });
  return escape;
}

bool is_mate_after(Position& pos, Move m) {
  StateInfo st;
  pos.do_move(m, st, true);
  const bool mate = has_no_legal_move(pos);
  pos.undo_move(m);
  return mate;
}

Move mate_in_one(Position& pos) {
  const Color them = ~pos.side_to_move();
  if (!pos.has_king(them) || pos.in_check()) return MOVE_NONE;
  const Square ksq = pos.king_square(them);
  // Only contact checks and knight checks are tried: they are where nearly all one-move mates are, and distant
  // checks almost always allow an interposition.
  const Bitboard near = king_attacks(ksq) | pos.check_squares(KNIGHT);
  ExtMove moves[MAX_MOVES];
  ExtMove* end = generate_quiet_checks_onto(pos, moves, near);
  for (ExtMove* m = moves; m != end; ++m)
    if (pos.legal(m->move) && !king_escapes_check(pos, m->move) && is_mate_after(pos, m->move)) return m->move;

  end = generate_captures_onto(pos, moves, near);
  for (ExtMove* m = moves; m != end; ++m)
    if (pos.gives_check(m->move) && pos.legal(m->move) && !king_escapes_check(pos, m->move) &&
        is_mate_after(pos, m->move))
      return m->move;
  return MOVE_NONE;
}

MateResult MateSolver::solve(Position& pos, int max_plies, const std::atomic<bool>& stop, uint64_t max_nodes) {
  stop_ = &stop;
  nodes_ = 0;
  max_nodes_ = max_nodes;
  out_of_nodes_ = false;
  gave_up_ = false;
  if (no_mate_within_.empty() || ++stamp_ == 0) {
    no_mate_within_.assign(NO_MATE_SLOTS, NoMate{});
    stamp_ = 1;
  }
  std::fill(std::begin(refutation_), std::end(refutation_), MOVE_NONE);
  MateResult result;
  for (int depth = 1; depth <= max_plies; depth += 2) {
    depth_limited_ = false;
    std::vector<Move> pv;
    const bool mate = attack(pos, depth, pv);
    if (stop.load(std::memory_order_relaxed) || out_of_nodes_) {
      gave_up_ = true;
      return result;
    }
    if (mate) {
      result.status = MateResult::Status::Mate;
      result.pv = std::move(pv);
      return result;
    }
    if (!depth_limited_) {
      result.status = MateResult::Status::NoMate;
      return result;
    }
  }
  return result;
}

bool MateSolver::known_no_mate(Key key, int depth) const {
  const NoMate& e = no_mate_within_[key & (NO_MATE_SLOTS - 1)];
  return e.stamp == stamp_ && e.key == key && e.plies >= depth;
}

void MateSolver::store_no_mate(Key key, int depth) {
  NoMate& e = no_mate_within_[key & (NO_MATE_SLOTS - 1)];
  e.plies = e.stamp == stamp_ && e.key == key ? std::max(e.plies, depth) : depth;
  e.key = key;
  e.stamp = stamp_;
}

bool MateSolver::attack(Position& pos, int depth, std::vector<Move>& pv) {
  ++nodes_;
  if (max_nodes_ && nodes_ > max_nodes_) out_of_nodes_ = true;
  if (out_of_nodes_ || stop_->load(std::memory_order_relaxed)) return false;
  if (depth <= 0) {
    depth_limited_ = true;
    return false;
  }
  // Repeating a position while checking loses (perpetual check), so it never helps the attacker.
  if (pos.repetition(2, 64) != Repetition::None) return false;
  if (known_no_mate(pos.key(), depth)) {
    depth_limited_ = true;  // the stored result may itself have been limited by depth
    return false;
  }

  // Every legal check, non-promotions included: problems sometimes need them.
  ExtMove checks[MAX_MOVES];
  const int n = int(generate<LEGAL_CHECKS>(pos, checks) - checks);
  if (depth == 1 && n > 0) {
    // The last move must mate: a check the king steps out of is rejected before it is made, which is most of them
    // (the iterations of every length end here, so this is where the nodes are).
    // A distant check (a slider's, not discovered, so the only one) never mates a defender who holds a gold, silver,
    // bishop or rook: one dropped between is always legal and blocks it.
    const Color us = pos.side_to_move(), them = ~us;
    const Square ksq = pos.king_square(them);
    const Hand hand = pos.hand(them);
    const bool drop_blocks =
        hand_count(hand, GOLD) || hand_count(hand, SILVER) || hand_count(hand, BISHOP) || hand_count(hand, ROOK);
    const Bitboard discoverers = pos.blockers_for_king(them) & pos.pieces(us);
    for (int i = 0; i < n; ++i) {
      const Move m = checks[i].move;
      if (drop_blocks && !between_bb(to_sq(m), ksq).empty() && (is_drop(m) || !discoverers.test(from_sq(m)))) continue;
      if (king_escapes_check(pos, m)) continue;
      ++nodes_;
      if (is_mate_after(pos, m)) {
        pv.assign(1, m);
        return true;
      }
    }
    depth_limited_ = true;
    store_no_mate(pos.key(), 1);
    return false;
  }
  // Try checks close to the king first; drops and captures there are the usual mating moves.
  const Square ksq = pos.king_square(~pos.side_to_move());
  for (int i = 0; i < n; ++i) {
    const Square to = to_sq(checks[i].move);
    const int dist = distance(to, ksq);
    checks[i].value = -dist * 4 + (pos.is_capture(checks[i].move) ? 2 : 0) + (is_promotion(checks[i].move) ? 1 : 0);
  }
  std::stable_sort(checks, checks + n, [](const ExtMove& a, const ExtMove& b) { return a.value > b.value; });

  for (int i = 0; i < n; ++i) {
    StateInfo st;
    std::vector<Move> line;
    pos.do_move(checks[i].move, st, true);
    const bool mate = defend(pos, depth - 1, line);
    pos.undo_move(checks[i].move);
    if (mate) {
      pv.clear();
      pv.push_back(checks[i].move);
      pv.insert(pv.end(), line.begin(), line.end());
      return true;
    }
    if (out_of_nodes_ || stop_->load(std::memory_order_relaxed)) return false;
  }
  if (depth_limited_) store_no_mate(pos.key(), depth);
  return false;
}

bool MateSolver::defend(Position& pos, int depth, std::vector<Move>& pv) {
  ++nodes_;
  MoveList<LEGAL> moves(pos);
  if (moves.size() == 0) {
    pv.clear();
    return true;
  }
  if (depth <= 0) {
    depth_limited_ = true;
    return false;
  }
  // The defender picks the reply with the longest mate; king moves and captures first refute most quickly.
  ExtMove replies[MAX_MOVES];
  int n = 0;
  for (const ExtMove& m : moves) {
    replies[n] = m;
    replies[n].value = m.move == refutation_[depth]           ? 3
                       : type_of(moved_piece(m.move)) == KING ? 2
                       : pos.is_capture(m.move)               ? 1
                                                              : 0;
    ++n;
  }
  std::stable_sort(replies, replies + n, [](const ExtMove& a, const ExtMove& b) { return a.value > b.value; });

  std::vector<Move> longest;
  bool have_line = false;
  for (int i = 0; i < n; ++i) {
    StateInfo st;
    std::vector<Move> line;
    pos.do_move(replies[i].move, st);
    const bool mate = attack(pos, depth - 1, line);
    pos.undo_move(replies[i].move);
    if (!mate) {
      if (!out_of_nodes_) refutation_[depth] = replies[i].move;
      return false;
    }
    if (!have_line || line.size() > longest.size()) {
      longest.clear();
      longest.push_back(replies[i].move);
      longest.insert(longest.end(), line.begin(), line.end());
      have_line = true;
    }
  }
  pv = std::move(longest);
  return true;
}

ShorterMate shorter_mate(Position& pos, int plies, const std::atomic<bool>& stop, uint64_t max_nodes) {
  MateSolver solver;
  return shorter_mate(solver, pos, plies, stop, max_nodes);
}

ShorterMate shorter_mate(MateSolver& solver, Position& pos, int plies, const std::atomic<bool>& stop,
                         uint64_t max_nodes) {
  ShorterMate r;
  if (plies <= 1) {
    r.shortest = true;
    return r;
  }
  const MateResult found = solver.solve(pos, plies - 2, stop, max_nodes);
  r.nodes = solver.nodes();
  if (found.status == MateResult::Status::Mate) {
    r.pv = found.pv;
    r.shortest = true;  // iterative deepening: the first length that mates
  } else {
    r.shortest = !solver.gave_up();
  }
  return r;
}

}  // namespace shogi
