// The league's ratings from the results list, as shogi-server's mk_rate computes them (weights by age, the
// 15-game filter, abnormal and short games, groups that never met, mean 1000 truncated), and players.yaml.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cmath>
#include <fstream>

#include "csa/league/players_yaml.h"
#include "csa/league/ratings.h"
#include "csa/league/results_list.h"

using namespace arena::csa::league;

namespace {

const WallTime BASE = std::chrono::system_clock::from_time_t(1'800'000'000);

std::string id(const std::string& name) { return name + "+0123456789abcdef0123456789abcdef"; }

// A listed game `days_ago` before BASE between two player ids; marks from black's result.
ListedGame game(const std::string& black, const std::string& white, const std::string& black_mark, double days_ago = 1,
                const std::string& game_name = "floodgate-600-10F") {
  static int n = 0;
  ListedGame g;
  g.end_time = BASE - std::chrono::seconds(int64_t(days_ago * 86400));
  g.type = black_mark == "draw" ? "sennichite" : "toryo";
  g.marks[0] = black_mark;
  g.marks[1] = black_mark == "win" ? "lose" : black_mark == "lose" ? "win" : black_mark;
  g.players[0] = black;
  g.players[1] = white;
  g.record = "/nonexistent/2026/11/29/local+" + game_name + "+b+w+2026112900000" + std::to_string(n++ % 10) + ".csa";
  g.moves = 80;
  return g;
}

// `wins` games won by a and `losses` lost, alternating colours.
void add_series(std::vector<ListedGame>& list, const std::string& a, const std::string& b, int wins, int losses,
                double days_ago = 1) {
  for (int i = 0; i < wins + losses; ++i) {
    const bool a_wins = i < wins;
    const bool a_black = i % 2 == 0;
    list.push_back(game(a_black ? id(a) : id(b), a_black ? id(b) : id(a), a_wins == a_black ? "win" : "lose",
                        days_ago + i * 0.001));
  }
}

const LeaguePlayer& find(const LeagueRatings& r, const std::string& name) {
  for (const LeaguePlayer& p : r.players)
    if (p.name == name) return p;
  FAIL("no player " << name);
  throw;
}

LeagueRatingOptions at_base() {
  LeagueRatingOptions o;
  o.base_date = BASE;
  return o;
}

}  // namespace

TEST_CASE("the results list: seven or eight columns, a bad line is a warning naming the file and line") {
  const ResultsList list = parse_results_list(
      "2026/11/29 10:00:00\ttoryo\twin\ta+1\tb+2\tlose\tout/2026/11/29/local+floodgate-600-10F+a+b+20261129095000.csa\n"
      "2026/11/29 10:05:00\tabnormal\tlose\tb+2\ta+1\twin\tout/x.csa\t24\r\n"
      "garbage\n"
      "2026/13/29 10:00:00\ttoryo\twin\ta\tb\tlose\tx.csa\n"
      "\n",
      "00LIST");
  REQUIRE(list.games.size() == 2);
  CHECK(list.games[0].type == "toryo");
  CHECK(list.games[0].players[1] == "b+2");
  CHECK(list.games[0].marks[1] == "lose");
  CHECK_FALSE(list.games[0].moves.has_value());
  CHECK(list.games[0].game_name() == "floodgate-600-10F");
  CHECK(list.games[1].moves == 24);
  CHECK(list.games[1].game_name() == "");
  REQUIRE(list.warnings.size() == 2);
  CHECK(list.warnings[0] == "00LIST:3: expected 7 or 8 tab-separated columns, got 1");
  CHECK(list.warnings[1].starts_with("00LIST:4: expected an end time"));
  CHECK(read_results_list("/nonexistent/00LIST").games.empty());
}

TEST_CASE("two players with enough games: mk_rate's plain likelihood, mean 1000, truncated") {
  std::vector<ListedGame> list;
  add_series(list, "alpha", "beta", 12, 4);
  const LeagueRatings r = rate_league(list, at_base());
  CHECK(r.counted_games == 16);
  CHECK(r.fit_error.empty());
  const LeaguePlayer& a = find(r, "alpha");
  const LeaguePlayer& b = find(r, "beta");
  CHECK(a.rating_group == 0);
  CHECK(b.rating_group == 0);
  const double half = 200.0 * std::log10(3.0);  // 400 log10(12 / 4), split around the mean
  CHECK(a.rate == std::trunc(1000 + half));
  CHECK(b.rate == std::trunc(1000 - half));
  CHECK(a.win == doctest::Approx(12));
  CHECK(a.loss == doctest::Approx(4));
  CHECK(a.games == 16);
  CHECK(r.rates().at(id("alpha")) == a.rate);
  // The project's list: the virtual draw pulls both toward the mean, with an interval around each.
  CHECK(a.listed);
  CHECK(a.elo < 1000 + half);
  CHECK(a.elo > 1000);
  CHECK(a.lower < a.elo);
  CHECK(a.upper > a.elo);
}

TEST_CASE("fewer than 15 weighted games, or no loss: group 999 with rate 0, still on the project's list") {
  std::vector<ListedGame> list;
  add_series(list, "alpha", "beta", 10, 4);   // 14 games
  add_series(list, "gamma", "delta", 16, 0);  // gamma never lost
  const LeagueRatings r = rate_league(list, at_base());
  for (const char* name : {"alpha", "beta", "gamma", "delta"}) {
    CHECK(find(r, name).rating_group == 999);
    CHECK(find(r, name).rate == 0);
  }
  CHECK(find(r, "gamma").win == doctest::Approx(16));
  CHECK(find(r, "gamma").listed);
  CHECK(find(r, "gamma").elo > find(r, "delta").elo);
  // With the limit at 0 (mk_rate under $DEBUG) alpha and beta are rated; gamma still is not (no loss).
  LeagueRatingOptions o = at_base();
  o.games_limit = 0;
  const LeagueRatings low = rate_league(list, o);
  CHECK(find(low, "alpha").rating_group == 0);
  CHECK(find(low, "gamma").rating_group == 999);
}

TEST_CASE("games weigh by age: 1 in the first 7 days, then half every 60 days; older than 730 days not at all") {
  std::vector<ListedGame> list;
  list.push_back(game(id("alpha"), id("beta"), "win", 6.9));
  list.push_back(game(id("alpha"), id("beta"), "win", 67));
  list.push_back(game(id("alpha"), id("beta"), "lose", 127));
  list.push_back(game(id("alpha"), id("beta"), "lose", 800));
  list.push_back(game(id("alpha"), id("beta"), "draw", 7));
  const LeagueRatings r = rate_league(list, at_base());
  CHECK(r.counted_games == 4);
  const LeaguePlayer& a = find(r, "alpha");
  CHECK(a.win == doctest::Approx(1 + std::exp(-0.693) + 0.5).epsilon(1e-6));
  CHECK(a.loss == doctest::Approx(std::exp(-0.693 * 2) + 0.5).epsilon(1e-6));
  CHECK(a.last_modified == list[0].end_time);
}

TEST_CASE("games that do not count: short abnormal ones, no result, no trip, @NORATE, other games, twice listed") {
  std::vector<ListedGame> list;
  ListedGame short_abnormal = game(id("alpha"), id("beta"), "win");
  short_abnormal.type = "abnormal";
  short_abnormal.moves = 30;
  ListedGame long_abnormal = short_abnormal;
  long_abnormal.moves = 31;
  long_abnormal.end_time -= std::chrono::seconds(10);
  ListedGame stopped = game(id("alpha"), id("beta"), "none");
  stopped.marks[1] = "none";
  list = {short_abnormal,
          long_abnormal,
          long_abnormal,
          stopped,
          game("alpha", id("beta"), "win"),
          game("alpha@NORATE+1234", id("beta"), "win"),
          game(id("alpha"), id("beta"), "win", 1, "test-600-10F"),
          game(id("alpha"), id("beta"), "win", -1)};
  const LeagueRatings r = rate_league(list, at_base());
  CHECK(r.counted_games == 1);
  CHECK(find(r, "alpha").win == doctest::Approx(1));
  std::string notes;
  for (const std::string& n : r.notes) notes += n + "\n";
  CHECK(notes.find("1 game not counted: abnormal and short") != std::string::npos);
  CHECK(notes.find("1 game not counted: listed twice") != std::string::npos);
  CHECK(notes.find("1 game not counted: no result") != std::string::npos);
  CHECK(notes.find("2 games not counted: a player without a trip") != std::string::npos);
  CHECK(notes.find("1 game not counted: not a Floodgate game") != std::string::npos);
  CHECK(notes.find("1 game not counted: after the base date") != std::string::npos);
  // "@host" before the "+" is dropped: the same player.
  const LeagueRatings at =
      rate_league({game("alpha@home+0123456789abcdef0123456789abcdef", id("beta"), "win")}, at_base());
  CHECK(find(at, "alpha").id == id("alpha"));
}

TEST_CASE("groups that never met are rated apart, each with mean 1000") {
  std::vector<ListedGame> list;
  add_series(list, "alpha", "beta", 12, 4);
  add_series(list, "gamma", "delta", 8, 8);
  add_series(list, "gamma", "eps", 9, 7);
  const LeagueRatings r = rate_league(list, at_base());
  CHECK(find(r, "gamma").rating_group == 0);  // the larger group first
  CHECK(find(r, "alpha").rating_group == 1);
  double sum0 = 0;
  for (const char* n : {"gamma", "delta", "eps"}) sum0 += find(r, n).rate;
  CHECK(sum0 / 3 == doctest::Approx(1000).epsilon(0.002));  // truncation moves the mean by under 1
  CHECK(find(r, "alpha").rate + find(r, "beta").rate == doctest::Approx(2000).epsilon(0.001));
  CHECK(find(r, "alpha").list_group != find(r, "gamma").list_group);
}

TEST_CASE("players.yaml: mk_rate's layout, read back by the reader the pairing uses") {
  std::vector<ListedGame> list;
  add_series(list, "alpha", "beta", 12, 4);
  list.push_back(game(id("newbie"), id("alpha"), "win"));
  list.push_back(game(id("ghost"), id("alpha"), "win", 200));  // weight about 0.1: not in group 999 either
  const LeagueRatings r = rate_league(list, at_base());
  const std::string yaml = players_yaml_text(r);
  CHECK(yaml.starts_with("---\nplayers:\n  0:\n    alpha+"));
  CHECK(yaml.find("\n      rating_group: 0\n      rate: " + std::to_string(int(find(r, "alpha").rate)) + ".0\n") !=
        std::string::npos);
  CHECK(yaml.find("\n  999:\n    newbie+") != std::string::npos);
  CHECK(yaml.find("ghost") == std::string::npos);
  // last_modified is a plain YAML timestamp with nanoseconds and the zone, as Ruby writes a Time.
  const size_t at = yaml.find("last_modified: ");
  REQUIRE(at != std::string::npos);
  const std::string stamp = yaml.substr(at + 15, yaml.find('\n', at) - at - 15);
  CHECK(stamp.size() == std::string("2027-01-15 08:00:00.000000000 +00:00").size());
  CHECK(stamp.substr(19, 11) == ".000000000 ");
  const auto path = std::filesystem::temp_directory_path() / ("players_rt_" + std::to_string(::getpid()) + ".yaml");
  std::ofstream(path) << yaml;
  auto rates = read_player_rates(path);
  REQUIRE(rates.has_value());
  CHECK(rates->at(id("alpha")) == find(r, "alpha").rate);
  CHECK(rates->at(id("newbie")) == 0);
  std::filesystem::remove(path);
  // No game at all: an empty league, 999 still written.
  CHECK(players_yaml_text(rate_league({}, at_base())) == "---\nplayers:\n  999: {}\n");
}

TEST_CASE("a group without finite ratings (it never lost to the rest) goes to 999 where mk_rate would abort") {
  std::vector<ListedGame> list;
  add_series(list, "anna", "bert", 10, 10);
  add_series(list, "carl", "anna", 10, 0);
  add_series(list, "carl", "bert", 10, 0);
  add_series(list, "dora", "carl", 1, 1);   // carl and dora lose only to each other
  add_series(list, "emil", "fritz", 9, 7);  // another group, rated as usual
  LeagueRatingOptions o = at_base();
  o.games_limit = 0;
  const LeagueRatings r = rate_league(list, o);
  CHECK(r.fit_error.find("do not converge") != std::string::npos);
  for (const char* name : {"anna", "bert", "carl", "dora"}) CHECK(find(r, name).rating_group == 999);
  CHECK(find(r, "emil").rating_group == 1);
  CHECK(find(r, "emil").rate > 1000);
  CHECK(find(r, "carl").listed);  // the project's list still rates it, with its prior
  CHECK(players_yaml_text(r).find("  1:\n    emil+") != std::string::npos);
}
