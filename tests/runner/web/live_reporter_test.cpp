#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <thread>

#include "web/live_reporter.h"
#include "web/live_state.h"

using namespace arena;

namespace {

// The journaled games the live page's standings count now.
int64_t published_games(const web::LiveState& state) {
  const boost::json::value v = boost::json::parse(state.update_json());
  const boost::json::value& standings = v.at("standings");
  if (standings.is_null()) return -1;
  return standings.at("games").at("journaled").as_int64();
}

journal::JournaledGame finished_game(int64_t i) {
  journal::JournaledGame g;
  g.summary.game = i;
  g.summary.pair = i / 2;
  g.summary.game_in_pair = int(i % 2);
  // Copied from strings: GCC 12 warns falsely (-Wrestrict) on assigning these literals here.
  static const std::string names[2] = {"a", "b"};
  g.summary.black = names[i % 2];
  g.summary.white = names[1 - i % 2];
  g.summary.outcome = Outcome::BlackWin;
  g.summary.termination = Termination::Resign;
  g.line = "{\"game\":";
  g.line += std::to_string(i);
  g.line += '}';
  return g;
}

}  // namespace

TEST_CASE("LiveReporter: the standings follow a burst of games at most every interval, and once more at the end") {
  web::LiveState state("test");
  standings::RunInfo info;
  info.type = config::TournamentType::RoundRobin;
  info.total_games = 12;
  web::LiveReporter reporter(state, info);
  standings::Tally tally({"a", "b", "c"}, {{0, 1}, {0, 2}, {1, 2}}, 2);

  reporter.tick(tally);  // the standings before the first game
  CHECK(published_games(state) == 0);
  for (int64_t i = 0; i < 6; ++i) {  // a burst: within the interval of the last publish
    journal::JournaledGame g = finished_game(i);
    tally.add(g.summary);
    reporter.game_finished(g, {}, tally);
  }
  CHECK(published_games(state) == 0);
  reporter.tick(tally);
  CHECK(published_games(state) == 0);  // still within the interval
  std::this_thread::sleep_for(web::LiveReporter::STANDINGS_INTERVAL + std::chrono::milliseconds(20));
  reporter.tick(tally);
  CHECK(published_games(state) == 6);
  // A game after a quiet interval is published at once.
  std::this_thread::sleep_for(web::LiveReporter::STANDINGS_INTERVAL + std::chrono::milliseconds(20));
  journal::JournaledGame g = finished_game(6);
  tally.add(g.summary);
  reporter.game_finished(g, {}, tally);
  CHECK(published_games(state) == 7);
  g = finished_game(7);
  tally.add(g.summary);
  reporter.game_finished(g, {}, tally);
  CHECK(published_games(state) == 7);
  reporter.publish_final(tally);
  CHECK(published_games(state) == 8);
}
