// Floodgate pairing: shogi-server's least-difference pairing with its penalties, and what this server does where
// shogi-server is weak (the odd player rotates, colours balance, a rematch is avoided whenever possible).
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "csa/league/floodgate_group.h"
#include "csa/league/pairing.h"

using namespace arena::csa::league;

namespace {

Candidate player(const std::string& name, double rate = 0) { return {name + "+0123456789abcdef", name, rate}; }

std::string id(const std::string& name) { return name + "+0123456789abcdef"; }

// The pairs as "a-b" with the names sorted, whatever the colours.
std::set<std::string> pairs_of(const RoundPlan& plan) {
  std::set<std::string> out;
  for (const PlannedPair& p : plan.pairs) {
    std::string a = p.black.name, b = p.white.name;
    if (b < a) std::swap(a, b);
    out.insert(a + "-" + b);
  }
  return out;
}

RoundPlan plan(const std::vector<Candidate>& waiting, const GroupHistory& history = {},
               const GroupSettings& settings = {}, const std::map<std::string, double>& rates = {}, uint64_t seed = 1) {
  std::mt19937_64 rng(seed);
  return plan_round(waiting, history, settings, rates, 0, rng);
}

double total_difference(const RoundPlan& plan) {
  double sum = 0;
  for (const PlannedPair& p : plan.pairs) sum += std::abs(p.rate[0] - p.rate[1]);
  return sum;
}

}  // namespace

TEST_CASE("least difference: shogi-server's eight players pair with their neighbours by rating") {
  // TC_pairing.rb's rates.
  const std::vector<Candidate> eight = {player("anna", 500),  player("bert", 800),  player("carl", 1000),
                                        player("dora", 1500), player("emil", 2000), player("fritz", 2150),
                                        player("gina", 2500), player("hugo", 3000)};
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    const RoundPlan p = plan(eight, {}, {}, {}, seed);
    CHECK(pairs_of(p) == std::set<std::string>{"anna-bert", "carl-dora", "emil-fritz", "gina-hugo"});
    CHECK(total_difference(p) == 1450);
    CHECK(p.left_out.empty());
  }
  // Three players: one sits out, the other two play.
  const RoundPlan three = plan({player("anna", 500), player("bert", 800), player("hugo", 3000)});
  CHECK(three.left_out.size() == 1);
  CHECK(three.pairs.size() == 1);
}

TEST_CASE("beyond the exact limit the local search still finds the neighbours' pairing") {
  std::vector<Candidate> many;
  std::mt19937_64 gen(7);
  for (int i = 0; i < 40; ++i) {
    std::string name = "p";  // built with += : GCC 12 warns falsely (-Wrestrict) about "p" + std::string
    name += std::to_string(100 + i);
    many.push_back(player(name, 1000 + double(gen() % 2000)));
  }
  std::vector<double> rates;
  for (const Candidate& c : many) rates.push_back(c.rate);
  std::sort(rates.begin(), rates.end());
  double best = 0;
  for (size_t i = 0; i + 1 < rates.size(); i += 2) best += rates[i + 1] - rates[i];
  for (size_t n : {size_t(20), size_t(40)}) {
    std::vector<Candidate> some(many.begin(), many.begin() + long(n));
    std::vector<double> r;
    for (const Candidate& c : some) r.push_back(c.rate);
    std::sort(r.begin(), r.end());
    double optimum = 0;
    for (size_t i = 0; i + 1 < r.size(); i += 2) optimum += r[i + 1] - r[i];
    const RoundPlan p = plan(some);
    CHECK(p.pairs.size() == n / 2);
    CHECK(total_difference(p) == doctest::Approx(optimum));
  }
  CHECK(best > 0);
}

TEST_CASE("a rematch of the last game is avoided whenever another pairing exists") {
  GroupHistory h;
  h.record_game(id("anna"), id("bert"), std::nullopt);  // a draw counts too (shogi-server looks at wins only)
  h.record_game(id("carl"), id("dora"), true);
  const RoundPlan p = plan({player("anna", 1000), player("bert", 1010), player("carl", 2000), player("dora", 2010)}, h);
  CHECK(pairs_of(p).count("anna-bert") == 0);
  CHECK(pairs_of(p).count("carl-dora") == 0);
  for (const PlannedPair& pair : p.pairs) CHECK(pair.penalties.empty());
  // Two players: the rematch is the only game, and the log says what it cost.
  const RoundPlan two = plan({player("anna", 1000), player("bert", 1010)}, h);
  REQUIRE(two.pairs.size() == 1);
  CHECK(two.pairs[0].penalties == std::vector<std::string>{"rematch +400"});
  // Unrated players pay shogi-server's 4000 more for a rematch.
  const RoundPlan unrated = plan({player("anna"), player("bert")}, h);
  CHECK(unrated.pairs[0].penalties == std::vector<std::string>{"rematch +400", "unrated rematch +4000"});
}

