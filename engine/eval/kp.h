#pragma once
// The learned evaluation: a king-relative piece table (KP) plus a king-independent one (P), both seen from each
// side in turn. For the side c, every non-king piece, on the board or in hand, is one feature index, with the board
// turned so that c plays upwards and the piece labelled as c's own or the opponent's. The value of a position for
// black is
//   sum over pieces of (P[i_black] + KP[k_black][i_black]) - sum over pieces of (P[i_white] + KP[k_white][i_white])
// where k_c is c's king square on c's turned board. So the table holds "a piece near my king" and, through the other
// side's sum, "a piece near the enemy king", and the exact negation under a colour flip holds by construction.
// A hand is cumulative: holding n pawns turns on the features of the 1st .. n-th pawn, so every extra piece in
// hand has a value of its own.
//
// Weights are int16 in 1/WEIGHT_SCALE centipawns. The file (load_weights / save_weights):
//   8 bytes "SAKPEV1\n", uint32 feature count, uint32 king squares (81), int32 tempo, uint32 base (0: none, 1: the
//   hand-written evaluation is added), then P (count x int16), then KP (81 x count x int16), then uint64 FNV-1a of
//   everything before it; little-endian.
//
// Format 2 ("SAKPEV2\n", the same header) adds a third table after KP, PAIRS (PAIR_FEATURES x int16): pairs of
// pieces near each side's king, which KP cannot see together (a gold beside a silver, an attacker behind a pawn).
// For the side c, the zone is the eleven squares around c's king on c's turned board (see ZONE_OFFSETS); each piece
// in it is (slot, own/enemy type), and every two of them, in slot order, are one PAIRS index. c's sum adds them as
// it adds its KP terms, so the colour flip still negates exactly. Format 1 files load with no PAIRS table.
//
// Format 3 ("SAKPEV3\n", the same header) adds a small network beside the tables (eval/net.h): after P and KP, a
// uint32 flags word (bit 0: a PAIRS table follows, bit 1: a network follows), the PAIRS table when flagged, then
// the network: uint32 NET_WIDTH, the rows (NET_KINGS x count x NET_WIDTH int16), the bias (NET_WIDTH int32), the
// output weights (2 x NET_WIDTH int16) and the output bias (int32). Weights without a network are written as
// formats 1 and 2, as before it.
//
// With base 1 the tables are a learned correction on top of the hand-written evaluation (eval/evaluate.h), which
// keeps what KP cannot express (king safety from attack maps, mobility); all-zero tables then play exactly as the
// hand-written evaluation does.

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <expected>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "eval/net.h"
#include "eval/value.h"
#include "rules/position.h"

