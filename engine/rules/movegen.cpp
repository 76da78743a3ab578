#include "movegen.h"

namespace shogi {

namespace {

inline ExtMove* add(ExtMove* list, Square from, Square to, Piece pc) {
  (list++)->move = make_move(from, to, pc);
  return list;
}
inline ExtMove* add_promote(ExtMove* list, Square from, Square to, Piece pc) {
  (list++)->move = make_move_promote(from, to, pc);
  return list;
}

// Whether a non-promotion (of a piece that could promote) gives check: directly as the unpromoted piece, or by
// uncovering a slider, which does not depend on the promotion.
struct NonPromotionChecks {
  NonPromotionChecks(const Position& pos, Color us)
      : discoverers(pos.blockers_for_king(~us) & pos.pieces(us)), their_king(pos.king_square(~us)), pos_(pos) {}
  bool operator()(PieceType pt, Square from, Square to) const {
    return pos_.check_squares(pt).test(to) || (discoverers.test(from) && !aligned(from, to, their_king));
  }
  Bitboard discoverers;
  Square their_king;
  const Position& pos_;
};

// With Legal, pieces pinned to their king may only move along the pin line. A pinned piece can never answer a
// check (it would have to leave the line), and the same restriction gives exactly that, so evasions need no
// special case.
template <Color Us, bool Legal>
struct PinFilter {
  explicit PinFilter(const Position& pos) {
    if constexpr (Legal) {
      pinned = pos.blockers_for_king(Us) & pos.pieces(Us);
      ksq = pos.king_square(Us);
    }
  }
  Bitboard operator()(Square from, const Bitboard& target) const {
    if constexpr (Legal)
      if (pinned.test(from)) return target & line_bb(ksq, from);
    return target;
  }
  Bitboard pinned;
  Square ksq = SQ_NONE;
};

// Board moves of every non-king piece of colour Us to squares in `target`. `pawn_target` is separate because
// CAPTURES takes quiet pawn promotions while QUIETS leaves them out. Non-promotions that a promotion dominates
// (pawns, bishops and rooks that could promote, lances to the second rank) are generated only when they give
// check, which is where they can matter (a mate that a promoted piece would spoil, e.g. by making a later pawn drop
// mate), or with All, always. A pawn's checking non-promotion is a quiet move unless it captures: it follows
// `target`, not `pawn_target`. With Legal, no move leaves the king in check.
template <Color Us, bool All, bool Legal>
ExtMove* generate_piece_moves(const Position& pos, ExtMove* list, const Bitboard& target, const Bitboard& pawn_target) {
  const Bitboard occ = pos.pieces();
  const Bitboard zone = bb::PROMOTION_ZONE_BB[Us];
  const PinFilter<Us, Legal> pins(pos);
  constexpr int pawn_back = Us == BLACK ? 1 : -1;  // origin = destination + pawn_back
  constexpr Rank R1 = Us == BLACK ? RANK_1 : RANK_9;
  constexpr Rank R2 = Us == BLACK ? RANK_2 : RANK_8;
  constexpr Rank R3 = Us == BLACK ? RANK_3 : RANK_7;
  const NonPromotionChecks checks(pos, Us);

  // Pawns, all at once. A pinned pawn can push only when the pin runs along its file, i.e. it is on the king's file.
  {
    Piece pc = make_piece(Us, PAWN);
    Bitboard pawns = pos.pieces(Us, PAWN);
    if constexpr (Legal)
      if (pins.pinned & pawns) pawns = pawns.andnot(pins.pinned.andnot(file_bb(file_of(pins.ksq))));
    Bitboard to_bb = pawn_push(Us, pawns) & pawn_target;
    to_bb.for_each([&](Square to) {
      Square from = Square(to + pawn_back);
      if (zone.test(to)) {
        list = add_promote(list, from, to, pc);
        if (rank_of(to) != R1 && (All || (target.test(to) && checks(PAWN, from, to)))) list = add(list, from, to, pc);
      } else {
        list = add(list, from, to, pc);
      }
    });
  }

  // Lances.
  pos.pieces(Us, LANCE).for_each([&](Square from) {
    Piece pc = make_piece(Us, LANCE);
    (lance_attacks(Us, from, occ) & pins(from, target)).for_each([&](Square to) {
      Rank r = rank_of(to);
      if (zone.test(to)) {
        list = add_promote(list, from, to, pc);
        if (r == R3 || (r == R2 && (All || checks(LANCE, from, to)))) list = add(list, from, to, pc);
      } else {
        list = add(list, from, to, pc);
      }
    });
  });

  // Knights: promotion is optional on the third rank and forced beyond. A pinned knight never stays on its line.
  pos.pieces(Us, KNIGHT).for_each([&](Square from) {
    Piece pc = make_piece(Us, KNIGHT);
    (knight_attacks(Us, from) & pins(from, target)).for_each([&](Square to) {
      if (zone.test(to)) list = add_promote(list, from, to, pc);
      if (rank_of(to) != R1 && rank_of(to) != R2) list = add(list, from, to, pc);
    });
  });

  // Silvers: promotion is always optional.
  pos.pieces(Us, SILVER).for_each([&](Square from) {
    Piece pc = make_piece(Us, SILVER);
    bool from_zone = zone.test(from);
    (silver_attacks(Us, from) & pins(from, target)).for_each([&](Square to) {
      if (from_zone || zone.test(to)) list = add_promote(list, from, to, pc);
      list = add(list, from, to, pc);
    });
  });

  // Bishops and rooks: promoting is never worse but for mates, so the non-promotion is for All or a check.
  auto slider = [&](PieceType pt) {
    pos.pieces(Us, pt).for_each([&](Square from) {
      Piece pc = make_piece(Us, pt);
      bool from_zone = zone.test(from);
      Bitboard att = pt == BISHOP ? bishop_attacks(from, occ) : rook_attacks(from, occ);
      (att & pins(from, target)).for_each([&](Square to) {
        if (from_zone || zone.test(to)) {
          list = add_promote(list, from, to, pc);
          if (All || checks(pt, from, to)) list = add(list, from, to, pc);
        } else {
          list = add(list, from, to, pc);
        }
      });
    });
  };
  slider(BISHOP);
  slider(ROOK);

  // Gold-movers, horses and dragons never promote.
  pos.golds(Us).for_each([&](Square from) {
    Piece pc = pos.piece_on(from);
    (gold_attacks(Us, from) & pins(from, target)).for_each([&](Square to) { list = add(list, from, to, pc); });
  });
  pos.pieces(Us, HORSE).for_each([&](Square from) {
    Piece pc = make_piece(Us, HORSE);
    (horse_attacks(from, occ) & pins(from, target)).for_each([&](Square to) { list = add(list, from, to, pc); });
  });
  pos.pieces(Us, DRAGON).for_each([&](Square from) {
    Piece pc = make_piece(Us, DRAGON);
    (dragon_attacks(from, occ) & pins(from, target)).for_each([&](Square to) { list = add(list, from, to, pc); });
  });
  return list;
}

template <Color Us>
ExtMove* generate_pawn_nonpromotion_checks(const Position& pos, ExtMove* list, const Bitboard& target) {
  constexpr int pawn_back = Us == BLACK ? 1 : -1;
  constexpr Rank R1 = Us == BLACK ? RANK_1 : RANK_9;
  const NonPromotionChecks checks(pos, Us);
  const Piece pc = make_piece(Us, PAWN);
  (pawn_push(Us, pos.pieces(Us, PAWN)) & target).andnot(bb::RANK_BB[R1]).for_each([&](Square to) {
    const Square from = Square(to + pawn_back);
    if (checks(PAWN, from, to)) list = add(list, from, to, pc);
  });
  return list;
}

// With Legal, only the squares the enemy does not attack once the king has left its own square (a slider checking
// along a line still covers the square behind the king).
template <Color Us, bool Legal>
ExtMove* generate_king_moves(const Position& pos, ExtMove* list, const Bitboard& target) {
  if (!pos.has_king(Us)) return list;
  Square from = pos.king_square(Us);
  Piece pc = make_piece(Us, KING);
  if constexpr (Legal) {
    const Bitboard occ = pos.pieces() ^ from;
    (king_attacks(from) & target).for_each([&](Square to) {
      if (pos.attackers_to(~Us, to, occ).empty()) list = add(list, from, to, pc);
    });
  } else {
    (king_attacks(from) & target).for_each([&](Square to) { list = add(list, from, to, pc); });
  }
  return list;
}

// The squares of every file without a pawn in `pawns`: where a pawn may be dropped (nifu). Each file is 9 bits of
// one word; subtracting a file's lower 8 bits from its 9th bit leaves that bit set exactly when those 8 bits are
// zero, and no borrow crosses into the next file.
Bitboard files_without_pawn(const Bitboard& pawns) {
  constexpr auto top_bits = [](int files) {  // bit 8 of each of the word's first `files` files
    uint64_t top = 0;
    for (int f = 0; f < files; ++f) top |= uint64_t(1) << (9 * f + 8);
    return top;
  };
  constexpr uint64_t top_lo = top_bits(7);  // files 1-7 in word 0
  constexpr uint64_t top_hi = top_bits(2);  // files 8-9 in word 1
  auto empty_files = [](uint64_t x, uint64_t top) {
    const uint64_t e = (top - (x & ~top)) & ~x & top;  // bit 8 of every file with no bit set
    return e | (e - (e >> 8));                            // spread to the file's 9 bits
  };
  return Bitboard(empty_files(pawns.p[0], top_lo), empty_files(pawns.p[1], top_hi));
}

// Drops of the same N pieces on every square of `squares`; each base is a drop with square 0. A fixed count lets
// the compiler unroll the inner loop: drops are most of the moves in positions with full hands.
template <int N>
ExtMove* drop_each(ExtMove* list, const Bitboard& squares, const uint32_t* base) {
  squares.for_each([&](Square to) {
    for (int i = 0; i < N; ++i) list[i].move = Move(base[i] | uint32_t(to));
    list += N;
  });
  return list;
}

ExtMove* drop_each(ExtMove* list, const Bitboard& squares, const uint32_t* base, int n) {
  switch (n) {
    case 1: return drop_each<1>(list, squares, base);
    case 2: return drop_each<2>(list, squares, base);
    case 3: return drop_each<3>(list, squares, base);
    case 4: return drop_each<4>(list, squares, base);
    case 5: return drop_each<5>(list, squares, base);
    case 6: return drop_each<6>(list, squares, base);
    default: return list;
  }
}

// Drops onto empty squares in `target`, with every drop rule applied.
template <Color Us>
ExtMove* generate_drops(const Position& pos, ExtMove* list, Bitboard target) {
  Hand hand = pos.hand(Us);
  if (hand == HAND_ZERO || target.empty()) return list;
  constexpr Color Them = ~Us;
  constexpr Rank R1 = Us == BLACK ? RANK_1 : RANK_9;
  constexpr Rank R2 = Us == BLACK ? RANK_2 : RANK_8;

  if (hand_exists(hand, PAWN)) {
    Bitboard pawn_target = target & bb::MOVABLE_BB[Us][PAWN] & files_without_pawn(pos.pieces(Us, PAWN));
    // Only the square in front of the enemy king can be a pawn-drop mate.
    if (pos.has_king(Them)) {
      Bitboard front = pawn_attacks(Them, pos.king_square(Them)) & pawn_target;
      if (!front.empty() && pos.is_pawn_drop_mate(front.lsb())) pawn_target ^= front;
    }
    const uint32_t base = make_drop(make_piece(Us, PAWN), SQ_11);
    list = drop_each<1>(list, pawn_target, &base);
  }

  if (!hand_has_non_pawn(hand)) return list;

  // Pieces in hand other than pawns; lances and knights cannot go everywhere.
  uint32_t base[6];
  int n = 0;
  bool has_knight = hand_exists(hand, KNIGHT), has_lance = hand_exists(hand, LANCE);
  if (has_knight) base[n++] = make_drop(make_piece(Us, KNIGHT), SQ_11);
  if (has_lance) base[n++] = make_drop(make_piece(Us, LANCE), SQ_11);
  int first_anywhere = n;  // base[first_anywhere..] may be dropped on any rank
  for (PieceType pt : {SILVER, GOLD, BISHOP, ROOK})
    if (hand_exists(hand, pt)) base[n++] = make_drop(make_piece(Us, pt), SQ_11);

  Bitboard rank1 = target & bb::RANK_BB[R1];
  Bitboard rank2 = target & bb::RANK_BB[R2];
  Bitboard rest = target.andnot(bb::RANK_BB[R1] | bb::RANK_BB[R2]);
  list = drop_each(list, rest, base, n);
  const int first_rank2 = has_knight ? 1 : 0;  // no knight on the last two ranks
  list = drop_each(list, rank2, base + first_rank2, n - first_rank2);
  return drop_each(list, rank1, base + first_anywhere, n - first_anywhere);  // nor a lance on the last
}

// The drops that give check: each piece in hand onto the empty squares from which it attacks the enemy king.
template <Color Us>
ExtMove* generate_check_drops(const Position& pos, ExtMove* list) {
  const Hand hand = pos.hand(Us);
  if (hand == HAND_ZERO || !pos.has_king(~Us)) return list;
  const Bitboard empty = ~pos.pieces();
  for (PieceType pt : {PAWN, LANCE, KNIGHT, SILVER, GOLD, BISHOP, ROOK}) {
    if (!hand_exists(hand, pt)) continue;
    Bitboard to = pos.check_squares(pt) & empty & bb::MOVABLE_BB[Us][pt];
    if (pt == PAWN) {
      to &= files_without_pawn(pos.pieces(Us, PAWN));
      if (!to.empty() && pos.is_pawn_drop_mate(to.lsb())) continue;  // the one square in front of the king
    }
    const uint32_t base = make_drop(make_piece(Us, pt), SQ_11);
    list = drop_each<1>(list, to, &base);
  }
  return list;
}

// Keeps the moves of [begin, end) that give check, in their order; returns the new end.
ExtMove* keep_checks(const Position& pos, ExtMove* begin, ExtMove* end) {
  ExtMove* out = begin;
  for (ExtMove* cur = begin; cur != end; ++cur)
    if (pos.gives_check(cur->move)) *out++ = *cur;
  return out;
}

// CAPTURES landing on `squares` only, in CAPTURES' order.
template <Color Us, bool All, bool Legal>
ExtMove* generate_captures(const Position& pos, ExtMove* list, const Bitboard& squares) {
  const Bitboard enemies = pos.pieces(~Us) & squares;
  const Bitboard pawn_target = enemies | (~pos.pieces() & bb::PROMOTION_ZONE_BB[Us] & squares);
  list = generate_piece_moves<Us, All, Legal>(pos, list, enemies, pawn_target);
  return generate_king_moves<Us, Legal>(pos, list, enemies);
}

template <Color Us, GenType Type, bool All, bool Legal = false>
ExtMove* generate_all(const Position& pos, ExtMove* list) {
  constexpr Color Them = ~Us;
  const Bitboard empty = ~pos.pieces();
  const Bitboard enemies = pos.pieces(Them);

  if constexpr (Type == EVASIONS) {
    Square ksq = pos.king_square(Us);
    list = generate_king_moves<Us, Legal>(pos, list, ~pos.pieces(Us));
    Bitboard checkers = pos.checkers();
    if (checkers.more_than_one()) return list;  // only the king can answer a double check
    Square checker = checkers.lsb();
    Bitboard between = between_bb(checker, ksq);
    Bitboard target = between | checker;
    list = generate_piece_moves<Us, All, Legal>(pos, list, target, target);
    return generate_drops<Us>(pos, list, between);
  } else if constexpr (Type == CAPTURES) {
    return generate_captures<Us, All, Legal>(pos, list, ALL_SQUARES_BB);
  } else if constexpr (Type == QUIETS) {
    list = generate_piece_moves<Us, All, Legal>(pos, list, empty, empty.andnot(bb::PROMOTION_ZONE_BB[Us]));
    // The quiet pawn pushes into the zone are CAPTURES' promotions; their checking non-promotions are quiet moves.
    if constexpr (!All) list = generate_pawn_nonpromotion_checks<Us>(pos, list, empty & bb::PROMOTION_ZONE_BB[Us]);
    list = generate_king_moves<Us, Legal>(pos, list, empty);
    return generate_drops<Us>(pos, list, empty);
  } else {  // NON_EVASIONS
    Bitboard target = empty | enemies;
    list = generate_piece_moves<Us, All, Legal>(pos, list, target, target);
    list = generate_king_moves<Us, Legal>(pos, list, target);
    return generate_drops<Us>(pos, list, empty);
  }
}

// The squares from which some piece of the side to move (as it is or promoted) would attack the enemy king: on its
// lines, next to it, or a knight's jump away. Without a piece that uncovers a slider, every check lands on one.
Bitboard checking_squares(const Position& pos) {
  return pos.check_squares(DRAGON) | pos.check_squares(HORSE) | pos.check_squares(KNIGHT);
}

template <GenType Type, bool All>
ExtMove* generate_for_side(const Position& pos, ExtMove* list) {
  return pos.side_to_move() == BLACK ? generate_all<BLACK, Type, All>(pos, list)
                                     : generate_all<WHITE, Type, All>(pos, list);
}

// QUIETS filtered by gives_check, in the same order, without generating the quiet moves that cannot check: board
// moves and drops go only to squares from which some piece (as it is or promoted) attacks the enemy king, unless a
// piece of ours uncovers a slider, and the king only when it does. A full hand would otherwise make most of QUIETS
// drops that are generated, tested and thrown away, at every node that looks for checks.
// Restricted to moves landing on `squares`, the same moves in the same order, less those landing elsewhere.
template <Color Us>
ExtMove* generate_quiet_checks(const Position& pos, ExtMove* list, const Bitboard& squares) {
  if (!pos.has_king(~Us)) return list;
  const Bitboard empty = ~pos.pieces() & squares;
  const Bitboard zone = bb::PROMOTION_ZONE_BB[Us];
  const Bitboard reach = checking_squares(pos);
  const Bitboard discoverers = pos.blockers_for_king(~Us) & pos.pieces(Us);
  const Bitboard board_target = discoverers.empty() ? empty & reach : empty;
  ExtMove* end = generate_piece_moves<Us, false, false>(pos, list, board_target, board_target.andnot(zone));
  end = generate_pawn_nonpromotion_checks<Us>(pos, end, board_target & zone);
  if (pos.has_king(Us) && discoverers.test(pos.king_square(Us))) end = generate_king_moves<Us, false>(pos, end, empty);
  end = generate_drops<Us>(pos, end, empty & reach);
  return keep_checks(pos, list, end);
}

template <Color Us>
ExtMove* generate_legal(const Position& pos, ExtMove* list) {
  return pos.in_check() ? generate_all<Us, EVASIONS, true, true>(pos, list)
                        : generate_all<Us, NON_EVASIONS, true, true>(pos, list);
}

template <Color Us>
ExtMove* generate_legal_checks(const Position& pos, ExtMove* list) {
  if (pos.in_check()) return keep_checks(pos, list, generate_legal<Us>(pos, list));  // few moves, drops included
  Bitboard target = ~pos.pieces() | pos.pieces(~Us);
  if ((pos.blockers_for_king(~Us) & pos.pieces(Us)).empty()) target &= checking_squares(pos);
  ExtMove* end = generate_piece_moves<Us, true, true>(pos, list, target, target);
  // A king gives check only by uncovering a slider.
  if (pos.has_king(Us) && pos.blockers_for_king(~Us).test(pos.king_square(Us)))
    end = generate_king_moves<Us, true>(pos, end, target);
  return generate_check_drops<Us>(pos, keep_checks(pos, list, end));
}

}  // namespace

template <>
ExtMove* generate<CAPTURES>(const Position& pos, ExtMove* list) {
  return generate_for_side<CAPTURES, false>(pos, list);
}
template <>
ExtMove* generate<QUIETS>(const Position& pos, ExtMove* list) {
  return generate_for_side<QUIETS, false>(pos, list);
}
template <>
ExtMove* generate<NON_EVASIONS>(const Position& pos, ExtMove* list) {
  return generate_for_side<NON_EVASIONS, false>(pos, list);
}
template <>
ExtMove* generate<EVASIONS>(const Position& pos, ExtMove* list) {
  return generate_for_side<EVASIONS, false>(pos, list);
}
template <>
ExtMove* generate<NON_EVASIONS_ALL>(const Position& pos, ExtMove* list) {
  return generate_for_side<NON_EVASIONS, true>(pos, list);
}
template <>
ExtMove* generate<EVASIONS_ALL>(const Position& pos, ExtMove* list) {
  return generate_for_side<EVASIONS, true>(pos, list);
}

template <>
ExtMove* generate<QUIET_CHECKS>(const Position& pos, ExtMove* list) {
  return generate_quiet_checks_onto(pos, list, ALL_SQUARES_BB);
}

ExtMove* generate_quiet_checks_onto(const Position& pos, ExtMove* list, const Bitboard& squares) {
  return pos.side_to_move() == BLACK ? generate_quiet_checks<BLACK>(pos, list, squares)
                                     : generate_quiet_checks<WHITE>(pos, list, squares);
}

ExtMove* generate_captures_onto(const Position& pos, ExtMove* list, const Bitboard& squares) {
  return pos.side_to_move() == BLACK ? generate_captures<BLACK, false, false>(pos, list, squares)
                                     : generate_captures<WHITE, false, false>(pos, list, squares);
}

// Legal by construction: pinned pieces keep to their line, the king steps only where it is not attacked, and drops
// are always legal. No move is generated and then thrown away.
template <>
ExtMove* generate<LEGAL>(const Position& pos, ExtMove* list) {
  return pos.side_to_move() == BLACK ? generate_legal<BLACK>(pos, list) : generate_legal<WHITE>(pos, list);
}

template <>
ExtMove* generate<LEGAL_CHECKS>(const Position& pos, ExtMove* list) {
  return pos.side_to_move() == BLACK ? generate_legal_checks<BLACK>(pos, list)
                                     : generate_legal_checks<WHITE>(pos, list);
}

bool has_legal_move(const Position& pos) {
  const Color us = pos.side_to_move();
  if (!pos.in_check() && pos.has_king(us)) {
    // Not in check, a drop cannot expose the king, and these four pieces have no dead squares.
    const Hand hand = pos.hand(us);
    const bool free_dropper =
        hand_exists(hand, SILVER) || hand_exists(hand, GOLD) || hand_exists(hand, BISHOP) || hand_exists(hand, ROOK);
    if (free_dropper && !(~pos.pieces()).empty()) return true;
    // A king step to a square no enemy piece attacks. No slider's line runs through the king's own square (it
    // would be check), so the king's leaving it opens no line.
    const Square king = pos.king_square(us);
    bool safe_step = false;
    (king_attacks(king) & ~pos.pieces(us)).for_each([&](Square to) {
      safe_step = safe_step || !pos.attacked_by(~us, to);
    });
    if (safe_step) return true;
  }
  ExtMove moves[MAX_MOVES];
  return generate<LEGAL>(pos, moves) != moves;
}

}  // namespace shogi
