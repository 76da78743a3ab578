#include "csa/server/board.h"

#include "rules/notation.h"

namespace arena::csa {

std::string csa_board_text(const shogi::Position& pos) {
  using namespace shogi;
  std::string out;
  for (int r = RANK_1; r <= RANK_9; ++r) {
    out += 'P';
    out += char('1' + r);
    for (int f = FILE_9; f >= FILE_1; --f) {
      Piece pc = pos.piece_on(make_square(File(f), Rank(r)));
      if (pc == NO_PIECE) {
        out += " * ";
      } else {
        out += color_of(pc) == BLACK ? '+' : '-';
        out += csa_piece_name(type_of(pc));
      }
    }
    out += '\n';
  }
  // The usual CSA order: rook, bishop, gold, silver, knight, lance, pawn.
  static constexpr PieceType ORDER[] = {ROOK, BISHOP, GOLD, SILVER, KNIGHT, LANCE, PAWN};
  for (Color c : {BLACK, WHITE}) {
    Hand h = pos.hand(c);
    if (h == HAND_ZERO) continue;
    out += c == BLACK ? "P+" : "P-";
    for (PieceType pt : ORDER)
      for (int n = hand_count(h, pt); n > 0; --n) out.append("00").append(csa_piece_name(pt));
    out += '\n';
  }
  out += pos.side_to_move() == BLACK ? "+\n" : "-\n";
  return out;
}

}  // namespace arena::csa
