// The report after a run: the clock reconstruction behind "time used against time given", and the data and page
// built from a journal (standings, series, terminations, times, games, replays, bad lines).
#include <doctest/doctest.h>

#include <unistd.h>

#include <boost/json.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "game/move_timing.h"
#include "journal/journal.h"
#include "output/json.h"
#include "output/result_json.h"
#include "sample_games.h"
#include "web/report.h"

using namespace arena;
using namespace arena::web;
using arena::game::move_timings;
using arena::game::MoveTiming;
using arena::testing::make_game;

namespace bj = boost::json;

namespace {

// A game as the report reads it from a journal line written before "time_controls" and "forfeit_used_ms": each
// side's control is read from the display text, a forfeit's time from the detail.
PlayedGame timed_game(std::string time_control, std::vector<testing::SampleMove> moves,
                      Termination termination = Termination::Resign, std::string detail = {},
                      std::string_view start = "startpos") {
  PlayedGame g = make_game(start, moves, Outcome::BlackWin, termination, std::move(detail));
  g.time_control = std::move(time_control);
  bj::object line = bj::parse(to_result_json(g)).as_object();
  line.erase("time_controls");
  line.erase("forfeit_used_ms");
  auto read = parse_result_json(bj::serialize(line));
  REQUIRE_MESSAGE(read.has_value(), (read ? "" : read.error()));
  return *read;
}

bj::object parse_object(const std::string& text) {
  auto v = json::parse(text);
  REQUIRE(v.has_value());
  REQUIRE(v->is_object());
  return v->as_object();
}

// Game i's row as an object: the report writes the games as a table, its columns named once.
bj::object row(const bj::object& data, size_t i) {
  const bj::array& columns = data.at("game_columns").as_array();
  const bj::array& values = data.at("games").as_array().at(i).as_array();
  REQUIRE(values.size() == columns.size());
  bj::object o;
  for (size_t c = 0; c < columns.size(); ++c) o.emplace(columns[c].as_string(), values[c]);
  return o;
}

}  // namespace

TEST_CASE("move_timings: a Fischer clock gives remaining + increment, and keeps what a move did not use") {
  PlayedGame g = timed_game("10+0.1", {{"7g7f", 3000}, {"3c3d", 500}, {"2g2f", 8000}, {"8c8d", 100}});
  auto t = move_timings(g);
  REQUIRE(t.size() == 4);
  CHECK(t[0].ply == 1);
  CHECK(t[0].mover == shogi::BLACK);
  CHECK(t[0].given_ms == 10100);
  CHECK(t[0].used_ms == 3000);
  CHECK(t[1].mover == shogi::WHITE);
  CHECK(t[1].given_ms == 10100);
  // 10,000 + 100 - 3,000.5 left (a recorded time is rounded down: half a millisecond is added back), plus the
  // next increment, rounded down.
  CHECK(t[2].given_ms == 7199);
  CHECK(t[3].given_ms == 9699);  // 10,000 + 100 - 500.5 + 100
  for (const MoveTiming& m : t) CHECK_FALSE(m.forfeit);
}

TEST_CASE("move_timings: byoyomi per side, opening moves left out, white to move first") {
  SUBCASE("each side's own clock") {
    PlayedGame g =
        timed_game("black 0+1b, white 5+0.5b", {{"7g7f", 900}, {"3c3d", 3000}, {"2g2f", 1000}, {"8c8d", 10}});
    auto t = move_timings(g);
    REQUIRE(t.size() == 4);
    CHECK(t[0].given_ms == 1000);
    CHECK(t[2].given_ms == 1000);  // byoyomi is never banked
    CHECK(t[1].given_ms == 5500);
    CHECK(t[3].given_ms == 2499);  // 1,999.5 left of the main time, plus the byoyomi
  }
  SUBCASE("the opening is not the engines'") {
    PlayedGame g = timed_game("10+0", {{"7g7f", 0}, {"3c3d", 0}, {"2g2f", 4000}, {"8c8d", 1000}});
    g.moves[0].opening = g.moves[1].opening = true;
    auto t = move_timings(g);
    REQUIRE(t.size() == 2);
    CHECK(t[0].ply == 3);
    CHECK(t[0].mover == shogi::BLACK);
    CHECK(t[0].given_ms == 10000);
    CHECK(t[1].mover == shogi::WHITE);
    CHECK(t[1].given_ms == 10000);
  }
  SUBCASE("white moves first from an SFEN") {
    PlayedGame g = timed_game("10+0", {{"3c3d", 2000}, {"7g7f", 100}}, Termination::Resign, {},
                              "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1");
    auto t = move_timings(g);
    REQUIRE(t.size() == 2);
    CHECK(t[0].mover == shogi::WHITE);
    CHECK(t[1].mover == shogi::BLACK);
  }
  SUBCASE("no clock: nodes only") {
    auto t = move_timings(timed_game("nodes=1000", {{"7g7f", 30}}));
    REQUIRE(t.size() == 1);
    CHECK(t[0].given_ms == -1);
    CHECK(t[0].used_ms == 30);
  }
  SUBCASE("a time control that cannot be read gives nothing") {
    CHECK(move_timings(timed_game("3 minutes", {{"7g7f", 30}})).empty());
  }
}

