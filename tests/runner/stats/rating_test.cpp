// The rating list (stats/rating.h): two engines agree with the pairing's own Elo, synthetic round robins with known
// ratings are recovered within the intervals about 95 % of the time, and the cases Ordo and BayesElo users know
// (all draws, an engine that wins every game, groups that never met) give a clear answer.
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "stats/elo.h"
#include "stats/rating.h"

using namespace arena::stats;

namespace {

// A round robin of engines with the given true ratings: `pairs` pairs per pairing, each pair one game with each
// colour. Black gets `black_edge` Elo, so the two games of a pair are not alike (the pair structure matters);
// draws are frequent between equals and rare between mismatched engines.
std::vector<PairingResults> round_robin(const std::vector<double>& truth, int pairs, double black_edge,
                                        std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  auto play = [&](double diff) {  // the first engine's outcome
    const double s = elo_to_score(diff);
    const double draw = 0.35 * (1.0 - std::abs(2.0 * s - 1.0));
    const double x = u(rng);
    return x < s - draw / 2 ? Outcome::Win : x < s + draw / 2 ? Outcome::Draw : Outcome::Loss;
  };
  std::vector<PairingResults> out;
  for (int a = 0; a < int(truth.size()); ++a)
    for (int b = a + 1; b < int(truth.size()); ++b) {
      PairingResults p{a, b, {}, {}};
      for (int i = 0; i < pairs; ++i) {
        const Outcome as_black = play(truth[size_t(a)] - truth[size_t(b)] + black_edge);
        const Outcome as_white = play(truth[size_t(a)] - truth[size_t(b)] - black_edge);
        p.wdl.add(as_black);
        p.wdl.add(as_white);
        p.penta.add_pair(as_black, as_white);
      }
      out.push_back(p);
    }
  return out;
}

const std::vector<std::string> SIX = {"a", "b", "c", "d", "e", "f"};

}  // namespace

TEST_CASE("two engines: the pairing's Elo, and about its pentanomial interval") {
  PairingResults p{0, 1, {}, {}};
  p.penta = {5, 20, 40, 25, 10};  // 100 pairs
  p.wdl = {60, 45, 95};           // 200 games, 107.5 points, as the pairs
  const auto list = rate({"x", "y"}, {p}, {.anchor = 1, .anchor_elo = 0});
  REQUIRE(list.has_value());
  // With the virtual draw the score is (107.5 + 0.5) / 201.
  CHECK(list->engines[0].elo == doctest::Approx(score_to_elo(108.0 / 201.0)).epsilon(1e-9));
  CHECK(list->engines[1].elo == 0.0);
  CHECK(list->engines[1].error == 0.0);
  const auto pairing = summarize(p.penta);
  REQUIRE(pairing.has_value());
  CHECK(list->engines[0].error == doctest::Approx(pairing->elo.error()).epsilon(0.05));
  CHECK(list->order == std::vector<int>{0, 1});
  REQUIRE(list->likelihood_of_superiority.size() == 1);
  CHECK(list->likelihood_of_superiority[0] == doctest::Approx(pairing->los).epsilon(0.02));
}

TEST_CASE("six engines with known ratings: recovered within the 95 % intervals about 95 % of the time") {
  const std::vector<double> truth = {0, 60, -40, 150, -120, 20};
  std::mt19937_64 rng(20261126);
  int anchored_hits = 0, centred_hits = 0, checks = 0;
  double mean_error = 0;
  const int replicates = 200;
  for (int rep = 0; rep < replicates; ++rep) {
    const auto results = round_robin(truth, 40, 35, rng);
    const auto anchored = rate(SIX, results, {.anchor = 0, .anchor_elo = 0});
    const auto centred = rate(SIX, results);
    REQUIRE(anchored.has_value());
    REQUIRE(centred.has_value());
    double true_mean = 0;
    for (double t : truth) true_mean += t / double(truth.size());
    for (size_t e = 0; e < truth.size(); ++e) {
      const EngineRating& c = centred->engines[e];
      centred_hits += std::abs(c.elo - (truth[e] - true_mean)) <= c.error;
      if (e == 0) continue;
      const EngineRating& a = anchored->engines[e];
      anchored_hits += std::abs(a.elo - truth[e]) <= a.error;
      mean_error += a.error;
      ++checks;
    }
  }
  const double anchored_coverage = double(anchored_hits) / checks;
  const double centred_coverage = double(centred_hits) / (replicates * double(truth.size()));
  MESSAGE("coverage anchored " << anchored_coverage << ", mean 0 " << centred_coverage << ", mean error "
                               << mean_error / checks << " Elo");
  CHECK(anchored_coverage > 0.92);
  CHECK(anchored_coverage < 0.98);
  CHECK(centred_coverage > 0.92);
  CHECK(centred_coverage < 0.98);
}

TEST_CASE("the list is ordered, and neighbours' likelihood of superiority follows the gap") {
  std::mt19937_64 rng(7);
  const auto list = rate(SIX, round_robin({0, 60, -40, 150, -120, 20}, 200, 35, rng));
  REQUIRE(list.has_value());
  CHECK(list->order == std::vector<int>{3, 1, 5, 0, 2, 4});
  REQUIRE(list->likelihood_of_superiority.size() == 5);
  for (double los : list->likelihood_of_superiority) {
    CHECK(los > 0.5);
    CHECK(los <= 1.0);
  }
  double sum = 0;
  for (const EngineRating& e : list->engines) sum += e.elo;
  CHECK(std::abs(sum) < 1e-6);
}