TEST_CASE("one owner's engines and two humans are kept apart unless the ratings say otherwise") {
  // "tanuki_" shared by the first 7 characters: +800, so the 600 of rating difference of the other pairing wins.
  const RoundPlan apart = plan({{"tanuki_a+1", "tanuki_a", 1000},
                                {"tanuki_b+2", "tanuki_b", 1010},
                                {"kitsune+3", "kitsune", 1300},
                                {"raijin+4", "raijin", 1310}});
  CHECK(pairs_of(apart).count("tanuki_a-tanuki_b") == 0);
  CHECK(total_difference(apart) == 600);
  // With 1500 between the families the penalty is cheaper: they play, and the log shows it.
  const RoundPlan together = plan({{"tanuki_a+1", "tanuki_a", 1000},
                                   {"tanuki_b+2", "tanuki_b", 1010},
                                   {"kitsune+3", "kitsune", 2500},
                                   {"raijin+4", "raijin", 2510}});
  CHECK(pairs_of(together) == std::set<std::string>{"tanuki_a-tanuki_b", "kitsune-raijin"});
  for (const PlannedPair& pair : together.pairs)
    if (pair.black.name.starts_with("tanuki")) CHECK(pair.penalties == std::vector<std::string>{"same owner +800"});
  // The first four characters alone: +400.
  const RoundPlan family = plan({{"gps_fish+1", "gps_fish", 1000}, {"gps_shogi+2", "gps_shogi", 1000}});
  CHECK(family.pairs[0].penalties == std::vector<std::string>{"same name family +400"});
  // Humans: +800 for two of them.
  CHECK(is_human("taro_human"));
  CHECK(is_human("taro_human@home"));
  CHECK_FALSE(is_human("human_taro"));
  const RoundPlan humans =
      plan({player("a_human", 1500), player("b_human", 1500), player("engine1", 1500), player("engine2", 1500)});
  CHECK(pairs_of(humans).count("a_human-b_human") == 0);
}

TEST_CASE("an unrated player counts as the waiting players' mean, or by its last result against a rated one") {
  GroupHistory h;
  h.record_game(id("newbie"), id("master"), true);  // newbie beat master (rated 1800, not waiting)
  const std::map<std::string, double> rates = {{id("master"), 1800}};
  const RoundPlan p =
      plan({player("newbie"), player("strong", 1990), player("weak1", 1000), player("weak2", 1010)}, h, {}, rates);
  CHECK(pairs_of(p) == std::set<std::string>{"newbie-strong", "weak1-weak2"});
  for (const PlannedPair& pair : p.pairs)
    if (pair.black.name == "newbie" || pair.white.name == "newbie") {
      const int side = pair.black.name == "newbie" ? 0 : 1;
      CHECK(pair.rate[side] == 2000);
      CHECK(pair.estimated[side]);
    }
  // Nobody rated: everyone counts as Floodgate's 2150.
  const RoundPlan none = plan({player("x"), player("y")});
  CHECK(none.pairs[0].rate[0] == 2150);
  // With rated players waiting, a newcomer counts as their mean.
  const RoundPlan mean = plan({player("x"), player("r1", 1000), player("r2", 2000)});
  for (const PlannedPair& pair : mean.pairs)
    for (int side : {0, 1})
      if (pair.estimated[side]) CHECK(pair.rate[side] == 1500);
}