TEST_CASE("move_timings: the move that lost on time, from the journal's forfeit_used_ms") {
  PlayedGame g = timed_game("0+1b", {{"7g7f", 900}}, Termination::TimeForfeit,
                            "white (x) used 1234.5 ms, allowed 1000.0 ms + 100.0 ms margin");
  auto t = move_timings(g);
  REQUIRE(t.size() == 2);
  CHECK(t[1].forfeit);
  CHECK(t[1].ply == 2);
  CHECK(t[1].mover == shogi::WHITE);
  CHECK(t[1].given_ms == 1000);
  CHECK(t[1].used_ms == 1234);  // from the detail of a line without the field

  // The field, not the prose: a detail in any words (another language, another runner) changes nothing.
  g.result.detail = "白 (x) 時間切れ";
  g.forfeit_used_ms = 1500;
  CHECK(move_timings(g)[1].used_ms == 1500);
  g.forfeit_used_ms.reset();  // it never answered
  CHECK(move_timings(g)[1].used_ms == -1);
}

namespace {

// A two-game-per-pair SPRT journal of A against B with the games given, read back as the report reads it.
journal::JournalContents journal_of(const std::vector<PlayedGame>& games,
                                    std::vector<std::string>* lines_out = nullptr) {
  journal::JournalContents c;
  journal::JournalHeader h;
  h.type = "sprt";
  h.engines = {"A", "B"};
  h.games = int64_t(games.size());
  h.games_per_pair = 2;
  h.created = "2026-11-25T10:00:00.000Z";
  h.sprt = stats::SprtConfig{0.05, 0.05, 0, 10, stats::EloModel::Normalized};
  c.header = h;
  for (size_t i = 0; i < games.size(); ++i) {
    const journal::GameKey key{.game = int64_t(i), .pair = int64_t(i / 2), .game_in_pair = int(i % 2)};
    std::string line = journal::journal_line(key, games[i]);
    auto parsed = journal::parse_journal_game(line);
    REQUIRE(parsed.has_value());
    c.games.push_back(*parsed);
    c.lines.push_back(line);
  }
  if (lines_out) *lines_out = c.lines;
  return c;
}

PlayedGame named(PlayedGame g, const char* black, const char* white) {
  g.names[shogi::BLACK] = black;
  g.names[shogi::WHITE] = white;
  return g;
}

// Four games of A and B at 1 s + 0.1 s, colours alternating; game 2 is A's time loss.
std::vector<PlayedGame> four_games_one_time_loss() {
  std::vector<PlayedGame> games = {
      named(timed_game("1+0.1", {{"7g7f", 300}, {"3c3d", 200}}), "A", "B"),
      named(timed_game("1+0.1", {{"7g7f", 300}}, Termination::TimeForfeit,
                       "white (A) used 2000.0 ms, allowed 1100.0 ms + 100.0 ms margin"),
            "B", "A"),
      named(timed_game("1+0.1", {{"7g7f", 300}, {"3c3d", 200}}), "A", "B"),
      named(timed_game("1+0.1", {{"7g7f", 300}, {"3c3d", 200}}), "B", "A"),
  };
  games[1].result.outcome = Outcome::BlackWin;
  return games;
}

}  // namespace

