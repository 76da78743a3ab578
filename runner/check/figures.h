#pragma once
// How the check writes and summarises its figures: milliseconds as text, medians and quantiles of samples. Shared
// by the battery's probes and the time-management profiles.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace arena::check {

inline std::string ms(std::int64_t v) { return std::to_string(v) + " ms"; }

inline std::string signed_ms(std::int64_t v) {
  std::string text = v >= 0 ? "+" : "";
  text += std::to_string(v);
  return text + " ms";
}

inline std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : std::string(sep)) + p;
  return out;
}

inline std::int64_t median(std::vector<std::int64_t> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// The value at fraction q (0..1) of the sorted samples, nearest rank.
inline std::int64_t quantile(std::vector<std::int64_t> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t rank = size_t(std::ceil(q * double(v.size())));
  return v[std::min(v.size() - 1, rank == 0 ? 0 : rank - 1)];
}

inline std::int64_t round_up(std::int64_t v, std::int64_t step) { return (v + step - 1) / step * step; }

}  // namespace arena::check
