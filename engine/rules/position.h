#pragma once
// A shogi position: board, hands, side to move, Zobrist key, and the check/pin information that move
// generation and legality tests need. State that cannot be recomputed cheaply on undo lives in StateInfo
// records owned by the caller and linked backwards (the Stockfish design).

#include <expected>
#include <string>
#include <string_view>

#include "bitboard.h"
#include "sfen.h"
#include "types.h"

namespace shogi {

struct StateInfo {
  // Copied from the previous state by do_move, then updated.
  Key board_key = 0;  // board and side to move (XOR of piece-square keys; bit 0 is the side to move)
  Key hand_key = 0;   // both hands (sum of per-piece keys, so counts can be added and removed)
  int plies_from_null = 0;
  // Consecutive moves by each side that gave check; the perpetual-check rule compares it with a cycle length.
  int continuous_check[COLOR_NB] = {0, 0};

  // Recomputed by do_move.
  Piece captured = NO_PIECE;
  Bitboard checkers;                      // pieces giving check to the side to move
  Bitboard blockers_for_king[COLOR_NB];   // pieces (of either colour) between a king and an enemy slider
  Bitboard pinners[COLOR_NB];             // sliders of colour ~c pinning a piece to c's king
  Bitboard check_squares[PIECE_TYPE_NB];  // where a piece of the side to move would give direct check
  StateInfo* previous = nullptr;

  Key key() const { return board_key + hand_key; }
};

// Outcome of a repetition test, from the point of view of the side to move.
enum class Repetition {
  None,
  Draw,  // plain sennichite
  Win,   // the opponent gave check with every one of its moves in the cycle (perpetual check: it loses)
  Loss,  // the side to move gave check with every one of its moves in the cycle
};

class Position {
 public:
  // Fills bitboard and Zobrist tables; call once before using any Position (idempotent).
  static void init();

  Position() = default;
  Position(const Position&) = delete;
  Position& operator=(const Position&) = delete;

  // Sets up from an SFEN ("<board> <b|w> <hands> [<move number>]") or "startpos". The position is left unchanged
  // when an error is returned; the error names the bad field.
  std::expected<void, std::string> set(std::string_view sfen, StateInfo* si, PieceLimits limits = PieceLimits::Strict);
  // Copies another position's current state (not its history); `si` receives a copy of its StateInfo.
  void copy_from(const Position& other, StateInfo* si);
  // "<board> <side> <hands> <move number>"
  std::string sfen() const;
  // SFEN with colours swapped and the board rotated: the same position seen by the other player.
  std::string flipped_sfen() const;

  // Board and hands.
  Piece piece_on(Square s) const { return board_[s]; }
  Hand hand(Color c) const { return hand_[c]; }
  Color side_to_move() const { return side_to_move_; }
  int game_ply() const { return game_ply_; }                     // the SFEN move number: 1 at the start, +1 per move
  Square king_square(Color c) const { return king_square_[c]; }  // SQ_NONE when that side has no king
  bool has_king(Color c) const { return king_square_[c] != SQ_NONE; }

  Bitboard pieces() const { return by_type_[NO_PIECE_TYPE]; }
  Bitboard pieces(Color c) const { return by_color_[c]; }
  Bitboard pieces(PieceType pt) const { return by_type_[pt]; }
  Bitboard pieces(PieceType a, PieceType b) const { return by_type_[a] | by_type_[b]; }
  Bitboard pieces(Color c, PieceType pt) const { return by_color_[c] & by_type_[pt]; }
  Bitboard pieces(Color c, PieceType a, PieceType b) const { return by_color_[c] & (by_type_[a] | by_type_[b]); }
  // Gold and the four pieces that move like gold once promoted.
  Bitboard golds() const { return by_type_[GOLDS_INDEX]; }
  Bitboard golds(Color c) const { return by_color_[c] & by_type_[GOLDS_INDEX]; }