TEST_CASE("every game a draw: every rating 0, no spread, no winner") {
  std::vector<PairingResults> results;
  for (int a = 0; a < 3; ++a)
    for (int b = a + 1; b < 3; ++b) results.push_back({a, b, {0, 0, 20}, {0, 0, 10, 0, 0}});
  const auto list = rate({"p", "q", "r"}, results);
  REQUIRE(list.has_value());
  for (const EngineRating& e : list->engines) {
    CHECK(e.elo == doctest::Approx(0.0).epsilon(1e-9));
    CHECK(std::isfinite(e.error));
    CHECK_FALSE(e.all_won);
  }
  for (double los : list->likelihood_of_superiority) CHECK(los == 0.5);
}

TEST_CASE("an engine that wins every game: finite, flagged as a lower bound") {
  // c wins every game, b loses every game, a beats b and loses to c.
  const std::vector<PairingResults> results = {
      {0, 1, {20, 0, 0}, {0, 0, 0, 0, 10}},
      {0, 2, {0, 20, 0}, {10, 0, 0, 0, 0}},
      {1, 2, {0, 20, 0}, {10, 0, 0, 0, 0}},
  };
  const auto list = rate({"a", "b", "c"}, results);
  REQUIRE(list.has_value());
  const EngineRating& c = list->engines[2];
  CHECK(c.all_won);
  CHECK(list->engines[1].all_lost);
  CHECK_FALSE(list->engines[0].all_won);
  for (const EngineRating& e : list->engines) {
    CHECK(std::isfinite(e.elo));
    CHECK(std::isfinite(e.error));
  }
  CHECK(list->order == std::vector<int>{2, 0, 1});
  CHECK(c.elo > list->engines[0].elo + 200);
}

TEST_CASE("what cannot be rated is an error that says why") {
  // Two groups that never met.
  const std::vector<PairingResults> split = {{0, 1, {5, 5, 0}, {}}, {2, 3, {5, 5, 0}, {}}};
  const auto list = rate({"a", "b", "c", "d"}, split);
  REQUIRE_FALSE(list.has_value());
  CHECK(list.error() == "a and c are not connected by games: their ratings cannot be put on one scale");
  CHECK(rate({"a", "b"}, {}).error() == "fewer than two engines have scored games");
  CHECK(rate({"a", "b", "c"}, {{0, 1, {1, 1, 0}, {}}}, {.anchor = 2}).error() == "the anchor c has no scored games");
  // An engine without games is left out, not an error.
  const auto partial = rate({"a", "b", "c"}, {{0, 1, {3, 1, 0}, {}}});
  REQUIRE(partial.has_value());
  CHECK(partial->order.size() == 2);
  CHECK(partial->engines[2].games == 0);
}

TEST_CASE("weighted games: unit weights give rate()'s list; weights and no prior give mk_rate's plain likelihood") {
  std::mt19937_64 rng(11);
  std::vector<PairingResults> rr = round_robin({0, 50, 100, 150}, 30, 0.0, rng);
  std::vector<WeightedResults> weighted;
  for (PairingResults& p : rr) {
    p.penta = {};  // single games: the spread over games, as the weighted fit has it
    WeightedResults w{p.a, p.b};
    for (int64_t i = 0; i < p.wdl.wins; ++i) w.add(Outcome::Win, 1.0);
    for (int64_t i = 0; i < p.wdl.draws; ++i) w.add(Outcome::Draw, 1.0);
    for (int64_t i = 0; i < p.wdl.losses; ++i) w.add(Outcome::Loss, 1.0);
    weighted.push_back(w);
  }
  const std::vector<std::string> names = {"a", "b", "c", "d"};
  const auto plain = rate(names, rr);
  const auto same = rate_weighted(names, weighted);
  REQUIRE(plain.has_value());
  REQUIRE(same.has_value());
  for (size_t i = 0; i < names.size(); ++i) {
    CHECK(same->engines[i].elo == doctest::Approx(plain->engines[i].elo).epsilon(1e-9));
    CHECK(same->engines[i].error == doctest::Approx(plain->engines[i].error).epsilon(1e-9));
    CHECK(same->engines[i].games == plain->engines[i].games);
  }

  // Two players, no prior: the difference is exactly 400 log10(wins / losses), weights included.
  WeightedResults two{0, 1};
  two.add(Outcome::Win, 1.0);
  two.add(Outcome::Win, 1.0);
  two.add(Outcome::Draw, 0.5);  // half a win, half a loss, at half weight
  two.add(Outcome::Loss, 1.0);
  RatingOptions plain_ml;
  plain_ml.virtual_draws = 0;
  const auto ml = rate_weighted({"x", "y"}, {two}, plain_ml);
  REQUIRE(ml.has_value());
  const double diff = ml->engines[0].elo - ml->engines[1].elo;
  CHECK(diff == doctest::Approx(400.0 * std::log10(2.25 / 1.25)).epsilon(1e-6));
  CHECK(ml->engines[0].elo == doctest::Approx(diff / 2).epsilon(1e-9));  // mean 0
  CHECK(ml->engines[0].games == 4);
  CHECK(ml->engines[0].points == doctest::Approx(2.25));
  CHECK(ml->engines[0].lost == doctest::Approx(1.25));
  CHECK(ml->engines[0].error > 0);

  // No prior and one player won everything: no finite answer, said so (mk_rate aborts).
  WeightedResults swept{0, 1};
  swept.add(Outcome::Win, 1.0);
  swept.add(Outcome::Win, 0.8);
  const auto none = rate_weighted({"x", "y"}, {swept}, plain_ml);
  REQUIRE_FALSE(none.has_value());
  CHECK(none.error().find("do not converge") != std::string::npos);
  // With the virtual draw the same games are rated, as a bound.
  const auto bounded = rate_weighted({"x", "y"}, {swept});
  REQUIRE(bounded.has_value());
  CHECK(bounded->engines[0].all_won);
}
