// The standings in words: the status line shows "-" where a figure does not mean anything yet.
#include <doctest/doctest.h>

#include <boost/json.hpp>

#include "output/json.h"
#include "support/journal_game.h"
#include "standings/summary.h"

using namespace arena;
using namespace arena::standings;
using test_support::journal_game;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("status line: no Elo of +inf after one win, nor 0 +/- 0 while every pair is 1-1") {
  RunInfo info;
  info.type = config::TournamentType::Sprt;
  info.total_games = 100;
  Tally t({"a", "b"}, {run::Pairing{0, 1}}, 2);
  t.add(journal_game(0, 0, false, "a", "b", Outcome::BlackWin));
  std::string line = status_line(t, info);
  CAPTURE(line);
  CHECK(contains(line, "| Elo - nElo - |"));
  CHECK_FALSE(contains(line, "inf"));

  t.add(journal_game(1, 0, false, "b", "a", Outcome::BlackWin));  // pair 0: 1-1
  t.add(journal_game(2, 0, false, "a", "b", Outcome::WhiteWin));
  t.add(journal_game(3, 0, false, "b", "a", Outcome::WhiteWin));  // pair 1: 1-1
  line = status_line(t, info);
  CAPTURE(line);
  CHECK(contains(line, "| Elo - nElo - |"));

  t.add(journal_game(4, 0, false, "a", "b", Outcome::BlackWin));
  t.add(journal_game(5, 0, false, "b", "a", Outcome::WhiteWin));  // pair 2: a wins both
  line = status_line(t, info);
  CAPTURE(line);
  CHECK(contains(line, "| Elo +"));
  CHECK(contains(line, " +/- "));
  Summary summary;
  summary.info = info;
  const std::string text = summary_text(t, summary);
  CHECK(contains(text, "(95 %: "));
}

TEST_CASE("summary JSON: builds and time scaling in the journal header's shape") {
  Summary sum;
  sum.info.type = config::TournamentType::Sprt;
  sum.info.total_games = 2;
  sum.info.builds = {{"dev", "/r", "main", std::string(40, 'a'), true, 975903}, {"base", "", "", "", false, 12}};
  Tally t({"dev", "base"}, {run::Pairing{0, 1}}, 2);
  std::string text = summary_json(t, sum);
  CAPTURE(text);
  CHECK(contains(text, "\"builds\":[{\"engine\":\"dev\",\"repo\":\"/r\",\"ref\":\"main\",\"commit\":\"" +
                           std::string(40, 'a') + "\",\"dirty\":true,\"bench\":975903},"
                           "{\"engine\":\"base\",\"bench\":12}]"));
  CHECK(contains(text, "\"scale_tc\":null"));

  sum.info.scale_tc = journal::TimeScale{1200000, "dev", 600000, 2};
  text = summary_json(t, sum);
  CAPTURE(text);
  auto doc = json::parse(text);
  REQUIRE(doc);
  const auto& scale = doc->at("scale_tc");
  CHECK(scale.at("nps").to_number<double>() == 1200000);
  CHECK(scale.at("engine").as_string() == "dev");
  CHECK(scale.at("measured_nps").to_number<double>() == 600000);
  CHECK(scale.at("factor").to_number<double>() == 2);
}