  // Check and pin information of the current state.
  Bitboard checkers() const { return st_->checkers; }
  bool in_check() const { return !st_->checkers.empty(); }
  Bitboard blockers_for_king(Color c) const { return st_->blockers_for_king[c]; }
  Bitboard pinners(Color c) const { return st_->pinners[c]; }
  Bitboard check_squares(PieceType pt) const { return st_->check_squares[pt]; }

  // Pieces of colour c attacking s with the given occupancy (kings included).
  Bitboard attackers_to(Color c, Square s, const Bitboard& occ) const;
  Bitboard attackers_to(Color c, Square s) const { return attackers_to(c, s, pieces()); }
  bool attacked_by(Color c, Square s) const { return !attackers_to(c, s).empty(); }
  // The pieces of both colours attacking s: attackers_to(BLACK, ...) | attackers_to(WHITE, ...), the sliders'
  // attacks computed once.
  Bitboard attackers_to(Square s, const Bitboard& occ) const;
  // The sliders of both colours attacking s (lances, bishops, rooks, horses, dragons): all that taking a piece off
  // `occ` can add to attackers_to(s, occ).
  Bitboard slider_attackers_to(Square s, const Bitboard& occ) const;

  // Move properties. `pseudo_legal` checks an arbitrary move (e.g. from the hash) fully except that a board move
  // may still leave the mover's king in check; `legal` then decides that for a pseudo-legal move using pins only.
  bool pseudo_legal(Move m) const;
  bool legal(Move m) const;
  bool gives_check(Move m) const;
  bool is_capture(Move m) const { return !is_drop(m) && board_[to_sq(m)] != NO_PIECE; }
  bool is_capture_or_promotion(Move m) const { return is_capture(m) || is_promotion(m); }
  Piece captured_piece() const { return st_->captured; }
  // Widens a 16-bit move by the moved piece; MOVE_NONE if there is no piece of the side to move on its origin.
  Move to_move(Move16 m) const;
  // True if dropping a pawn of the side to move on `to` would checkmate: such a drop (uchifuzume) is illegal.
  bool is_pawn_drop_mate(Square to) const;

  // Making and unmaking moves; `st` must outlive the move.
  void do_move(Move m, StateInfo& st) { do_move(m, st, gives_check(m)); }
  void do_move(Move m, StateInfo& st, bool gives_check);
  void undo_move(Move m);
  void do_null_move(StateInfo& st);
  void undo_null_move();

  Key key() const { return st_->key(); }
  Key board_key() const { return st_->board_key; }
  // The key after `m` without making it (for prefetching the hash entry).
  Key key_after(Move m) const;
  const StateInfo* state() const { return st_; }

  // Looks back up to `max_distance` plies (stopping at a null move) for earlier occurrences of this position
  // (board, hands, side to move). With `occurrences` = 4 this is the sennichite rule; search uses 2.
  Repetition repetition(int occurrences, int max_distance) const;

  // Internal consistency check for tests and debug builds: returns an explanation, or an empty string.
  std::string validate() const;

 private:
  static constexpr PieceType GOLDS_INDEX = PieceType(15);

  void clear();
  void put_piece(Piece pc, Square s);
  void remove_piece(Square s);
  void set_check_info(StateInfo& st) const;
  void update_slider_blockers(Color c, StateInfo& st) const;
  Key compute_board_key() const;
  Key compute_hand_key() const;

  Piece board_[SQ_NB] = {};
  Bitboard by_type_[PIECE_TYPE_NB];
  Bitboard by_color_[COLOR_NB];
  Hand hand_[COLOR_NB] = {HAND_ZERO, HAND_ZERO};
  Square king_square_[COLOR_NB] = {SQ_NONE, SQ_NONE};
  Color side_to_move_ = BLACK;
  int game_ply_ = 1;
  StateInfo* st_ = nullptr;

  friend struct PositionBuilder;
};

namespace zobrist {
extern Key PSQ[PIECE_NB][SQ_NB];
extern Key HAND[COLOR_NB][HAND_TYPE_END];
constexpr Key SIDE = 1;
}  // namespace zobrist

constexpr std::string_view START_SFEN = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

}  // namespace shogi