TEST_CASE("an odd player out rotates: never twice in a row, everyone in turn") {
  FloodgateGroup group({"floodgate-300-10F", Schedule::every(std::chrono::seconds(10)), {}});
  std::mt19937_64 rng(3);
  std::map<std::string, int> byes;
  std::string last;
  std::vector<std::string> log;
  for (int round = 0; round < 9; ++round) {
    RoundPlan p =
        group.pair_round({player("anna", 1000), player("bert", 1100), player("carl", 1200)}, {}, WallTime(), rng, log);
    REQUIRE(p.left_out.size() == 1);
    const std::string out = p.left_out[0].player.name;
    CHECK(out != last);
    last = out;
    ++byes[out];
    for (const PlannedPair& pair : p.pairs) group.record_game(pair.black.id, pair.white.id, true);
  }
  CHECK(byes == std::map<std::string, int>{{"anna", 3}, {"bert", 3}, {"carl", 3}});
  CHECK(group.rounds() == 9);
  CHECK(log.empty());
  // The sacrifice goes first when the count is odd, and only then.
  GroupSettings settings;
  settings.sacrifice = id("gps500");
  const RoundPlan odd = plan({player("gps500", 1500), player("a", 1000), player("b", 1000)}, {}, settings);
  REQUIRE(odd.left_out.size() == 1);
  CHECK(odd.left_out[0].player.name == "gps500");
  CHECK(odd.left_out[0].reason.find("sacrifice") != std::string::npos);
  CHECK(plan({player("gps500", 1500), player("a", 1000)}, {}, settings).left_out.empty());
}

TEST_CASE("colours balance over a group's games") {
  FloodgateGroup group({"floodgate-300-10F", Schedule::every(std::chrono::seconds(10)), {}});
  std::mt19937_64 rng(5);
  std::vector<std::string> log;
  std::string last_black;
  for (int round = 0; round < 6; ++round) {
    RoundPlan p = group.pair_round({player("anna", 1000), player("bert", 1000)}, {}, WallTime(), rng, log);
    REQUIRE(p.pairs.size() == 1);
    CHECK(p.pairs[0].black.name != last_black);  // two players alternate
    last_black = p.pairs[0].black.name;
    group.record_game(p.pairs[0].black.id, p.pairs[0].white.id, std::nullopt);
  }
  for (const char* name : {"anna", "bert"}) {
    const PlayerHistory* h = group.history().find(id(name));
    REQUIRE(h);
    CHECK(h->games == 6);
    CHECK(h->blacks == 3);
  }
  // The one who played black more often gets white, even against a newcomer.
  GroupHistory h;
  h.record_game(id("anna"), id("x"), true);
  h.record_game(id("anna"), id("y"), true);
  h.record_game(id("bert"), id("z"), true);
  h.record_game(id("w"), id("bert"), true);
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    CHECK(plan({player("anna", 1000), player("bert", 1000)}, h, {}, {}, seed).pairs[0].black.name == "bert");
    CHECK(plan({player("anna", 1000), player("newbie", 1000)}, h, {}, {}, seed).pairs[0].black.name == "newbie");
  }
}

TEST_CASE("the other factories: zyunisen, swiss, random, sort by rate") {
  GroupSettings zyunisen;
  zyunisen.pairing_factory = "floodgate_zyunisen";
  const RoundPlan z = plan({player("rated1", 1500), player("rated2", 1600), player("newbie")}, {}, zyunisen);
  REQUIRE(z.left_out.size() == 1);
  CHECK(z.left_out[0].player.name == "newbie");
  CHECK(z.pairs.size() == 1);

  GroupHistory h;
  h.record_game(id("w1"), id("l1"), true);
  h.record_game(id("w2"), id("l2"), true);
  GroupSettings swiss;
  swiss.pairing_factory = "swiss_pairing";
  const RoundPlan s = plan({player("w1", 1000), player("w2", 1000), player("l1", 3000), player("l2", 3000)}, h, swiss);
  CHECK(pairs_of(s) == std::set<std::string>{"w1-w2", "l1-l2"});

  for (const char* f : {"random_pairing", "sort_by_rate_with_randomness", "least_diff_pairing"}) {
    GroupSettings g;
    g.pairing_factory = f;
    const RoundPlan r = plan({player("a", 1000), player("b", 1200), player("c", 1400), player("d", 1600)}, {}, g);
    CHECK(r.pairs.size() == 2);
    CHECK(r.factory == f);
  }
  CHECK(is_pairing_factory("default_factory"));
  CHECK_FALSE(is_pairing_factory("best_pairing"));
}

TEST_CASE("every decision is described for the log") {
  GroupHistory h;
  h.record_game(id("anna"), id("bert"), false);
  const RoundPlan p = plan({player("anna", 1000), player("bert", 1100), player("carl")}, h);
  const std::vector<std::string> lines = p.describe();
  REQUIRE(lines.size() == 2);
  CHECK(lines[0].starts_with("left out "));
  CHECK(lines[0].find("odd count") != std::string::npos);
  CHECK(lines[1].starts_with("pair "));
  CHECK(lines[1].find("rating difference") != std::string::npos);
}