namespace shogi::kp {

constexpr int BOARD_TYPES = 13;  // P L N S B R G +P +L +N +S +B +R: every piece type but the king
constexpr int BOARD_FEATURES = 2 * BOARD_TYPES * SQ_NB;  // own/enemy x type x square
// Slots for the 1st .. n-th piece in hand, per raw type (a set's worth; pieces beyond them in relaxed positions add
// no feature).
constexpr int HAND_SLOTS[HAND_TYPE_END] = {0, 18, 4, 4, 4, 2, 2, 4};
constexpr int HAND_SLOTS_TOTAL = 38;
constexpr int FEATURES = BOARD_FEATURES + 2 * HAND_SLOTS_TOTAL;  // 2182
constexpr int WEIGHT_SCALE = 16;
constexpr int MAX_ACTIVE = 2 * 40 + 2 * HAND_SLOTS_TOTAL;  // more than any position turns on for one side

// The index of a board piece seen by `side`.
int board_feature(Color side, Piece pc, Square s);
// The index of the n-th (0-based) piece of raw type pt in the hand of `owner`, seen by `side`.
int hand_feature(Color side, Color owner, PieceType pt, int n);
// Every feature of the position seen by `side`; returns the count.
int active_features(const Position& pos, Color side, int* out);
// The king square of `side` on its turned board (SQ_NONE without a king).
Square turned_king(const Position& pos, Color side);

// The left-right mirror of a square and of a feature (hand features stay): the evaluation is mirror-symmetric.
constexpr Square mirror(Square s) { return make_square(File(8 - file_of(s)), rank_of(s)); }
int mirror_feature(int feature);
// The one feature of a feature and its mirror image that the trainers keep for a king-independent weight (the other
// reads the same weight): the lesser.
int canonical_feature(int feature);
// The one (king, feature) of a pair and its mirror image that the trainers keep (the other reads the same weight): the
// king on files 1-5 of its turned board, and on file 5 the canonical feature.
std::pair<Square, int> canonical_king_feature(Square king, int feature);

// The king zone of the pair terms: (file, rank) offsets from the king on its side's turned board, where that side
// plays towards rank 1: the three squares two ahead, the two beside and three in front, the three behind.
constexpr int ZONE_SLOTS = 11;
constexpr int ZONE_OFFSETS[ZONE_SLOTS][2] = {{-1, -2}, {0, -2}, {1, -2}, {-1, -1}, {0, -1}, {1, -1},
                                             {-1, 0},  {1, 0},  {-1, 1}, {0, 1},  {1, 1}};
// A zone piece's type: the promoted minor pieces move as golds do and count as golds, which keeps the table small
// enough for the data (P L N S G B R +B +R).
constexpr int ZONE_TYPES = 9;
constexpr int zone_type(PieceType pt) {
  constexpr int TYPE[PIECE_TYPE_NB] = {-1, 0, 1, 2, 3, 5, 6, 4, -1, 4, 4, 4, 4, 7, 8, -1};
  return TYPE[pt];
}
constexpr int ZONE_STATES = 2 * ZONE_TYPES;            // own/enemy x type; kings are no zone piece
constexpr int ZONE_PIECES = ZONE_SLOTS * ZONE_STATES;  // one (slot, state) of the zone
constexpr int PAIR_FEATURES = ZONE_PIECES * ZONE_PIECES;
constexpr int MAX_PAIRS = ZONE_SLOTS * (ZONE_SLOTS - 1) / 2;

// The zone pieces (slot * ZONE_STATES + state) of `side`, whose king stands on `turned_king` of its turned board,
// in slot order; `piece_on(s)` gives the piece on a square of the real board. Returns the count.
template <typename PieceOn>
int zone_pieces(Color side, Square turned_king, PieceOn&& piece_on, int* out);
int zone_pieces(const Position& pos, Color side, int* out);
// The PAIRS index of two zone pieces a < b, and the index of a pair's mirror image (the zone mirrored left-right).
constexpr int pair_feature(int a, int b) { return a * ZONE_PIECES + b; }
int mirror_pair(int pair);
// The one of a pair and its mirror image that stands for both (the smaller index): training keeps one parameter.
inline int canonical_pair(int pair) { return std::min(pair, mirror_pair(pair)); }
// Every PAIRS index the evaluation can read: two zone pieces of different slots, in slot order.
const std::vector<int>& slot_ordered_pairs();
// The PAIRS indices of a zone's pieces (as zone_pieces gives them); returns the count (at most MAX_PAIRS).
int pairs_of(const int* zone, int n, int* out);

enum class Base : uint32_t { None = 0, HandWritten = 1 };

struct Weights {
  int32_t tempo = 0;        // for the side to move, in 1/WEIGHT_SCALE centipawns
  Base base = Base::None;   // what the tables are added to (eval/evaluate.h combines them)
  std::vector<int16_t> p;   // FEATURES
  std::vector<int16_t> kp;  // SQ_NB x FEATURES
  std::vector<int16_t> pairs;  // PAIR_FEATURES, or empty: no pair terms (a format 1 file)
  Net net;                     // rows empty: no network (formats 1 and 2)
  Weights() : p(FEATURES, 0), kp(size_t(SQ_NB) * FEATURES, 0) {}
  // Any other size of `pairs` is a programming error (a file's table always has PAIR_FEATURES entries).
  bool has_pairs() const {
    assert(pairs.empty() || pairs.size() == size_t(PAIR_FEATURES));
    return !pairs.empty();
  }
  bool has_net() const {
    assert(net.rows.empty() || net.rows.size() == size_t(NET_KINGS) * FEATURES * NET_WIDTH);
    return !net.rows.empty();
  }
  int16_t& at(Square king, int feature) { return kp[size_t(king) * FEATURES + size_t(feature)]; }
  int16_t at(Square king, int feature) const { return kp[size_t(king) * FEATURES + size_t(feature)]; }
};

// A file's weights, or why not (missing, wrong size, another format, damaged: the checksum names it).
std::expected<std::shared_ptr<const Weights>, std::string> load_weights(const std::string& path);
std::expected<std::shared_ptr<const Weights>, std::string> weights_from_bytes(const std::string& bytes);
std::string weights_to_bytes(const Weights& w);
std::expected<void, std::string> save_weights(const Weights& w, const std::string& path);

// Both sides' sums for one position, kept by the search beside its stack so that a move costs a few table reads
// instead of a sum over every piece. `key` is the position's key: an accumulator is valid only for it. The network's
// sums are kept only for weights that have one (zero otherwise).
struct Accumulator {
  int32_t sum[COLOR_NB] = {0, 0};
  alignas(32) NetSums net[COLOR_NB] = {};
  Key key = 0;
};
// Whether two accumulators hold the same sums (the key aside).
inline bool same_sums(const Accumulator& a, const Accumulator& b) {
  return a.sum[BLACK] == b.sum[BLACK] && a.sum[WHITE] == b.sum[WHITE] && a.net[BLACK] == b.net[BLACK] &&
         a.net[WHITE] == b.net[WHITE];
}
// One side's sum for each square its king has stood on, with the pieces and hands it was made from (Stockfish's
// "Finny tables"): when that side's sum must be made afresh (its king moved, or no parent accumulator), only the
// features that differ from the last position with the king on that square are read, a few instead of forty.
// Per search thread, about 80 KB; valid for one set of weights, so the owner clears it when those may change.
class RefreshCache {
 public:
  RefreshCache() { clear(); }
  void clear();
  // Exactly side_sum(w, pos, side, net), for a side with a king.
  int32_t side_sum(const Weights& w, const Position& pos, Color side, NetSums* net = nullptr);

