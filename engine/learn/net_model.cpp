#include "learn/net_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

namespace shogi::learn {

namespace {

constexpr int W = kp::NET_WIDTH;

template <typename T>
T quantize(double v) {
  return T(std::clamp<long long>(std::llround(v), std::numeric_limits<T>::min(), std::numeric_limits<T>::max()));
}

}  // namespace

NetModel::NetModel(uint64_t seed) : p_row_(kp::FEATURES), kp_row_(size_t(SQ_NB) * kp::FEATURES) {
  const size_t kp_base = size_t(kp::FEATURES) * W;
  for (int f = 0; f < kp::FEATURES; ++f) p_row_[size_t(f)] = uint32_t(size_t(kp::canonical_feature(f)) * W);
  for (int k = 0; k < SQ_NB; ++k)
    for (int f = 0; f < kp::FEATURES; ++f) {
      const auto [ck, cf] = kp::canonical_king_feature(Square(k), f);
      kp_row_[size_t(k) * kp::FEATURES + size_t(f)] = uint32_t(kp_base + (size_t(ck) * kp::FEATURES + size_t(cf)) * W);
    }
  bias_ = kp_base + size_t(SQ_NB) * kp::FEATURES * W;
  out_ = bias_ + W;
  out_bias_ = out_ + 2 * W;
  params_.assign(out_bias_ + 1, 0.0f);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> row(-0.02f, 0.02f);
  for (size_t i = 0; i < bias_; ++i) params_[i] = row(rng);
  for (int j = 0; j < W; ++j) params_[bias_ + size_t(j)] = 0.5f;
}

void NetModel::init_from(const kp::Net& net) {
  std::fill(params_.begin(), params_.end(), 0.0f);
  std::vector<uint16_t> count(params_.size(), 0);
  auto file_row = [&](int k, int f) { return &net.rows[(size_t(k) * kp::FEATURES + size_t(f)) * W]; };
  for (int f = 0; f < kp::FEATURES; ++f) {
    const int16_t* p = file_row(kp::NO_KING, f);
    for (int j = 0; j < W; ++j) {
      params_[p_row(f) + size_t(j)] += float(p[j]) / kp::NET_ONE;
      ++count[p_row(f) + size_t(j)];
    }
    for (int k = 0; k < SQ_NB; ++k) {
      const int16_t* r = file_row(k, f);
      const size_t at = kp_row(Square(k), f);
      for (int j = 0; j < W; ++j) {
        params_[at + size_t(j)] += float(r[j] - p[j]) / kp::NET_ONE;
        ++count[at + size_t(j)];
      }
    }
  }
  for (size_t i = 0; i < bias_; ++i)
    if (count[i] > 1) params_[i] /= float(count[i]);
  for (int j = 0; j < W; ++j) {
    params_[bias_ + size_t(j)] = float(net.bias[size_t(j)]) / kp::NET_ONE;
    params_[out_ + size_t(j)] = float(net.out[size_t(j)] / (OUTPUT_SCALE * kp::WEIGHT_SCALE));
    params_[out_ + size_t(W + j)] = float(net.out[size_t(W + j)] / (OUTPUT_SCALE * kp::WEIGHT_SCALE));
  }
  params_[out_bias_] = float(net.out_bias / (OUTPUT_SCALE * kp::WEIGHT_SCALE));
}

kp::Net NetModel::export_net() const {
  kp::Net net;
  net.rows.resize(size_t(kp::NET_KINGS) * kp::FEATURES * W);
  for (int k = 0; k < kp::NET_KINGS; ++k)
    for (int f = 0; f < kp::FEATURES; ++f) {
      int16_t* out = &net.rows[(size_t(k) * kp::FEATURES + size_t(f)) * W];
      for (int j = 0; j < W; ++j) {
        double v = params_[p_row(f) + size_t(j)];
        if (k != kp::NO_KING) v += params_[kp_row(Square(k), f) + size_t(j)];
        out[j] = quantize<int16_t>(v * kp::NET_ONE);
      }
    }
  const double out_unit = OUTPUT_SCALE * kp::WEIGHT_SCALE;
  for (int j = 0; j < W; ++j) net.bias[size_t(j)] = quantize<int32_t>(params_[bias_ + size_t(j)] * kp::NET_ONE);
  for (int j = 0; j < 2 * W; ++j) net.out[size_t(j)] = quantize<int16_t>(params_[out_ + size_t(j)] * out_unit);
  net.out_bias = quantize<int32_t>(params_[out_bias_] * out_unit);
  return net;
}

void NetModel::accumulate(const SideView& side, float* acc) const {
  std::copy_n(&params_[bias_], W, acc);
  for (int i = 0; i < side.count; ++i) {
    const float* p = &params_[p_row(side.features[i])];
    for (int j = 0; j < W; ++j) acc[j] += p[j];
    if (side.king == SQ_NONE) continue;
    const float* r = &params_[kp_row(side.king, side.features[i])];
    for (int j = 0; j < W; ++j) acc[j] += r[j];
  }
}

double NetModel::forward(const SideView& mover, const SideView& other, Sums& sums) const {
  accumulate(mover, sums.acc[0]);
  accumulate(other, sums.acc[1]);
  double out = params_[out_bias_];
  for (int p = 0; p < 2; ++p)
    for (int j = 0; j < W; ++j)
      out += double(params_[out_ + size_t(p * W + j)]) * std::clamp(sums.acc[p][j], 0.0f, 1.0f);
  return out * OUTPUT_SCALE;
}

void NetModel::backward(const SideView& mover, const SideView& other, const Sums& sums, double g,
                        std::vector<float>& grad) const {
  const double d = g * OUTPUT_SCALE;
  grad[out_bias_] += float(d);
  for (int p = 0; p < 2; ++p) {
    const SideView& side = p == 0 ? mover : other;
    float da[W];
    for (int j = 0; j < W; ++j) {
      const float a = sums.acc[p][j];
      const size_t o = out_ + size_t(p * W + j);
      grad[o] += float(d * std::clamp(a, 0.0f, 1.0f));
      // The clamp passes a gradient only inside [0, 1].
      da[j] = a > 0 && a < 1 ? float(d * params_[o]) : 0.0f;
    }
    for (int j = 0; j < W; ++j) grad[bias_ + size_t(j)] += da[j];
    for (int i = 0; i < side.count; ++i) {
      float* p_grad = &grad[p_row(side.features[i])];
      for (int j = 0; j < W; ++j) p_grad[j] += da[j];
      if (side.king == SQ_NONE) continue;
      float* r = &grad[kp_row(side.king, side.features[i])];
      for (int j = 0; j < W; ++j) r[j] += da[j];
    }
  }
}

}  // namespace shogi::learn
