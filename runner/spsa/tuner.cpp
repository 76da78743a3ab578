#include "spsa/tuner.h"

#include "config/values.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace arena::spsa {

namespace {

std::uint64_t splitmix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// A hash of (seed, k, what, i): every draw of the run has its own stream, independent of the others' order.
std::uint64_t draw(std::uint64_t seed, int64_t k, std::uint64_t what, size_t i) {
  return splitmix(splitmix(splitmix(seed ^ splitmix(std::uint64_t(k))) ^ what) ^ std::uint64_t(i));
}

double unit(std::uint64_t h) { return double(h >> 11) * 0x1.0p-53; }

}  // namespace

Tuner::Tuner(std::vector<stats::SpsaParam> params, stats::SpsaSchedule schedule, uint64_t seed,
             std::vector<bool> rounded)
    : params_(std::move(params)), schedule_(schedule), seed_(seed), rounded_(std::move(rounded)) {
  rounded_.resize(params_.size(), true);
  for (const stats::SpsaParam& p : params_) theta_.push_back(p.start);
}

journal::SpsaPair Tuner::dispatch(int64_t k) const {
  journal::SpsaPair pair;
  pair.k = k;
  for (size_t i = 0; i < params_.size(); ++i) pair.delta.push_back(draw(seed_, k, 0, i) & 1 ? 1 : -1);
  pair.plus = stats::spsa_side(params_, schedule_, k, theta_, pair.delta, +1);
  pair.minus = stats::spsa_side(params_, schedule_, k, theta_, pair.delta, -1);
  for (size_t i = 0; i < params_.size(); ++i) {
    if (!rounded_[i]) continue;
    pair.plus[i] = double(stats::stochastic_round(params_[i], pair.plus[i], unit(draw(seed_, k, 1, i))));
    pair.minus[i] = double(stats::stochastic_round(params_[i], pair.minus[i], unit(draw(seed_, k, 2, i))));
  }
  return pair;
}

void Tuner::apply(journal::SpsaPair& pair) {
  theta_ = stats::spsa_update(params_, schedule_, pair.k, theta_, pair.delta, pair.result);
  pair.theta = theta_;
}

std::vector<std::pair<std::string, std::string>> Tuner::options(const std::vector<double>& values) const {
  std::vector<std::pair<std::string, std::string>> out;
  for (size_t i = 0; i < params_.size(); ++i)
    out.emplace_back(params_[i].name,
                     rounded_[i] ? std::to_string(int64_t(std::llround(values[i]))) : config::number_text(values[i]));
  return out;
}

std::vector<double> Tuner::final_values() const {
  std::vector<double> out = theta_;
  for (size_t i = 0; i < out.size(); ++i)
    if (rounded_[i]) out[i] = stats::clamp_to(params_[i], std::round(out[i]));
  return out;
}

}  // namespace arena::spsa