 private:
  struct Entry {
    Bitboard pieces[COLOR_NB][DRAGON + 1];  // non-king pieces by colour and type
    Hand hand[COLOR_NB];
    int32_t sum;
    NetSums net;  // kept only for weights with a network
    bool valid;
  };
  Entry entries_[COLOR_NB][SQ_NB];  // by side and its turned king square
};

// Computes both sums from scratch (through `cache` when given).
void refresh(const Weights& w, const Position& pos, Accumulator& acc, RefreshCache* cache = nullptr);
// The accumulator of pos from that of the position before `move` (the move that made pos; MOVE_NULL for a null
// move). Only the features the move changes are read: the moved piece, a captured piece going to the hand, a
// dropped piece leaving it. A king move makes its side's sum afresh (every KP term of that side changes), through
// `cache` when given. False when the move is no real move (the caller refreshes).
bool update(const Weights& w, const Position& pos, Move move, const Accumulator& parent, Accumulator& out,
            RefreshCache* cache = nullptr);
Value evaluate(const Weights& w, const Position& pos, const Accumulator& acc);

// The sum of one side's features (its P and KP terms), in 1/WEIGHT_SCALE centipawns; with `net` and weights that
// have a network, that side's network sums too.
int32_t side_sum(const Weights& w, const Position& pos, Color side, NetSums* net = nullptr);
// The sum of one side's pair terms (0 without a PAIRS table or a king), in 1/WEIGHT_SCALE centipawns. Not kept in
// the accumulator: a zone holds few pieces, so evaluate() reads them afresh.
int32_t pair_sum(const Weights& w, const Position& pos, Color side);
// The tables and the network alone (without the base): from black's point of view, without tempo; and from the side
// to move's, with it; in centipawns.
Value evaluate_black(const Weights& w, const Position& pos);
Value evaluate(const Weights& w, const Position& pos);

template <typename PieceOn>
int zone_pieces(Color side, Square turned_king, PieceOn&& piece_on, int* out) {
  int n = 0;
  const int kf = file_of(turned_king), kr = rank_of(turned_king);
  for (int slot = 0; slot < ZONE_SLOTS; ++slot) {
    const int f = kf + ZONE_OFFSETS[slot][0], r = kr + ZONE_OFFSETS[slot][1];
    if (f < 0 || f >= FILE_NB || r < 0 || r >= RANK_NB) continue;
    const Square t = make_square(File(f), Rank(r));
    const Piece pc = piece_on(side == BLACK ? t : flip(t));
    if (pc == NO_PIECE || type_of(pc) == KING) continue;
    out[n++] = slot * ZONE_STATES + (color_of(pc) == side ? 0 : ZONE_TYPES) + zone_type(type_of(pc));
  }
  return n;
}

}  // namespace shogi::kp
