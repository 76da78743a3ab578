// The schedule: a pure function of the configuration (pairings, colours, the opening of each round).
#include <doctest/doctest.h>

#include <set>

#include "journal/shard.h"
#include "run/schedule.h"
#include "support/schedule_params.h"

using namespace arena;
using namespace arena::run;
using test_support::schedule_params;

TEST_CASE("gauntlet and round-robin schedules") {
  SUBCASE("gauntlet: the first engine against each other, colours swapped within a pair") {
    Schedule s(schedule_params(config::TournamentType::Gauntlet, 4, 5, 3));
    CHECK(s.pairings().size() == 3);
    CHECK(s.games() == 30);
    CHECK(s.pairs() == 15);
    for (int64_t i = 0; i < s.games(); i += 2) {
      ScheduledGame a = s.game(i), b = s.game(i + 1);
      CHECK(a.pair == b.pair);
      CHECK(a.black == b.white);
      CHECK(a.white == b.black);
      CHECK(a.opening == b.opening);
      CHECK(a.game_in_pair == 0);
      CHECK(b.game_in_pair == 1);
      CHECK((a.black == 0 || a.white == 0));
      CHECK(a.black == 0);  // the pairing's first engine has black in the pair's first game
    }
    // Every pairing plays every round, each round on one opening.
    for (int r = 0; r < 5; ++r)
      for (int p = 0; p < 3; ++p) {
        ScheduledGame g = s.game((int64_t(r) * 3 + p) * 2);
        CHECK(g.round == r);
        CHECK(g.pairing == p);
        CHECK(g.opening == r % 3);
        CHECK(g.white == p + 1);
      }
  }
  SUBCASE("round robin: every pair of engines") {
    Schedule s(schedule_params(config::TournamentType::RoundRobin, 4, 2, 1));
    CHECK(s.pairings().size() == 6);
    std::set<std::pair<int, int>> seen;
    for (const Pairing& p : s.pairings()) seen.insert({p.first, p.second});
    CHECK(seen.size() == 6);
    CHECK(s.games() == 24);
  }
  SUBCASE("sprt: one pairing") {
    Schedule s(schedule_params(config::TournamentType::Sprt, 2, 100, 10));
    CHECK(s.pairings().size() == 1);
    CHECK(s.games() == 200);
  }
  SUBCASE("a single play game") {
    Schedule::Params p = schedule_params(config::TournamentType::Play, 2, 1, 1);
    p.games_per_pair = 1;
    Schedule s(p);
    CHECK(s.games() == 1);
    CHECK(s.game(0).black == 0);
  }
}

TEST_CASE("opening order is deterministic") {
  using config::OpeningOrder;
  Schedule a(schedule_params(config::TournamentType::Gauntlet, 2, 25, 10, OpeningOrder::Random, 7));
  Schedule b(schedule_params(config::TournamentType::Gauntlet, 2, 25, 10, OpeningOrder::Random, 7));
  Schedule c(schedule_params(config::TournamentType::Gauntlet, 2, 25, 10, OpeningOrder::Random, 8));
  std::vector<int> oa, ob, oc;
  for (int r = 0; r < 25; ++r) {
    oa.push_back(a.opening_of_round(r));
    ob.push_back(b.opening_of_round(r));
    oc.push_back(c.opening_of_round(r));
  }
  CHECK(oa == ob);
  CHECK(oa != oc);
  // Each pass through the list is a permutation: no opening repeats before all have been played.
  for (int pass = 0; pass < 2; ++pass) {
    std::set<int> seen(oa.begin() + pass * 10, oa.begin() + pass * 10 + 10);
    CHECK(seen.size() == 10);
  }
  // Pinned values: the order must not change between versions or platforms, or --resume would break.
  INFO("first pass: ", oa[0], " ", oa[1], " ", oa[2], " ", oa[3], " ", oa[4], " ", oa[5], " ", oa[6], " ", oa[7], " ",
       oa[8], " ", oa[9]);
  CHECK(std::vector<int>(oa.begin(), oa.begin() + 10) == std::vector<int>{8, 1, 5, 9, 0, 4, 3, 2, 6, 7});

  const std::vector<std::string> names = {"x", "y"}, positions(10, "startpos");
  CHECK(schedule_id(a, names, positions) == schedule_id(b, names, positions));
  CHECK(schedule_id(a, names, positions) != schedule_id(c, names, positions));
  CHECK(schedule_id(a, names, positions) != schedule_id(a, {"x", "z"}, positions));
}

TEST_CASE("the shards of a schedule play every game exactly once and never split a pair") {
  Schedule::Params params;
  params.engines = 3;
  params.rounds = 17;
  params.openings = 5;
  params.order = arena::config::OpeningOrder::Random;
  params.seed = 11;
  Schedule schedule(params);
  for (int count = 1; count <= 7; ++count) {
    std::vector<int> owners(size_t(schedule.games()), 0);
    for (int index = 0; index < count; ++index) {
      journal::Shard shard{index, count};
      for (int64_t g = 0; g < schedule.games(); ++g)
        if (shard.owns_pair(schedule.game(g).pair)) ++owners[size_t(g)];
    }
    for (int64_t g = 0; g < schedule.games(); ++g) CHECK(owners[size_t(g)] == 1);
    // Both games of a pair go to the same shard: the pair index decides.
    for (int64_t g = 0; g + 1 < schedule.games(); g += 2) CHECK(schedule.game(g).pair == schedule.game(g + 1).pair);
  }
}
