#pragma once
// The SPSA iterate of one run: what pair k plays, and what its result does to theta (stats/spsa.h has the formulas).
// Deterministic for a seed: the signs and the roundings of pair k depend on the seed and k alone, so a resumed run,
// or a shard on another machine, draws what one uninterrupted run would have drawn.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "journal/journal.h"
#include "stats/spsa.h"

namespace arena::spsa {

class Tuner {
 public:
  // `rounded[i]`: parameter i is sent as a whole number (an int parameter, or any parameter of a spin option), by
  // stochastic rounding; otherwise as a decimal.
  Tuner(std::vector<stats::SpsaParam> params, stats::SpsaSchedule schedule, uint64_t seed, std::vector<bool> rounded);

  const std::vector<stats::SpsaParam>& params() const { return params_; }
  const stats::SpsaSchedule& schedule() const { return schedule_; }
  const std::vector<double>& theta() const { return theta_; }
  uint64_t seed() const { return seed_; }

  // Pair k (1-based) from theta as it is now: its signs and the values each side is sent (k, delta, plus, minus).
  journal::SpsaPair dispatch(int64_t k) const;
  // Applies a finished pair with its own k and delta (whenever it arrives) and sets its theta to the result.
  void apply(journal::SpsaPair& pair);
  // Theta as a journal left it (the last applied pair's), e.g. on --resume.
  void restore(std::vector<double> theta) { theta_ = std::move(theta); }

  // The setoption values of a side: name and text ("55", "0.35") per parameter.
  std::vector<std::pair<std::string, std::string>> options(const std::vector<double>& values) const;
  // Theta as the engine would be sent it for good (whole numbers rounded to the nearest for rounded parameters).
  std::vector<double> final_values() const;

 private:
  std::vector<stats::SpsaParam> params_;
  stats::SpsaSchedule schedule_;
  uint64_t seed_;
  std::vector<bool> rounded_;
  std::vector<double> theta_;
};

}  // namespace arena::spsa
