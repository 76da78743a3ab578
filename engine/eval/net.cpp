#include "eval/net.h"

#include <algorithm>

#include "eval/kp.h"

namespace shogi::kp {

const int16_t* Net::row(Square king, int feature) const {
  return &rows[(size_t(king) * FEATURES + size_t(feature)) * NET_WIDTH];
}

int32_t net_output(const Net& net, const NetSums& mover, const NetSums& other) {
  // At most 2 x 16 x 1024 x 32767: int64 keeps any file's weights from overflowing.
  int64_t sum = 0;
  for (int j = 0; j < NET_WIDTH; ++j) {
    sum += int64_t(std::clamp(mover[size_t(j)], 0, NET_ONE)) * net.out[size_t(j)];
    sum += int64_t(std::clamp(other[size_t(j)], 0, NET_ONE)) * net.out[size_t(NET_WIDTH + j)];
  }
  return int32_t(sum / NET_ONE) + net.out_bias;
}

}  // namespace shogi::kp
