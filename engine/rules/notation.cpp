#include "notation.h"

namespace shogi {

namespace {

constexpr std::string_view CSA_NAMES[] = {"* ", "FU", "KY", "KE", "GI", "KA", "HI", "KI",
                                          "OU", "TO", "NY", "NK", "NG", "UM", "RY"};
constexpr std::string_view USI_DROP_LETTERS = " PLNSBRG";

std::string_view type_word(PieceType pt) {
  constexpr std::string_view names[] = {
      "",     "pawn",          "lance",          "knight",          "silver",          "bishop", "rook",  "gold",
      "king", "promoted pawn", "promoted lance", "promoted knight", "promoted silver", "horse",  "dragon"};
  return names[pt];
}

std::string usi_square(Square s) { return to_string(s); }

bool parse_usi_square(char f, char r, Square& s) {
  if (f < '1' || f > '9' || r < 'a' || r > 'i') return false;
  s = make_square(File(f - '1'), Rank(r - 'a'));
  return true;
}

bool parse_csa_square(char f, char r, Square& s) {
  if (f < '1' || f > '9' || r < '1' || r > '9') return false;
  s = make_square(File(f - '1'), Rank(r - '1'));
  return true;
}

std::string csa_square(Square s) { return std::string{char('1' + file_of(s)), char('1' + rank_of(s))}; }

}  // namespace

std::string to_usi(Move m) {
  switch (m) {
    case MOVE_NONE:
      return "none";
    case MOVE_NULL:
      return "0000";
    case MOVE_RESIGN:
      return "resign";
    case MOVE_WIN:
      return "win";
    default:
      break;
  }
  if (is_drop(m)) return std::string{USI_DROP_LETTERS[dropped_type(m)], '*'} + usi_square(to_sq(m));
  return usi_square(from_sq(m)) + usi_square(to_sq(m)) + (is_promotion(m) ? "+" : "");
}

std::string_view csa_piece_name(PieceType pt) { return CSA_NAMES[pt]; }

std::expected<PieceType, std::string> parse_csa_piece(std::string_view name) {
  for (int pt = PAWN; pt <= DRAGON; ++pt)
    if (CSA_NAMES[pt] == name) return PieceType(pt);
  return std::unexpected("unknown CSA piece '" + std::string(name) + "'");
}

std::string to_csa(Move m) {
  Piece pc = moved_piece(m);
  std::string out(1, color_of(pc) == BLACK ? '+' : '-');
  out += is_drop(m) ? "00" : csa_square(from_sq(m));
  out += csa_square(to_sq(m));
  out += csa_piece_name(type_of(moved_piece_after(m)));
  return out;
}

std::string illegal_reason(const Position& pos, Move m) {
  Color us = pos.side_to_move();
  Square to = to_sq(m);
  if (is_drop(m)) {
    PieceType pt = dropped_type(m);
    if (!hand_exists(pos.hand(us), pt)) return "no " + std::string(type_word(pt)) + " in hand";
    if (pos.piece_on(to) != NO_PIECE) return usi_square(to) + " is occupied";
    if (!bb::MOVABLE_BB[us][pt].test(to))
      return "a " + std::string(type_word(pt)) + " dropped on " + usi_square(to) + " could never move";
    if (pt == PAWN && !(pos.pieces(us, PAWN) & file_bb(file_of(to))).empty())
      return "two unpromoted pawns on file " + std::to_string(file_of(to) + 1) + " (nifu)";
    if (pt == PAWN && pos.is_pawn_drop_mate(to)) return "a pawn drop that gives mate (uchifuzume)";
    if (pos.in_check() && !pos.pseudo_legal(m)) return "leaves the king in check";
  } else {
    Square from = from_sq(m);
    Piece pc = pos.piece_on(from);
    if (pc == NO_PIECE || color_of(pc) != us) return "no piece of the side to move on " + usi_square(from);
    PieceType pt = type_of(pc);
    if (!(pos.pieces(us) & to).empty()) return usi_square(to) + " is occupied by the mover's own piece";
    if (!attacks_from(pc, from, pos.pieces()).test(to))
      return "the " + std::string(type_word(pt)) + " on " + usi_square(from) + " cannot move to " + usi_square(to);
    if (is_promotion(m)) {
      if (!can_promote(pt)) return "a " + std::string(type_word(pt)) + " cannot promote";
      if (!in_promotion_zone(us, from) && !in_promotion_zone(us, to))
        return "a promotion must start or end in the promotion zone";
    } else if (!bb::MOVABLE_BB[us][pt].test(to)) {
      return "the " + std::string(type_word(pt)) + " must promote on " + usi_square(to);
    }
    if (!pos.pseudo_legal(m) || !pos.legal(m)) return "leaves the king in check";
  }
  // The checks above mirror pseudo_legal/legal; this guards against any gap between them.
  if (!pos.pseudo_legal(m) || !pos.legal(m)) return "illegal move";
  return "";
}

std::expected<Move, std::string> parse_usi_move(const Position& pos, std::string_view text) {
  auto error = [&](const std::string& why) { return std::unexpected(std::string(text) + ": " + why); };
  Color us = pos.side_to_move();
  Move m;
  Square from, to;
  if (text.size() == 4 && text[1] == '*') {
    size_t letter = USI_DROP_LETTERS.find(text[0]);
    if (letter == std::string_view::npos || letter == 0 || !parse_usi_square(text[2], text[3], to))
      return error("not a USI move (expected e.g. 7g7f, 8h2b+ or P*5e)");
    m = make_drop(make_piece(us, PieceType(letter)), to);
  } else if ((text.size() == 4 || (text.size() == 5 && text[4] == '+')) && parse_usi_square(text[0], text[1], from) &&
             parse_usi_square(text[2], text[3], to)) {
    Piece pc = pos.piece_on(from);
    if (pc == NO_PIECE || color_of(pc) != us) return error("no piece of the side to move on " + usi_square(from));
    m = text.size() == 5 ? make_move_promote(from, to, pc) : make_move(from, to, pc);
  } else {
    return error("not a USI move (expected e.g. 7g7f, 8h2b+ or P*5e)");
  }
  if (std::string why = illegal_reason(pos, m); !why.empty()) return error(why);
  return m;
}

std::expected<Move, std::string> parse_csa_move(const Position& pos, std::string_view text) {
  auto error = [&](const std::string& why) { return std::unexpected(std::string(text) + ": " + why); };
  Square from, to;
  if (text.size() != 7 || (text[0] != '+' && text[0] != '-') || !parse_csa_square(text[3], text[4], to))
    return error("not a CSA move (expected e.g. +7776FU or -0034KA)");
  auto piece = parse_csa_piece(text.substr(5, 2));
  if (!piece) return error(piece.error());
  Color mover = text[0] == '+' ? BLACK : WHITE;
  Color us = pos.side_to_move();
  if (mover != us) return error(std::string("it is ") + (us == BLACK ? "black's (+)" : "white's (-)") + " turn");
  Move m;
  if (text[1] == '0' && text[2] == '0') {
    if (*piece < PAWN || *piece >= KING) return error("a " + std::string(type_word(*piece)) + " cannot be dropped");
    m = make_drop(make_piece(us, *piece), to);
  } else {
    if (!parse_csa_square(text[1], text[2], from)) return error("not a CSA move (bad origin square)");
    Piece pc = pos.piece_on(from);
    if (pc == NO_PIECE || color_of(pc) != us) return error("no piece of the side to move on " + csa_square(from));
    PieceType pt = type_of(pc);
    if (*piece == pt)
      m = make_move(from, to, pc);
    else if (can_promote(pt) && *piece == promote(pt))
      m = make_move_promote(from, to, pc);
    else
      return error("the piece on " + csa_square(from) + " is " + std::string(csa_piece_name(pt)) + ", not " +
                   std::string(csa_piece_name(*piece)));
  }
  if (std::string why = illegal_reason(pos, m); !why.empty()) return error(why);
  return m;
}

}  // namespace shogi
