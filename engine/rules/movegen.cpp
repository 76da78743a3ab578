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

// Board moves of every non-king piece of colour Us to squares in `target`. `pawn_target` is separate because
// CAPTURES takes quiet pawn promotions while QUIETS leaves them out. Non-promotions that a promotion dominates
// (pawns, bishops and rooks that could promote, lances to the second rank) are generated only when they give
// check, which is where they can matter (a mate that a promoted piece would spoil, e.g. by making a later pawn drop
// mate), or with All, always. A pawn's checking non-promotion is a quiet move unless it captures: it follows
// `target`, not `pawn_target`.
template <Color Us, bool All>
ExtMove* generate_piece_moves(const Position& pos, ExtMove* list, const Bitboard& target, const Bitboard& pawn_target) {
  const Bitboard occ = pos.pieces();
  const Bitboard zone = bb::PROMOTION_ZONE_BB[Us];
  const NonPromotionChecks checks(pos, Us);
  constexpr int pawn_back = Us == BLACK ? 1 : -1;  // origin = destination + pawn_back
  constexpr Rank R1 = Us == BLACK ? RANK_1 : RANK_9;
  constexpr Rank R2 = Us == BLACK ? RANK_2 : RANK_8;
  constexpr Rank R3 = Us == BLACK ? RANK_3 : RANK_7;

  // Pawns, all at once.
  {
    Piece pc = make_piece(Us, PAWN);
    Bitboard to_bb = pawn_push(Us, pos.pieces(Us, PAWN)) & pawn_target;
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
    (lance_attacks(Us, from, occ) & target).for_each([&](Square to) {
      Rank r = rank_of(to);
      if (zone.test(to)) {
        list = add_promote(list, from, to, pc);
        if (r == R3 || (r == R2 && (All || checks(LANCE, from, to)))) list = add(list, from, to, pc);
      } else {
        list = add(list, from, to, pc);
      }
    });
  });

  // Knights: promotion is optional on the third rank and forced beyond.
  pos.pieces(Us, KNIGHT).for_each([&](Square from) {
    Piece pc = make_piece(Us, KNIGHT);
    (knight_attacks(Us, from) & target).for_each([&](Square to) {
      if (zone.test(to)) list = add_promote(list, from, to, pc);
      if (rank_of(to) != R1 && rank_of(to) != R2) list = add(list, from, to, pc);
    });
  });

  // Silvers: promotion is always optional.
  pos.pieces(Us, SILVER).for_each([&](Square from) {
    Piece pc = make_piece(Us, SILVER);
    bool from_zone = zone.test(from);
    (silver_attacks(Us, from) & target).for_each([&](Square to) {
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
      (att & target).for_each([&](Square to) {
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
    (gold_attacks(Us, from) & target).for_each([&](Square to) { list = add(list, from, to, pc); });
  });
  pos.pieces(Us, HORSE).for_each([&](Square from) {
    Piece pc = make_piece(Us, HORSE);
    (horse_attacks(from, occ) & target).for_each([&](Square to) { list = add(list, from, to, pc); });
  });
  pos.pieces(Us, DRAGON).for_each([&](Square from) {
    Piece pc = make_piece(Us, DRAGON);
    (dragon_attacks(from, occ) & target).for_each([&](Square to) { list = add(list, from, to, pc); });
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

template <Color Us>
ExtMove* generate_king_moves(const Position& pos, ExtMove* list, const Bitboard& target) {
  if (!pos.has_king(Us)) return list;
  Square from = pos.king_square(Us);
  Piece pc = make_piece(Us, KING);
  (king_attacks(from) & target).for_each([&](Square to) { list = add(list, from, to, pc); });
  return list;
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
    Bitboard pawn_target = target & bb::MOVABLE_BB[Us][PAWN];
    Bitboard pawns = pos.pieces(Us, PAWN);
    for (int f = 0; f < FILE_NB; ++f)
      if (!(pawns & bb::FILE_BB[f]).empty()) pawn_target = pawn_target.andnot(bb::FILE_BB[f]);
    // Only the square in front of the enemy king can be a pawn-drop mate.
    if (pos.has_king(Them)) {
      Bitboard front = pawn_attacks(Them, pos.king_square(Them)) & pawn_target;
      if (!front.empty() && pos.is_pawn_drop_mate(front.lsb())) pawn_target ^= front;
    }
    Piece pc = make_piece(Us, PAWN);
    pawn_target.for_each([&](Square to) { (list++)->move = make_drop(pc, to); });
  }

  if (!hand_has_non_pawn(hand)) return list;

  // Pieces in hand other than pawns; lances and knights cannot go everywhere.
  Piece pieces[6];
  int n = 0;
  bool has_knight = hand_exists(hand, KNIGHT), has_lance = hand_exists(hand, LANCE);
  if (has_knight) pieces[n++] = make_piece(Us, KNIGHT);
  if (has_lance) pieces[n++] = make_piece(Us, LANCE);
  int first_anywhere = n;  // pieces[first_anywhere..] may be dropped on any rank
  for (PieceType pt : {SILVER, GOLD, BISHOP, ROOK})
    if (hand_exists(hand, pt)) pieces[n++] = make_piece(Us, pt);

  auto drop_all = [&](const Bitboard& squares, int first) {
    squares.for_each([&](Square to) {
      for (int i = first; i < n; ++i) (list++)->move = make_drop(pieces[i], to);
    });
  };
  Bitboard rank1 = target & bb::RANK_BB[R1];
  Bitboard rank2 = target & bb::RANK_BB[R2];
  Bitboard rest = target.andnot(bb::RANK_BB[R1] | bb::RANK_BB[R2]);
  drop_all(rest, 0);
  drop_all(rank2, has_knight ? 1 : 0);  // no knight on the last two ranks
  drop_all(rank1, first_anywhere);      // nor a lance on the last
  return list;
}

template <Color Us, GenType Type, bool All>
ExtMove* generate_all(const Position& pos, ExtMove* list) {
  constexpr Color Them = ~Us;
  const Bitboard empty = ~pos.pieces();
  const Bitboard enemies = pos.pieces(Them);

  if constexpr (Type == EVASIONS) {
    Square ksq = pos.king_square(Us);
    list = generate_king_moves<Us>(pos, list, ~pos.pieces(Us));
    Bitboard checkers = pos.checkers();
    if (checkers.more_than_one()) return list;  // only the king can answer a double check
    Square checker = checkers.lsb();
    Bitboard between = between_bb(checker, ksq);
    Bitboard target = between | checker;
    list = generate_piece_moves<Us, All>(pos, list, target, target);
    return generate_drops<Us>(pos, list, between);
  } else if constexpr (Type == CAPTURES) {
    Bitboard pawn_target = enemies | (empty & bb::PROMOTION_ZONE_BB[Us]);
    list = generate_piece_moves<Us, All>(pos, list, enemies, pawn_target);
    return generate_king_moves<Us>(pos, list, enemies);
  } else if constexpr (Type == QUIETS) {
    list = generate_piece_moves<Us, All>(pos, list, empty, empty.andnot(bb::PROMOTION_ZONE_BB[Us]));
    // The quiet pawn pushes into the zone are CAPTURES' promotions; their checking non-promotions are quiet moves.
    if constexpr (!All) list = generate_pawn_nonpromotion_checks<Us>(pos, list, empty & bb::PROMOTION_ZONE_BB[Us]);
    list = generate_king_moves<Us>(pos, list, empty);
    return generate_drops<Us>(pos, list, empty);
  } else {  // NON_EVASIONS
    Bitboard target = empty | enemies;
    list = generate_piece_moves<Us, All>(pos, list, target, target);
    list = generate_king_moves<Us>(pos, list, target);
    return generate_drops<Us>(pos, list, empty);
  }
}

template <GenType Type, bool All>
ExtMove* generate_for_side(const Position& pos, ExtMove* list) {
  return pos.side_to_move() == BLACK ? generate_all<BLACK, Type, All>(pos, list)
                                     : generate_all<WHITE, Type, All>(pos, list);
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
  ExtMove* end = generate<QUIETS>(pos, list);
  ExtMove* out = list;
  for (ExtMove* cur = list; cur != end; ++cur)
    if (pos.gives_check(cur->move)) *out++ = *cur;
  return out;
}

template <>
ExtMove* generate<LEGAL>(const Position& pos, ExtMove* list) {
  ExtMove* end = pos.in_check() ? generate<EVASIONS_ALL>(pos, list) : generate<NON_EVASIONS_ALL>(pos, list);
  Color us = pos.side_to_move();
  if (!pos.has_king(us)) return end;
  // Only king moves and moves of pinned pieces can be illegal: test just those.
  Square ksq = pos.king_square(us);
  Bitboard pinned = pos.blockers_for_king(us) & pos.pieces(us);
  ExtMove* cur = list;
  while (cur != end) {
    Move m = cur->move;
    if (!is_drop(m) && (from_sq(m) == ksq || pinned.test(from_sq(m))) && !pos.legal(m))
      *cur = *--end;
    else
      ++cur;
  }
  return end;
}

}  // namespace shogi