TEST_CASE("report_data: standings, series, terminations, times and replays of a journal, a bad line named") {
  std::vector<PlayedGame> games = four_games_one_time_loss();
  journal::JournalContents c = journal_of(games);
  // Game 4's line holds a move that is not legal: listed, but no replay and no times.
  const size_t at = c.lines[3].find("\"3c3d\"");
  REQUIRE(at != std::string::npos);
  c.lines[3].replace(at, 6, "\"3c3b\"");

  ReportOptions options;
  options.max_replays = 1;
  ReportData data = report_data(c, "run/journal.jsonl", options);
  CHECK(data.games == 4);
  CHECK(data.replays == 1);
  REQUIRE(data.warnings.size() == 1);
  CHECK(data.warnings[0].find("game 4 (pair 1)") == 0);

  bj::object d = parse_object(data.json);
  CHECK(d.at("title").as_string() == "sprt: A vs B");
  CHECK(d.at("source").as_string() == "run/journal.jsonl");
  const bj::object& series = d.at("series").as_object();
  CHECK(series.at("games").as_array().size() == 4);
  CHECK(series.at("llr").as_array().size() == 4);
  CHECK(series.at("bounds").as_array().size() == 2);
  CHECK(series.at("pairings").as_array().at(0).as_object().at("name").as_string() == "A vs B");
  CHECK(d.at("summary").as_object().at("engines").as_array().size() == 2);

  // The time loss comes first for a replay, before game 1; game 4 has none.
  const bj::array& replays = d.at("replays").as_array();
  REQUIRE(replays.size() == 1);
  const bj::object& replay = replays.at(0).as_object();
  CHECK(replay.at("game").as_int64() == 1);
  CHECK(replay.at("given_ms").as_array().size() == 1);  // the flagged move was never played
  CHECK(replay.at("given_ms").as_array().at(0).as_int64() == 1100);
  CHECK(replay.at("score").as_array().at(0).is_null());
  CHECK(replay.at("termination").as_string() == "time-forfeit");
  REQUIRE(d.at("games").as_array().size() == 4);
  CHECK(row(d, 0).at("replay_index").as_int64() == -1);  // beyond max_replays
  CHECK(row(d, 1).at("replay_index").as_int64() == 0);
  CHECK(row(d, 2).at("replay_index").as_int64() == -1);
  CHECK(row(d, 3).at("replay_index").as_int64() == -1);  // unreadable
  CHECK(row(d, 1).at("termination").as_string() == "time-forfeit");
  CHECK(row(d, 1).at("black").as_string() == "B");

  bool found = false;
  for (const bj::value& t : d.at("terminations").as_array())
    if (t.at("termination").as_string() == "time-forfeit") {
      found = true;
      CHECK(t.at("black").as_int64() == 1);
    }
  CHECK(found);
  CHECK(d.at("engine_terminations").at("A").at("time-forfeit").as_array().at(1).as_int64() == 1);

  // A's time loss is a point of kind 2 at its allowance (1,100 ms) and what it used (2,000 ms).
  const bj::array& times = d.at("times").as_array();
  REQUIRE(times.size() == 2);
  CHECK(times.at(0).at("engine").as_string() == "A");
  CHECK(times.at(0).at("time_losses").as_int64() == 1);
  bool loss_point = false;
  for (const bj::value& p : times.at(0).at("points").as_array()) {
    const bj::array& a = p.as_array();
    if (a.at(4).as_int64() == 2) {
      loss_point = true;
      CHECK(a.at(0).as_int64() == 1100);
      CHECK(a.at(1).as_int64() == 2000);
      CHECK(a.at(2).as_int64() == 1);
    }
  }
  CHECK(loss_point);
}

