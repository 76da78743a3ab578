#pragma once
// Elo, normalized Elo and LOS from W/L/D (trinomial, game by game) or from pentanomial pair counts.
//
// The formulas are the ones fastchess prints (and fishtest uses for its summaries):
//   score s = mean points per game;  var = per-game (or per-pair) variance of the score
//   Elo(s) = -400 log10(1/s - 1)
//   95 % interval: s ± 1.959964 sqrt(var / n), mapped through Elo(); the reported error is half its width
//   nElo = (s - 0.5) / sqrt(var) * 800/ln 10            (trinomial, var per game)
//   nElo = (s - 0.5) / sqrt(2 var) * 800/ln 10          (pentanomial, var per pair of the pair's mean score;
//                                                          the sqrt 2 turns it back into a per-game figure)
//   LOS = (1 + erf((s - 0.5) / sqrt(2 var / n))) / 2
//
// Degenerate inputs never produce NaN:
//   - no games: the functions return std::nullopt;
//   - score 0 or 1 (all losses / all wins): Elo is -inf / +inf, which is what the formula means;
//   - zero variance (all draws, all wins, ...): the interval collapses to the point (error 0), nElo is 0 at
//     s = 0.5 and ±inf otherwise, LOS is 0.5 at s = 0.5 and 0 or 1 otherwise.
// Interval ends are clamped to scores in [0, 1], so a bound may be ±inf but never NaN.

#include <optional>

#include "stats/counts.h"

namespace arena::stats {

// 97.5 % quantile of the standard normal distribution.
inline constexpr double Z_95 = 1.959963984540054;

struct Estimate {
  double value = 0;
  double lower = 0;  // 95 % interval
  double upper = 0;
  // Half the interval's width (fastchess's "±" figure); 0 for a collapsed interval, +inf if one end is infinite.
  double error() const;
};

struct EloSummary {
  int64_t n = 0;           // games (trinomial) or pairs (pentanomial)
  double score = 0;        // mean points per game, in [0, 1]
  double variance = 0;     // of one game's score, or of one pair's mean score
  double draw_ratio = 0;   // draws per game, or DD+WL pairs per pair
  Estimate elo;            // logistic Elo difference
  Estimate nelo;           // normalized Elo
  double los = 0.5;        // likelihood of superiority, in [0, 1]
};

double score_to_elo(double score);  // -inf at 0, +inf at 1
double elo_to_score(double elo);

std::optional<EloSummary> summarize(const WdlCounts& c);
std::optional<EloSummary> summarize(const PentaCounts& c);

}  // namespace arena::stats
