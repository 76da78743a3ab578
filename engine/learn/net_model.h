#pragma once
// The network of eval/net.h as the trainer sees it: float parameters, with each row split into a king-independent
// part and a king-relative one (a piece's row is P[f] + KP[k][f]; a side without a king reads P alone), so that the
// rows of king squares the data rarely sees start from what every king square taught the P part. A row and its
// mirror image are one parameter, as in the KP tables, so the network sees a mirrored board the same.
// The model's output is OUTPUT_SCALE x (sum_j crelu(acc_mover[j]) own[j] + crelu(acc_other[j]) opponent[j] + b)
// centipawns, crelu clamping to [0, 1]; export_net() turns it into eval/net.h's integers.

#include <cstdint>
#include <vector>

#include "eval/kp.h"

namespace shogi::learn {

// One side's view of a position, as the trainer decodes it: its features and its king on its turned board.
struct SideView {
  const int* features = nullptr;
  int count = 0;
  Square king = SQ_NONE;
};

class NetModel {
 public:
  static constexpr double OUTPUT_SCALE = 300;

  // Rows drawn uniformly from +-0.02 by the seed, biases at half a unit, output weights zero: the network starts
  // at zero, so training starts from the tables as they are.
  explicit NetModel(uint64_t seed);
  // The parameters of a file's network: P as the no-king rows, KP as each row's difference from them.
  void init_from(const kp::Net& net);
  kp::Net export_net() const;

  // The sums of a position's two sides, the mover's first.
  struct Sums {
    float acc[2][kp::NET_WIDTH];
  };
  // The output in centipawns from the mover's view; `sums` keeps what backward() needs.
  double forward(const SideView& mover, const SideView& other, Sums& sums) const;
  // Adds d(loss)/d(parameter) to `grad` for g = d(loss)/d(output in centipawns).
  void backward(const SideView& mover, const SideView& other, const Sums& sums, double g,
                std::vector<float>& grad) const;

  std::vector<float>& params() { return params_; }
  const std::vector<float>& params() const { return params_; }

 private:
  size_t p_row(int feature) const { return p_row_[size_t(feature)]; }
  // The KP row of `feature` with the king on `king` (SQ_NONE: none, the P row alone is read).
  size_t kp_row(Square king, int feature) const { return kp_row_[size_t(king) * kp::FEATURES + size_t(feature)]; }
  void accumulate(const SideView& side, float* acc) const;

  std::vector<float> params_;
  std::vector<uint32_t> p_row_, kp_row_;  // parameter offsets of each feature's rows
  size_t bias_ = 0, out_ = 0, out_bias_ = 0;
};

}  // namespace shogi::learn