TEST_CASE("report_data: the time chart keeps every move over its allowance and samples the rest") {
  std::vector<testing::SampleMove> moves;
  const char* usi[] = {"7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "8d8e", "6i7h", "4a3b"};
  for (int i = 0; i < 8; ++i) moves.push_back({usi[i], i == 6 ? 50000 : 100});  // black's last move: over
  std::vector<PlayedGame> games(4, named(timed_game("10+0", moves), "A", "B"));
  for (size_t i = 1; i < 4; i += 2) games[i] = named(games[i], "B", "A");
  ReportOptions options;
  options.max_time_points = 3;
  bj::object d = parse_object(report_data(journal_of(games), "j", options).json);
  for (const bj::value& e : d.at("times").as_array()) {
    const bj::array& points = e.at("points").as_array();
    CHECK(points.size() == 3);
    CHECK(e.at("sampled").as_bool());
    CHECK(e.at("moves").as_int64() == 16);
    int over = 0;
    for (const bj::value& p : points) over += p.as_array().at(4).as_int64() == 1 ? 1 : 0;
    CHECK(over == 2);  // the two games in which it had black
    CHECK(e.at("over_allowance").as_int64() == 2);
  }
}

TEST_CASE("report_html: self-contained, and no engine's text ends the data's script") {
  PlayedGame g = named(timed_game("1+0", {{"7g7f", 100}}), "</script><script>alert(1)</script>", "B");
  std::vector<PlayedGame> games = {g};
  journal::JournalContents c = journal_of(games);
  c.header->engines = {g.names[0], "B"};
  const std::string html = report_html(report_data(c, "j").json);
  CHECK(html.find("<script>alert(1)") == std::string::npos);
  CHECK(html.find("\\u003c/script>\\u003cscript>alert(1)") != std::string::npos);
  CHECK(html.find("/*REPORT_DATA*/") == std::string::npos);
  CHECK(html.find("/*COMMON_SCRIPT*/") == std::string::npos);
  CHECK(html.find("function boardSvg") != std::string::npos);
  // Nothing is loaded from anywhere.
  CHECK(html.find("src=\"http") == std::string::npos);
  CHECK(html.find("href=\"http") == std::string::npos);
}

TEST_CASE("report_data: an empty journal still makes a report") {
  journal::JournalContents c = journal_of({});
  ReportData data = report_data(c, "j");
  CHECK(data.games == 0);
  bj::object d = parse_object(data.json);
  CHECK(d.at("games").as_array().empty());
  CHECK(d.at("series").at("games").as_array().empty());
}

TEST_CASE("report_data: a second line of a game is left out, as the standings leave it out") {
  std::vector<PlayedGame> games = {
      named(timed_game("1+0.1", {{"7g7f", 300}, {"3c3d", 200}}), "A", "B"),
      named(timed_game("1+0.1", {{"7g7f", 300}, {"3c3d", 200}}), "B", "A"),
      named(timed_game("1+0.1", {{"7g7f", 300}, {"3c3d", 200}}), "A", "B"),
  };
  journal::JournalContents c = journal_of(games);
  // Game 2 (pair 0) again, then game 1's line a third time at the end: before, the report listed and charted 5
  // games where stats counted 3.
  c.games.insert(c.games.begin() + 2, c.games[1]);
  c.lines.insert(c.lines.begin() + 2, c.lines[1]);
  c.games.push_back(c.games[0]);
  c.lines.push_back(c.lines[0]);
  ReportData data = report_data(c, "j");
  CHECK(data.games == 3);
  REQUIRE(data.warnings.size() == 2);
  CHECK(data.warnings[0] == "game 2 (pair 0): a second line of the game, left out");
  CHECK(data.warnings[1] == "game 1 (pair 0): a second line of the game, left out");
  bj::object d = parse_object(data.json);
  CHECK(d.at("games").as_array().size() == 3);
  // The charts end at the last game shown, even though the journal ends with a left-out line.
  const bj::array& xs = d.at("series").at("games").as_array();
  REQUIRE_FALSE(xs.empty());
  CHECK(xs.back().as_int64() == 3);
  CHECK(d.at("series").at("llr").as_array().size() == xs.size());
  int64_t listed = 0;
  for (const bj::value& t : d.at("terminations").as_array())
    listed +=
        t.at("black").as_int64() + t.at("white").as_int64() + t.at("draw").as_int64() + t.at("unscored").as_int64();
  CHECK(listed == 3);
}

TEST_CASE("report_data: the time chart's sample of a long run is an even spread, held within twice the limit") {
  // 400 games of 8 moves, each side 1,600 moves within its allowance: the points kept as the moves come are
  // thinned (every other one, from then on half as many), and what is drawn spreads over the whole run.
  std::vector<testing::SampleMove> moves;
  const char* usi[] = {"7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "8d8e", "6i7h", "4a3b"};
  for (const char* m : usi) moves.push_back({m, 100});
  std::vector<PlayedGame> games(400, named(timed_game("10+0", moves), "A", "B"));
  for (size_t i = 1; i < games.size(); i += 2) games[i] = named(games[i], "B", "A");
  ReportOptions options;
  options.max_time_points = 50;
  bj::object d = parse_object(report_data(journal_of(games), "j", options).json);
  for (const bj::value& e : d.at("times").as_array()) {
    CHECK(e.at("moves").as_int64() == 1600);
    CHECK(e.at("sampled").as_bool());
    const bj::array& points = e.at("points").as_array();
    REQUIRE(points.size() == 50);
    CHECK(points.front().as_array().at(2).as_int64() < 20);   // from the first games
    CHECK(points.back().as_array().at(2).as_int64() >= 350);  // to the last
  }
}

TEST_CASE("write_report: the page of a journal file, read a game at a time, holds report_data's data") {
  std::vector<PlayedGame> games = four_games_one_time_loss();
  journal::JournalContents c = journal_of(games);
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("report-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string journal_path = (dir / "journal.jsonl").string(), html = (dir / "report.html").string();
  {
    std::ofstream out(journal_path);
    out << journal::to_json(*c.header) << "\n";
    for (const std::string& line : c.lines) out << line << "\n";
  }
  ReportOptions options;
  options.max_replays = 2;
  auto written = write_report(journal_path, html, options);
  REQUIRE_MESSAGE(written.has_value(), (written ? "" : written.error()));
  CHECK(written->games == 4);
  CHECK(written->replays == 2);
  std::ifstream in(html);
  const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(written->bytes == int64_t(page.size()));
  CHECK(page == report_html(report_data(c, journal_path, options).json));

  // A journal that cannot be read: an error naming it, and nothing written (no page, no temporary file).
  std::filesystem::remove(html);
  std::ofstream(journal_path, std::ios::app) << "{\"game\":garbled\n";
  auto failed = write_report(journal_path, html, options);
  REQUIRE_FALSE(failed.has_value());
  CHECK(failed.error().starts_with(journal_path + ":6: "));
  CHECK(std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator()) == 1);
  std::filesystem::remove_all(dir);
}
