#pragma once
// SPSA (simultaneous perturbation stochastic approximation) as fishtest runs it: the gain schedules of one tuning
// run and the update one finished game pair makes. Pure functions: the run itself (engines, games, journal) is
// runner/spsa's.
//
// For each parameter: start, min, max, c_end (the perturbation at the last iteration) and r_end (the learning rate
// at the last iteration). For the run: the number of iterations N (game pairs), alpha (0.602), gamma (0.101) and
// A (about a tenth of N). Then, at iteration k = 1..N,
//   c_k = c / k^gamma,         c = c_end * N^gamma          (so c_N = c_end)
//   a_k = a / (A + k)^alpha,   a = a_end * (A + N)^alpha,  a_end = r_end * c_end^2   (so a_N = a_end)
// One iteration: delta_i = +-1 at random; theta+ = clamp(theta + c_k delta), theta- = clamp(theta - c_k delta) play
// a pair (one opening, each colour once); result = wins(theta+) - wins(theta-); then
//   theta_i <- clamp(theta_i + (a_k / c_k,i) * result * delta_i)
// with the k and delta of that pair, whenever it arrives (several pairs may be in flight).

#include <cstdint>
#include <string>
#include <vector>

namespace arena::stats {

struct SpsaParam {
  std::string name;
  bool integer = true;  // `int` in a params file: sent to the engine after stochastic rounding
  double start = 0;
  double min = 0;
  double max = 0;
  double c_end = 0;
  double r_end = 0.002;
};

struct SpsaSchedule {
  int64_t iterations = 0;  // N: game pairs
  double alpha = 0.602;
  double gamma = 0.101;
  double a_ratio = 0.1;  // A = a_ratio * N
  double big_a() const { return a_ratio * double(iterations); }
};

// c_k and a_k of a parameter at iteration k (1-based; k > N keeps shrinking as the formulas say).
double spsa_c(const SpsaParam& p, const SpsaSchedule& s, int64_t k);
double spsa_a(const SpsaParam& p, const SpsaSchedule& s, int64_t k);

double clamp_to(const SpsaParam& p, double value);

// theta +/- c_k * delta, clamped to each parameter's range (what a pair's two sides play with, before rounding).
std::vector<double> spsa_side(const std::vector<SpsaParam>& params, const SpsaSchedule& s, int64_t k,
                              const std::vector<double>& theta, const std::vector<int>& delta, int sign);

// theta after one pair: each theta_i + (a_k / c_k,i) * result * delta_i, clamped. `result` is wins(theta+) minus
// wins(theta-) over the pair, in [-2, 2].
std::vector<double> spsa_update(const std::vector<SpsaParam>& params, const SpsaSchedule& s, int64_t k,
                                const std::vector<double>& theta, const std::vector<int>& delta, double result);

// The value an integer parameter is sent as: floor(x) or floor(x) + 1, the latter with probability frac(x), so that
// its expectation is x (plain rounding would bias every value towards the nearest integer). `u` is uniform in
// [0, 1). Kept within [min, max].
int64_t stochastic_round(const SpsaParam& p, double x, double u);

}  // namespace arena::stats
