#pragma once
// A small network on top of the KP tables (eval/kp.h): what a sum of piece terms cannot say, for example that a
// piece is worth more or less with others beside it. Each side c keeps, besides its KP sum, NET_WIDTH sums over the
// same features with c's king square: acc_c = bias + sum over c's features f of row(k_c, f). The output, from the
// side to move's view s, is
//   out = (sum_j clamp(acc_s[j], 0, ONE) * own[j] + sum_j clamp(acc_o[j], 0, ONE) * opponent[j]) / ONE + out_bias
// in 1/WEIGHT_SCALE centipawns, where o is the other side: the same sums for both sides, read in the mover's order,
// so a colour flip gives the same output for the flipped side to move and the exact negation holds as for KP.
// A side without a king (a mate problem) reads the rows of the extra king index NO_KING, which training fills with
// the king-independent part alone.
//
// The sums are integers so that a sum updated move by move is exactly the sum made afresh: the search's result does
// not depend on the path that reached a position. Rows are int16 in units of ONE (1.0 = ONE), sums int32.

#include <array>
#include <cstdint>
#include <vector>

#include "rules/types.h"

namespace shogi::kp {

constexpr int NET_WIDTH = 16;         // sums per side: wide enough to help, narrow enough for ~10^6 records
constexpr int NET_KINGS = SQ_NB + 1;  // the king squares of a side's turned board, and NO_KING
constexpr int NO_KING = SQ_NB;
// A king-less side's turned king square is SQ_NONE (kp::turned_king): it indexes the NO_KING rows as it stands.
static_assert(int(SQ_NONE) == NO_KING);
constexpr int32_t NET_ONE = 1024;  // the sum that saturates a unit

struct Net {
  std::vector<int16_t> rows;  // NET_KINGS x FEATURES x NET_WIDTH
  std::array<int32_t, NET_WIDTH> bias{};
  std::array<int16_t, 2 * NET_WIDTH> out{};  // the mover's units, then the other side's; 1/WEIGHT_SCALE cp per ONE
  int32_t out_bias = 0;                      // 1/WEIGHT_SCALE cp

  // A side's row for a feature, its king on `king` of its turned board (SQ_NONE reads the NO_KING rows).
  const int16_t* row(Square king, int feature) const;
};

// One side's sums.
using NetSums = std::array<int32_t, NET_WIDTH>;

inline void add_row(NetSums& sums, const int16_t* row) {
  for (int j = 0; j < NET_WIDTH; ++j) sums[size_t(j)] += row[j];
}
inline void sub_row(NetSums& sums, const int16_t* row) {
  for (int j = 0; j < NET_WIDTH; ++j) sums[size_t(j)] -= row[j];
}

// The output from the view of the side whose sums are `mover`, in 1/WEIGHT_SCALE centipawns.
int32_t net_output(const Net& net, const NetSums& mover, const NetSums& other);

}  // namespace shogi::kp
