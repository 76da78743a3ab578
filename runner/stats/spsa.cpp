#include "stats/spsa.h"

#include <algorithm>
#include <cmath>

namespace arena::stats {

double spsa_c(const SpsaParam& p, const SpsaSchedule& s, int64_t k) {
  const double c = p.c_end * std::pow(double(s.iterations), s.gamma);
  return c / std::pow(double(k), s.gamma);
}

double spsa_a(const SpsaParam& p, const SpsaSchedule& s, int64_t k) {
  const double a_end = p.r_end * p.c_end * p.c_end;
  const double a = a_end * std::pow(s.big_a() + double(s.iterations), s.alpha);
  return a / std::pow(s.big_a() + double(k), s.alpha);
}

double clamp_to(const SpsaParam& p, double value) { return std::clamp(value, p.min, p.max); }

std::vector<double> spsa_side(const std::vector<SpsaParam>& params, const SpsaSchedule& s, int64_t k,
                              const std::vector<double>& theta, const std::vector<int>& delta, int sign) {
  std::vector<double> out(params.size());
  for (size_t i = 0; i < params.size(); ++i)
    out[i] = clamp_to(params[i], theta[i] + double(sign) * spsa_c(params[i], s, k) * double(delta[i]));
  return out;
}

std::vector<double> spsa_update(const std::vector<SpsaParam>& params, const SpsaSchedule& s, int64_t k,
                                const std::vector<double>& theta, const std::vector<int>& delta, double result) {
  std::vector<double> out(params.size());
  for (size_t i = 0; i < params.size(); ++i) {
    const double step = spsa_a(params[i], s, k) / spsa_c(params[i], s, k) * result * double(delta[i]);
    out[i] = clamp_to(params[i], theta[i] + step);
  }
  return out;
}

int64_t stochastic_round(const SpsaParam& p, double x, double u) {
  const double low = std::floor(x);
  const double value = u < x - low ? low + 1 : low;
  return int64_t(std::clamp(value, std::ceil(p.min), std::floor(p.max)));
}

}  // namespace arena::stats
