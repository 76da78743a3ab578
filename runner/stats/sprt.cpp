#include "stats/sprt.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>
#include <numbers>

namespace arena::stats {

namespace {

// Empty buckets get this weight, as fishtest's regularize() does.
constexpr double EMPTY_BUCKET = 1e-3;
const double NELO_SCALE = 800.0 / std::numbers::ln10;

template <size_t N>
using Dist = std::array<double, N>;

template <size_t N>
double mean_of(const Dist<N>& a, const Dist<N>& p) {
  double m = 0;
  for (size_t i = 0; i < N; ++i) m += a[i] * p[i];
  return m;
}

// Root of a strictly decreasing function on the open interval (lo, hi) whose limits are +inf at lo and -inf at
// hi. Plain bisection: the functions are cheap and bisection cannot diverge.
template <typename F>
double decreasing_root(F f, double lo, double hi) {
  for (int i = 0; i < 200; ++i) {
    double mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) break;  // interval exhausted at double precision
    double v = f(mid);
    if (v == 0) return mid;
    (v > 0 ? lo : hi) = mid;
  }
  return lo + (hi - lo) / 2;
}

// The distribution closest to q (maximum likelihood) whose expectation is s: p_i = q_i / (1 + theta (a_i - s)),
// theta solving sum q_i (a_i - s) / (1 + theta (a_i - s)) = 0 (Van den Bergh, equations 1.2 and 1.3).
template <size_t N>
Dist<N> mle_expected_score(const Dist<N>& a, const Dist<N>& q, double s) {
  auto f = [&](double theta) {
    double r = 0;
    for (size_t i = 0; i < N; ++i) r += q[i] * (a[i] - s) / (1 + theta * (a[i] - s));
    return r;
  };
  double theta = decreasing_root(f, -1 / (a[N - 1] - s), -1 / (a[0] - s));
  Dist<N> p;
  for (size_t i = 0; i < N; ++i) p[i] = q[i] / (1 + theta * (a[i] - s));
  return p;
}

// The distribution closest to q with (mu - mu_ref) / sigma = t: a fixed-point iteration on
// phi_i = a_i - mu_ref - t sigma (1 + ((a_i - mu) / sigma)^2) / 2, p_i = q_i / (1 + theta phi_i)
// (Van den Bergh, section 4.1), started from the uniform distribution as the paper suggests.
template <size_t N>
Dist<N> mle_t_value(const Dist<N>& a, const Dist<N>& q, double mu_ref, double t) {
  Dist<N> p;
  p.fill(1.0 / N);
  for (int iter = 0; iter < 10000; ++iter) {
    double mu = mean_of(a, p);
    double var = 0;
    for (size_t i = 0; i < N; ++i) var += p[i] * (a[i] - mu) * (a[i] - mu);
    double sigma = std::sqrt(var);
    if (!(sigma > 0)) break;  // cannot happen with regularized q (all buckets > 0); guards the division
    Dist<N> phi;
    for (size_t i = 0; i < N; ++i) {
      double z = (a[i] - mu) / sigma;
      phi[i] = a[i] - mu_ref - 0.5 * t * sigma * (1 + z * z);
    }
    double u = *std::min_element(phi.begin(), phi.end());
    double v = *std::max_element(phi.begin(), phi.end());
    if (!(u < 0 && v > 0)) break;  // no admissible theta: keep the last estimate rather than divide by zero
    auto f = [&](double theta) {
      double r = 0;
      for (size_t i = 0; i < N; ++i) r += q[i] * phi[i] / (1 + theta * phi[i]);
      return r;
    };
    double theta = decreasing_root(f, -1 / v, -1 / u);
    double max_diff = 0;
    for (size_t i = 0; i < N; ++i) {
      double next = q[i] / (1 + theta * phi[i]);
      max_diff = std::max(max_diff, std::abs(next - p[i]));
      p[i] = next;
    }
    if (max_diff < 1e-12) break;
  }
  return p;
}

template <size_t N>
double llr(const Dist<N>& a, const Dist<N>& raw_counts, double t_scale, const SprtConfig& config) {
  double total = 0;
  for (double c : raw_counts) total += c;
  if (total == 0) return 0;
  Dist<N> q;
  double reg_total = 0;
  for (size_t i = 0; i < N; ++i) reg_total += raw_counts[i] > 0 ? raw_counts[i] : EMPTY_BUCKET;
  for (size_t i = 0; i < N; ++i) q[i] = (raw_counts[i] > 0 ? raw_counts[i] : EMPTY_BUCKET) / reg_total;

  Dist<N> p0, p1;
  if (config.model == EloModel::Normalized) {
    p0 = mle_t_value(a, q, 0.5, t_scale * config.elo0 / NELO_SCALE);
    p1 = mle_t_value(a, q, 0.5, t_scale * config.elo1 / NELO_SCALE);
  } else {
    auto score = [](double elo) { return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0)); };
    p0 = mle_expected_score(a, q, score(config.elo0));
    p1 = mle_expected_score(a, q, score(config.elo1));
  }
  double sum = 0;
  for (size_t i = 0; i < N; ++i) sum += q[i] * (std::log(p1[i]) - std::log(p0[i]));
  // The regularized total, as fishtest and fastchess: it differs from the true count by at most 0.004.
  return reg_total * sum;
}

}  // namespace

