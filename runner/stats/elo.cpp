#include "stats/elo.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace arena::stats {

namespace {

constexpr double INF = std::numeric_limits<double>::infinity();
// Natural-log Elo scale: one unit of t = (s - 0.5) / sigma is 800 / ln 10 normalized Elo.
const double NELO_SCALE = 800.0 / std::numbers::ln10;

// Mean and variance of a discrete distribution given by counts over per-game scores.
template <size_t N>
void moments(const double (&scores)[N], const double (&counts)[N], double total, double& mean, double& var) {
  mean = 0;
  for (size_t i = 0; i < N; ++i) mean += scores[i] * counts[i] / total;
  var = 0;
  for (size_t i = 0; i < N; ++i) var += counts[i] / total * (scores[i] - mean) * (scores[i] - mean);
  // Rounding can leave a tiny negative number for a one-point distribution.
  var = std::max(var, 0.0);
}

// (s - 0.5) / sd in nElo units, with the 0/0 of a draw-only sample defined as 0.
double nelo_of(double score, double sd) {
  double d = score - 0.5;
  if (d == 0) return 0;
  if (sd == 0) return d > 0 ? INF : -INF;
  return d / sd * NELO_SCALE;
}

// `sd_game` is the per-game standard deviation that nElo divides by; `sd_mean` the standard error of the mean.
EloSummary build(int64_t n, double score, double variance, double sd_game, double sd_mean, double draw_ratio) {
  EloSummary r;
  r.n = n;
  r.score = score;
  r.variance = variance;
  r.draw_ratio = draw_ratio;
  double lo = std::clamp(score - Z_95 * sd_mean, 0.0, 1.0);
  double hi = std::clamp(score + Z_95 * sd_mean, 0.0, 1.0);
  r.elo = {score_to_elo(score), score_to_elo(lo), score_to_elo(hi)};
  // nElo uses the point estimate's sigma for both ends, as fastchess does; the interval is then symmetric.
  r.nelo = {nelo_of(score, sd_game), nelo_of(lo, sd_game), nelo_of(hi, sd_game)};
  if (sd_mean > 0)
    r.los = 0.5 * (1 + std::erf((score - 0.5) / (std::numbers::sqrt2 * sd_mean)));
  else
    r.los = score > 0.5 ? 1.0 : score < 0.5 ? 0.0 : 0.5;
  return r;
}

}  // namespace

double Estimate::error() const {
  if (lower == upper) return 0;  // also covers inf == inf, whose difference would be NaN
  return (upper - lower) / 2;
}

double score_to_elo(double score) {
  if (score <= 0) return -INF;
  if (score >= 1) return INF;
  return -400.0 * std::log10(1.0 / score - 1.0);
}

double elo_to_score(double elo) { return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0)); }

std::optional<EloSummary> summarize(const WdlCounts& c) {
  int64_t n = c.games();
  if (n <= 0) return std::nullopt;
  const double scores[] = {0.0, 0.5, 1.0};
  const double counts[] = {double(c.losses), double(c.draws), double(c.wins)};
  double mean, var;
  moments(scores, counts, double(n), mean, var);
  double sd = std::sqrt(var);
  return build(n, mean, var, sd, std::sqrt(var / double(n)), double(c.draws) / double(n));
}

std::optional<EloSummary> summarize(const PentaCounts& c) {
  int64_t n = c.pairs();
  if (n <= 0) return std::nullopt;
  const double scores[] = {0.0, 0.25, 0.5, 0.75, 1.0};
  const double counts[] = {double(c.ll), double(c.ld), double(c.dd_wl), double(c.wd), double(c.ww)};
  double mean, var;
  moments(scores, counts, double(n), mean, var);
  // A pair's mean score has half the variance of one game's when games are independent, so sqrt(2 var) is the
  // per-game sigma that nElo is defined with.
  return build(n, mean, var, std::sqrt(2 * var), std::sqrt(var / double(n)), double(c.dd_wl) / double(n));
}

}  // namespace arena::stats
