#pragma once
// One rating list for many engines: the maximum-likelihood Elo of each from every game between them, as Ordo
// computes it, with an interval per engine and the likelihood of superiority between neighbours.
//
// Model: engine a scores p = 1 / (1 + 10^((r_b - r_a) / 400)) a game against b; a draw counts as half a win and
// half a loss (the score likelihood: sum over games of s ln p + (1 - s) ln(1 - p)). Each pairing that was played
// also gets one virtual draw (BayesElo's prior gives two): it keeps an engine that won or lost every game at a
// finite rating, which is then reported as a bound (all_won / all_lost), never as an infinity.
//
// Intervals: 95 %, from the sandwich covariance I^-1 J I^-1, where I is the likelihood's curvature and J the
// observed spread of the score: over game pairs (colours swapped) when the games are paired, which keeps the pair
// structure as the pentanomial SPRT does; over single games otherwise. A pairing's games outside complete pairs
// count with their pairs' spread. With the anchor fixed its rating has no error; with mean 0 the errors are those
// of each rating minus the mean.
//
// Weighted games (rate_weighted): each game counts with a weight, as Floodgate's ratings weigh games by age; the
// same model and intervals, with the spread taken from the squared weights. The virtual draws can be set to 0 for
// mk_rate's plain maximum likelihood, which has no finite answer when a player or a group won (or lost) every
// game against the rest: that is then an error, as mk_rate aborts.
//
// Only engines connected by games can be put on one scale: a list whose games fall into two groups that never
// met is an error naming two engines that cannot be compared.

#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <vector>

#include "stats/counts.h"

namespace arena::stats {

// One pairing's results, from engine a's point of view.
struct PairingResults {
  int a = 0;
  int b = 0;
  WdlCounts wdl;      // every scored game
  PentaCounts penta;  // the complete game pairs among them (empty if the games are not paired)
};

// Games weighted one by one (rate_weighted), from engine a's point of view.
struct WeightedResults {
  int a = 0;
  int b = 0;
  int64_t games = 0;                                // how many, whatever their weights
  double wins = 0, draws = 0, losses = 0;           // summed weights
  double wins_sq = 0, draws_sq = 0, losses_sq = 0;  // summed squared weights
  void add(Outcome o, double weight);
};

struct RatingOptions {
  std::optional<int> anchor;  // this engine's rating is fixed at anchor_elo; none: the mean of the ratings is 0
  double anchor_elo = 0;
  double virtual_draws = 1;  // per pairing played; 0: plain maximum likelihood
};

struct EngineRating {
  double elo = 0;
  double lower = 0, upper = 0;  // 95 % interval
  double error = 0;             // half its width
  int64_t games = 0;
  double points = 0;      // summed weights of the points, for weighted games
  double lost = 0;        // the points it gave away (weighted likewise)
  bool all_won = false;   // every game won: the rating is a lower bound
  bool all_lost = false;  // every game lost: an upper bound
};

struct RatingList {
  std::vector<EngineRating> engines;  // by engine index; an engine without games has games == 0 and elo 0
  std::vector<int> order;             // engines with games, best first
  // likelihood_of_superiority[i]: of order[i] over order[i + 1] (one fewer than order)
  std::vector<double> likelihood_of_superiority;
  std::vector<std::vector<double>> covariance;  // of the reported ratings, by engine index
  int iterations = 0;                           // Newton steps taken
};

// Fewer than two engines with games is an error too (there is nothing to compare).
std::expected<RatingList, std::string> rate(const std::vector<std::string>& engine_names,
                                            const std::vector<PairingResults>& results,
                                            const RatingOptions& options = {});
std::expected<RatingList, std::string> rate_weighted(const std::vector<std::string>& engine_names,
                                                     const std::vector<WeightedResults>& results,
                                                     const RatingOptions& options = {});

}  // namespace arena::stats