std::expected<void, std::string> validate(const SprtConfig& c) {
  auto bad = [](const char* field, double v, const char* expected) {
    std::ostringstream os;
    os << field << " = " << v << " but " << expected;
    return std::unexpected(os.str());
  };
  if (!(c.alpha > 0 && c.alpha < 1)) return bad("alpha", c.alpha, "it must be between 0 and 1 (exclusive)");
  if (!(c.beta > 0 && c.beta < 1)) return bad("beta", c.beta, "it must be between 0 and 1 (exclusive)");
  if (!(c.alpha + c.beta < 1)) return bad("alpha + beta", c.alpha + c.beta, "it must be below 1");
  if (!std::isfinite(c.elo0)) return bad("elo0", c.elo0, "it must be a finite number");
  if (!std::isfinite(c.elo1)) return bad("elo1", c.elo1, "it must be a finite number");
  if (!(c.elo0 < c.elo1)) {
    std::ostringstream os;
    os << "elo0 = " << c.elo0 << " must be less than elo1 = " << c.elo1;
    return std::unexpected(os.str());
  }
  return {};
}

SprtBounds sprt_bounds(double alpha, double beta) {
  return {std::log(beta / (1 - alpha)), std::log((1 - beta) / alpha)};
}

SprtBounds sprt_bounds(const SprtConfig& config) { return sprt_bounds(config.alpha, config.beta); }

double sprt_llr(const PentaCounts& c, const SprtConfig& config) {
  // A pair's mean score has half a game's variance, hence sqrt(2) between pair t-values and per-game nElo.
  return llr<5>({0.0, 0.25, 0.5, 0.75, 1.0},
                {double(c.ll), double(c.ld), double(c.dd_wl), double(c.wd), double(c.ww)}, std::numbers::sqrt2,
                config);
}

double sprt_llr(const WdlCounts& c, const SprtConfig& config) {
  return llr<3>({0.0, 0.5, 1.0}, {double(c.losses), double(c.draws), double(c.wins)}, 1.0, config);
}

SprtVerdict sprt_verdict(double llr_value, const SprtBounds& b) {
  if (llr_value >= b.upper) return SprtVerdict::AcceptH1;
  if (llr_value <= b.lower) return SprtVerdict::AcceptH0;
  return SprtVerdict::Continue;
}

const char* to_string(SprtVerdict v) {
  switch (v) {
    case SprtVerdict::AcceptH0: return "H0";
    case SprtVerdict::AcceptH1: return "H1";
    default: return "continue";
  }
}

}  // namespace arena::stats
