#include "position.h"

#include <algorithm>
#include <mutex>

#include "sfen.h"

namespace shogi {

namespace zobrist {
Key PSQ[PIECE_NB][SQ_NB];
Key HAND[COLOR_NB][HAND_TYPE_END];
}  // namespace zobrist

namespace {

// xorshift64*: fixed seed so keys (and hence search node counts) are identical on every run and machine.
struct KeyGenerator {
  uint64_t s = 0x9e3779b97f4a7c15ULL;
  uint64_t next() {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return s * 2685821657736338717ULL;
  }
};

void init_zobrist() {
  KeyGenerator rng;
  // Bit 0 is reserved for the side to move, so every other key keeps it clear.
  for (auto& row : zobrist::PSQ)
    for (Key& k : row) k = rng.next() & ~Key(1);
  for (auto& row : zobrist::HAND)
    for (Key& k : row) k = rng.next() & ~Key(1);
}

bool is_gold_like(PieceType pt) { return pt == GOLD || (pt >= PRO_PAWN && pt <= PRO_SILVER); }

}  // namespace

void Position::init() {
  static std::once_flag once;
  std::call_once(once, [] {
    bb::init();
    init_zobrist();
  });
}

void Position::clear() {
  std::fill(std::begin(board_), std::end(board_), NO_PIECE);
  for (Bitboard& b : by_type_) b = Bitboard();
  by_color_[BLACK] = by_color_[WHITE] = Bitboard();
  hand_[BLACK] = hand_[WHITE] = HAND_ZERO;
  king_square_[BLACK] = king_square_[WHITE] = SQ_NONE;
  side_to_move_ = BLACK;
  game_ply_ = 1;
}

void Position::put_piece(Piece pc, Square s) {
  PieceType pt = type_of(pc);
  board_[s] = pc;
  by_type_[NO_PIECE_TYPE].set(s);
  by_type_[pt].set(s);
  by_color_[color_of(pc)].set(s);
  if (is_gold_like(pt)) by_type_[GOLDS_INDEX].set(s);
  if (pt == KING) king_square_[color_of(pc)] = s;
}

void Position::remove_piece(Square s) {
  Piece pc = board_[s];
  PieceType pt = type_of(pc);
  board_[s] = NO_PIECE;
  by_type_[NO_PIECE_TYPE].clear(s);
  by_type_[pt].clear(s);
  by_color_[color_of(pc)].clear(s);
  if (is_gold_like(pt)) by_type_[GOLDS_INDEX].clear(s);
  if (pt == KING) king_square_[color_of(pc)] = SQ_NONE;
}

Key Position::compute_board_key() const {
  Key k = side_to_move_ == WHITE ? zobrist::SIDE : 0;
  for (int s = 0; s < SQ_NB; ++s)
    if (board_[s] != NO_PIECE) k ^= zobrist::PSQ[board_[s]][s];
  return k;
}

Key Position::compute_hand_key() const {
  Key k = 0;
  for (Color c : {BLACK, WHITE})
    for (int pt = PAWN; pt < HAND_TYPE_END; ++pt) k += zobrist::HAND[c][pt] * Key(hand_count(hand_[c], PieceType(pt)));
  return k;
}

std::expected<void, std::string> Position::set(std::string_view sfen, StateInfo* si, PieceLimits limits) {
  while (!sfen.empty() && (sfen.front() == ' ' || sfen.front() == '\t')) sfen.remove_prefix(1);
  while (!sfen.empty() && (sfen.back() == ' ' || sfen.back() == '\t' || sfen.back() == '\r' || sfen.back() == '\n'))
    sfen.remove_suffix(1);
  if (sfen == "startpos") sfen = START_SFEN;
  if (sfen.starts_with("sfen ")) sfen.remove_prefix(5);

  auto setup = parse_sfen(sfen, limits);
  if (!setup) return std::unexpected(setup.error());

  // The remaining check needs attack tables: judge it on a scratch position so *this stays untouched on error.
  Position scratch;
  scratch.clear();
  for (int s = 0; s < SQ_NB; ++s)
    if (setup->board[s] != NO_PIECE) scratch.put_piece(setup->board[s], Square(s));
  Color them = ~setup->side_to_move;
  if (scratch.has_king(them) && scratch.attacked_by(setup->side_to_move, scratch.king_square(them)))
    return std::unexpected(std::string("SFEN: the side not to move (") + (them == BLACK ? "black" : "white") +
                           ") is in check");

  clear();
  for (int s = 0; s < SQ_NB; ++s)
    if (setup->board[s] != NO_PIECE) put_piece(setup->board[s], Square(s));
  hand_[BLACK] = setup->hand[BLACK];
  hand_[WHITE] = setup->hand[WHITE];
  side_to_move_ = setup->side_to_move;
  game_ply_ = setup->move_number;

  *si = StateInfo();
  st_ = si;
  si->board_key = compute_board_key();
  si->hand_key = compute_hand_key();
  Color us = side_to_move_;
  si->checkers = has_king(us) ? attackers_to(~us, king_square(us)) : Bitboard();
  set_check_info(*si);
  return {};
}

void Position::copy_from(const Position& other, StateInfo* si) {
  std::copy(std::begin(other.board_), std::end(other.board_), std::begin(board_));
  std::copy(std::begin(other.by_type_), std::end(other.by_type_), std::begin(by_type_));
  by_color_[BLACK] = other.by_color_[BLACK];
  by_color_[WHITE] = other.by_color_[WHITE];
  hand_[BLACK] = other.hand_[BLACK];
  hand_[WHITE] = other.hand_[WHITE];
  king_square_[BLACK] = other.king_square_[BLACK];
  king_square_[WHITE] = other.king_square_[WHITE];
  side_to_move_ = other.side_to_move_;
  game_ply_ = other.game_ply_;
  *si = *other.st_;
  // The history is not copied, so repetition detection must not look behind this point.
  si->previous = nullptr;
  si->plies_from_null = 0;
  st_ = si;
}

std::string Position::sfen() const {
  BoardSetup setup;
  std::copy(std::begin(board_), std::end(board_), setup.board.begin());
  setup.hand[BLACK] = hand_[BLACK];
  setup.hand[WHITE] = hand_[WHITE];
  setup.side_to_move = side_to_move_;
  setup.move_number = game_ply_;
  return to_sfen(setup);
}

std::string Position::flipped_sfen() const {
  BoardSetup setup;
  for (int s = 0; s < SQ_NB; ++s) setup.board[flip(Square(s))] = flip(board_[s]);
  setup.hand[BLACK] = hand_[WHITE];
  setup.hand[WHITE] = hand_[BLACK];
  setup.side_to_move = ~side_to_move_;
  setup.move_number = game_ply_;
  return to_sfen(setup);
}

Bitboard Position::attackers_to(Color c, Square s, const Bitboard& occ) const {
  Color them = ~c;  // attacks toward s are the reverse of the attacker's own steps
  Bitboard hdk = pieces(HORSE, DRAGON) | pieces(KING);
  Bitboard a = (pawn_attacks(them, s) & pieces(PAWN)) | (knight_attacks(them, s) & pieces(KNIGHT)) |
               (silver_attacks(them, s) & pieces(SILVER)) | (gold_attacks(them, s) & golds()) |
               (king_attacks(s) & hdk) | (lance_attacks(them, s, occ) & pieces(LANCE)) |
               (rook_attacks(s, occ) & pieces(ROOK, DRAGON)) | (bishop_attacks(s, occ) & pieces(BISHOP, HORSE));
  return a & pieces(c);
}

Bitboard Position::attackers_to(Square s, const Bitboard& occ) const {
  Bitboard steppers = king_attacks(s) & (pieces(HORSE, DRAGON) | pieces(KING));
  for (Color c : {BLACK, WHITE}) {
    const Color them = ~c;
    steppers |= ((pawn_attacks(them, s) & pieces(PAWN)) | (knight_attacks(them, s) & pieces(KNIGHT)) |
                 (silver_attacks(them, s) & pieces(SILVER)) | (gold_attacks(them, s) & golds())) &
                pieces(c);
  }
  return steppers | slider_attackers_to(s, occ);
}

Bitboard Position::slider_attackers_to(Square s, const Bitboard& occ) const {
  // A black lance attacks s from where a white lance on s would attack, and the other way round.
  return (lance_attacks(WHITE, s, occ) & pieces(BLACK, LANCE)) |
         (lance_attacks(BLACK, s, occ) & pieces(WHITE, LANCE)) | (rook_attacks(s, occ) & pieces(ROOK, DRAGON)) |
         (bishop_attacks(s, occ) & pieces(BISHOP, HORSE));
}

void Position::update_slider_blockers(Color c, StateInfo& st) const {
  st.blockers_for_king[c] = Bitboard();
  st.pinners[c] = Bitboard();
  if (!has_king(c)) return;
  Square ksq = king_square(c);
  Color them = ~c;
  Bitboard snipers = ((bb::FORWARD_FILE_BB[c][ksq] & pieces(them, LANCE)) |
                      (bb::ROOK_RAYS[ksq] & pieces(them, ROOK, DRAGON)) |
                      (bb::BISHOP_RAYS[ksq] & pieces(them, BISHOP, HORSE)));
  Bitboard occ = pieces();
  snipers.for_each([&](Square sniper) {
    Bitboard b = between_bb(sniper, ksq) & occ;
    if (!b.empty() && !b.more_than_one()) {
      st.blockers_for_king[c] |= b;
      if (!(b & pieces(c)).empty()) st.pinners[c].set(sniper);
    }
  });
}

void Position::set_check_info(StateInfo& st) const {
  update_slider_blockers(BLACK, st);
  update_slider_blockers(WHITE, st);
  for (Bitboard& b : st.check_squares) b = Bitboard();
  Color them = ~side_to_move_;
  if (!has_king(them)) return;
  Square ksq = king_square(them);
  Bitboard occ = pieces();
  // A piece of ours gives check from s when the king, moving like that piece of theirs, would reach s.
  st.check_squares[PAWN] = pawn_attacks(them, ksq);
  st.check_squares[KNIGHT] = knight_attacks(them, ksq);
  st.check_squares[SILVER] = silver_attacks(them, ksq);
  Bitboard gold = gold_attacks(them, ksq);
  for (PieceType pt : {GOLD, PRO_PAWN, PRO_LANCE, PRO_KNIGHT, PRO_SILVER}) st.check_squares[pt] = gold;
  st.check_squares[LANCE] = lance_attacks(them, ksq, occ);
  st.check_squares[BISHOP] = bishop_attacks(ksq, occ);
  st.check_squares[ROOK] = rook_attacks(ksq, occ);
  st.check_squares[HORSE] = st.check_squares[BISHOP] | king_attacks(ksq);
  st.check_squares[DRAGON] = st.check_squares[ROOK] | king_attacks(ksq);
}

Move Position::to_move(Move16 m16) const {
  Move m = Move(m16);
  if (m16 == MOVE16_NONE) return MOVE_NONE;
  if (is_drop(m)) {
    PieceType pt = dropped_type(m);
    if (pt < PAWN || pt >= KING) return MOVE_NONE;
    return Move(m | (uint32_t(make_piece(side_to_move_, pt)) << 16));
  }
  Square from = from_sq(m);
  if (from >= SQ_NB) return MOVE_NONE;
  Piece pc = board_[from];
  if (pc == NO_PIECE || color_of(pc) != side_to_move_) return MOVE_NONE;
  return Move(m | (uint32_t(pc) << 16));
}

bool Position::pseudo_legal(Move m) const {
  if (!is_ok(m)) return false;
  Color us = side_to_move_;
  Square to = to_sq(m);
  if (to >= SQ_NB) return false;

  if (is_drop(m)) {
    PieceType pt = dropped_type(m);
    if (pt < PAWN || pt >= KING || is_promotion(m) || moved_piece(m) != make_piece(us, pt)) return false;
    if (!hand_exists(hand_[us], pt) || board_[to] != NO_PIECE || !bb::MOVABLE_BB[us][pt].test(to)) return false;
    if (in_check()) {
      // A drop can only interpose against a single sliding check.
      if (checkers().more_than_one() || !between_bb(checkers().lsb(), king_square(us)).test(to)) return false;
    }
    if (pt == PAWN && (!(pieces(us, PAWN) & file_bb(file_of(to))).empty() || is_pawn_drop_mate(to))) return false;
    return true;
  }

  Square from = from_sq(m);
  if (from >= SQ_NB) return false;
  Piece pc = board_[from];
  if (pc == NO_PIECE || color_of(pc) != us || pc != moved_piece(m)) return false;
  if (pieces(us).test(to) || !attacks_from(pc, from, pieces()).test(to)) return false;
  PieceType pt = type_of(pc);
  if (is_promotion(m)) {
    if (!can_promote(pt) || !(in_promotion_zone(us, from) || in_promotion_zone(us, to))) return false;
  } else if (!bb::MOVABLE_BB[us][pt].test(to)) {
    return false;
  }
  if (in_check() && pt != KING) {
    if (checkers().more_than_one()) return false;
    Square checker = checkers().lsb();
    if (!(between_bb(checker, king_square(us)) | checker).test(to)) return false;
  }
  return true;
}

bool Position::legal(Move m) const {
  // A drop cannot uncover a check, and generators only drop between king and checker when in check.
  if (is_drop(m)) return true;
  Color us = side_to_move_;
  if (!has_king(us)) return true;
  Square from = from_sq(m), to = to_sq(m), ksq = king_square(us);
  // The king must not step onto an attacked square; it is removed from the occupancy so that a slider checking
  // along a line still attacks the square behind it.
  if (from == ksq) return attackers_to(~us, to, pieces() ^ from).empty();
  // Any other piece is safe unless it is pinned and leaves the line to its king.
  return !blockers_for_king(us).test(from) || aligned(from, to, ksq);
}

bool Position::gives_check(Move m) const {
  Color them = ~side_to_move_;
  if (!has_king(them)) return false;
  Square to = to_sq(m);
  if (is_drop(m)) return check_squares(dropped_type(m)).test(to);
  Square from = from_sq(m);
  PieceType after = type_of(board_[from]);
  if (is_promotion(m)) after = promote(after);
  if (check_squares(after).test(to)) return true;
  // Discovered check: the mover uncovers one of our sliders unless it stays on the line to the king.
  return blockers_for_king(them).test(from) && !aligned(from, to, king_square(them));
}

bool Position::is_pawn_drop_mate(Square to) const {
  Color us = side_to_move_, them = ~us;
  if (!has_king(them)) return false;
  Square ksq = king_square(them);
  if (!pawn_attacks(us, to).test(ksq)) return false;

  Bitboard occ = pieces() | to;
  // Pins must be judged with the pawn on the board: it may itself block a line and free a defender.
  Bitboard pinned;
  Bitboard snipers = (bb::FORWARD_FILE_BB[them][ksq] & pieces(us, LANCE)) |
                     (bb::ROOK_RAYS[ksq] & pieces(us, ROOK, DRAGON)) |
                     (bb::BISHOP_RAYS[ksq] & pieces(us, BISHOP, HORSE));
  snipers.for_each([&](Square sniper) {
    Bitboard b = between_bb(sniper, ksq) & occ;
    if (!b.empty() && !b.more_than_one()) pinned |= b;
  });
  Bitboard defenders = attackers_to(them, to, occ).andnot(square_bb(ksq));
  bool can_capture = false;
  defenders.for_each([&](Square from) {
    if (!pinned.test(from) || aligned(from, to, ksq)) can_capture = true;
  });
  if (can_capture) return false;

  // The king escapes to (or captures on) any square our pieces do not attack once it has left its square.
  Bitboard escapes = king_attacks(ksq).andnot(pieces(them));
  Bitboard occ_without_king = occ ^ ksq;
  bool escape = false;
  escapes.for_each([&](Square s) {
    if (!escape && attackers_to(us, s, occ_without_king).empty()) escape = true;
  });
  return !escape;
}

void Position::do_move(Move m, StateInfo& new_st, bool gives_check) {
  Key board_key = st_->board_key ^ zobrist::SIDE;
  Key hand_key = st_->hand_key;
  new_st.plies_from_null = st_->plies_from_null + 1;
  new_st.continuous_check[BLACK] = st_->continuous_check[BLACK];
  new_st.continuous_check[WHITE] = st_->continuous_check[WHITE];
  new_st.previous = st_;

  Color us = side_to_move_, them = ~us;
  Square to = to_sq(m);
  Piece captured = NO_PIECE;
  if (is_drop(m)) {
    PieceType pt = dropped_type(m);
    Piece pc = make_piece(us, pt);
    hand_[us] = hand_sub(hand_[us], pt);
    hand_key -= zobrist::HAND[us][pt];
    put_piece(pc, to);
    board_key ^= zobrist::PSQ[pc][to];
  } else {
    Square from = from_sq(m);
    Piece pc = board_[from];
    captured = board_[to];
    if (captured != NO_PIECE) {
      PieceType raw = raw_type(type_of(captured));
      remove_piece(to);
      board_key ^= zobrist::PSQ[captured][to];
      hand_[us] = hand_add(hand_[us], raw);
      hand_key += zobrist::HAND[us][raw];
    }
    remove_piece(from);
    board_key ^= zobrist::PSQ[pc][from];
    Piece after = is_promotion(m) ? promote(pc) : pc;
    put_piece(after, to);
    board_key ^= zobrist::PSQ[after][to];
  }

  side_to_move_ = them;
  ++game_ply_;
  st_ = &new_st;
  new_st.board_key = board_key;
  new_st.hand_key = hand_key;
  new_st.captured = captured;
  new_st.checkers = gives_check ? attackers_to(us, king_square(them)) : Bitboard();
  new_st.continuous_check[us] = gives_check ? new_st.continuous_check[us] + 1 : 0;
  set_check_info(new_st);
}

void Position::undo_move(Move m) {
  side_to_move_ = ~side_to_move_;
  --game_ply_;
  Color us = side_to_move_;
  Square to = to_sq(m);
  if (is_drop(m)) {
    remove_piece(to);
    hand_[us] = hand_add(hand_[us], dropped_type(m));
  } else {
    Piece after = board_[to];
    remove_piece(to);
    put_piece(is_promotion(m) ? unpromote(after) : after, from_sq(m));
    if (st_->captured != NO_PIECE) {
      put_piece(st_->captured, to);
      hand_[us] = hand_sub(hand_[us], raw_type(type_of(st_->captured)));
    }
  }
  st_ = st_->previous;
}

void Position::do_null_move(StateInfo& new_st) {
  new_st = *st_;
  new_st.previous = st_;
  new_st.board_key ^= zobrist::SIDE;
  new_st.plies_from_null = 0;
  new_st.captured = NO_PIECE;
  new_st.checkers = Bitboard();
  side_to_move_ = ~side_to_move_;
  st_ = &new_st;
  set_check_info(new_st);
}

void Position::undo_null_move() {
  side_to_move_ = ~side_to_move_;
  st_ = st_->previous;
}

Key Position::key_after(Move m) const {
  Color us = side_to_move_;
  Key board_key = st_->board_key ^ zobrist::SIDE;
  Key hand_key = st_->hand_key;
  Square to = to_sq(m);
  if (is_drop(m)) {
    PieceType pt = dropped_type(m);
    board_key ^= zobrist::PSQ[make_piece(us, pt)][to];
    hand_key -= zobrist::HAND[us][pt];
  } else {
    Square from = from_sq(m);
    Piece pc = board_[from];
    board_key ^= zobrist::PSQ[pc][from] ^ zobrist::PSQ[is_promotion(m) ? promote(pc) : pc][to];
    if (Piece cap = board_[to]; cap != NO_PIECE) {
      board_key ^= zobrist::PSQ[cap][to];
      hand_key += zobrist::HAND[us][raw_type(type_of(cap))];
    }
  }
  return board_key + hand_key;
}

Repetition Position::repetition(int occurrences, int max_distance) const {
  int end = std::min(max_distance, st_->plies_from_null);
  if (end < 4 || occurrences < 2) return Repetition::None;
  Key key = st_->key();
  const StateInfo* stp = st_->previous->previous;
  int found = 0;
  for (int i = 2; i <= end; i += 2) {
    if (stp->key() == key && ++found == occurrences - 1) {
      // i plies back is the first occurrence of the cycle; each side made i/2 moves since.
      Color us = side_to_move_, them = ~us;
      bool them_checked_all = st_->continuous_check[them] * 2 >= i;
      bool us_checked_all = st_->continuous_check[us] * 2 >= i;
      if (them_checked_all && !us_checked_all) return Repetition::Win;
      if (us_checked_all && !them_checked_all) return Repetition::Loss;
      return Repetition::Draw;
    }
    if (i + 2 <= end) stp = stp->previous->previous;
  }
  return Repetition::None;
}

std::string Position::validate() const {
  Bitboard occ, colors[COLOR_NB], types[PIECE_TYPE_NB];
  for (int s = 0; s < SQ_NB; ++s) {
    Piece pc = board_[s];
    if (pc == NO_PIECE) continue;
    occ.set(Square(s));
    colors[color_of(pc)].set(Square(s));
    types[type_of(pc)].set(Square(s));
  }
  if (!(occ == pieces())) return "occupancy bitboard differs from the board";
  for (Color c : {BLACK, WHITE}) {
    if (!(colors[c] == pieces(c))) return "colour bitboard differs from the board";
    Bitboard kings = types[KING] & colors[c];
    Square expected = kings.empty() ? SQ_NONE : kings.lsb();
    if (expected != king_square_[c]) return "king square differs from the board";
  }
  for (int pt = PAWN; pt <= DRAGON; ++pt)
    if (!(types[pt] == pieces(PieceType(pt)))) return "piece-type bitboard differs from the board";
  if (st_->board_key != compute_board_key()) return "board key differs from a recomputation";
  if (st_->hand_key != compute_hand_key()) return "hand key differs from a recomputation";
  Color us = side_to_move_;
  Bitboard checkers = has_king(us) ? attackers_to(~us, king_square(us)) : Bitboard();
  if (!(checkers == st_->checkers)) return "checkers differ from a recomputation";
  if (has_king(~us) && attacked_by(us, king_square(~us))) return "the side not to move is in check";
  return "";
}

}  // namespace shogi
