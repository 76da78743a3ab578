// The analysis over a real referee process (the mock engine): a position with one legal move that the referee
// answers at once without a score takes the score of the position after it; a referee that never scores is an error.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "analysis/analysis_file.h"
#include "analysis/analyze.h"
#include "rules/game_end.h"
#include "support/temp_dir.h"

using namespace arena;
using namespace arena::analysis;

namespace {

// Black's king on 9i in check from the rook on 1i, 8h covered by the pawn on 8g: 9i9h is its only move.
SourceGame forced_game() {
  SourceGame g;
  g.played.names[shogi::BLACK] = std::string(1, 'B');
  g.played.names[shogi::WHITE] = std::string(1, 'W');
  g.played.start_sfen = "4k4/9/9/9/9/9/1p7/9/K7r b - 1";
  shogi::GameRecord record;
  REQUIRE(record.start("sfen " + g.played.start_sfen));
  for (const char* m : {"9i9h", "5a4b", "9h9g"}) {
    auto move = record.play_usi(m);
    REQUIRE(move);
    MoveRecord mr;
    mr.move = *move;
    g.played.moves.push_back(mr);
  }
  g.played.result.outcome = Outcome::WhiteWin;
  g.played.result.termination = Termination::Resign;
  return g;
}

AnalyzeOptions options_for(const std::string& out, std::vector<std::string> args) {
  AnalyzeOptions o;
  o.referee.command = MOCK_USI_ENGINE;
  o.referee.args = std::move(args);
  o.budget.nodes = 1;
  o.out_path = out;
  return o;
}

}  // namespace

TEST_CASE("referee: a forced move answered without a score takes the next position's") {
  test_support::TempDir dir("referee");
  const std::string out = (dir.path / "analysis.jsonl").string();
  auto report = analyze_games({forced_game()}, options_for(out, {"--silent-forced", "--score", "cp 120"}));
  REQUIRE_MESSAGE(report, (report ? "" : report.error()));
  CHECK(report->positions == 4);
  auto read = read_analysis(out);
  REQUIRE(read);
  REQUIRE(read->games.size() == 1);
  const std::vector<MoveAnalysis>& moves = read->games[0].moves;
  REQUIRE(moves.size() == 3);
  CHECK(moves[0].best == "9i9h");       // the only move
  CHECK(moves[0].score.value == -120);  // the next position's 120 for white, from black's view
  CHECK(moves[1].score.value == 120);   // searched
  CHECK(moves[0].judged.judgement == Judgement::Best);
}

TEST_CASE("referee: one that never gives a score is an error naming it and the position") {
  test_support::TempDir dir("referee");
  auto report =
      analyze_games({forced_game()}, options_for((dir.path / "analysis.jsonl").string(), {"--behavior", "resign"}));
  REQUIRE_FALSE(report);
  CHECK(report.error().find("gave no score") != std::string::npos);
  CHECK(report.error().find("position sfen 4k4/9/9/9/9/9/1p7/9/K7r b - 1 moves 9i9h") != std::string::npos);
}

TEST_CASE("referee: two referees at once write the games in order, as one does") {
  test_support::TempDir dir("referee");
  std::vector<SourceGame> games;
  for (int i = 0; i < 6; ++i) {
    games.push_back(forced_game());
    games.back().game = i;
  }
  std::string lines[2];
  for (int concurrency : {1, 2}) {
    const std::string out = (dir.path / ("analysis-" + std::to_string(concurrency) + ".jsonl")).string();
    AnalyzeOptions o = options_for(out, {"--silent-forced", "--score", "cp 120"});
    o.concurrency = concurrency;
    auto report = analyze_games(games, o);
    REQUIRE_MESSAGE(report, (report ? "" : report.error()));
    CHECK(report->analysed == 6);
    auto read = read_analysis(out);
    REQUIRE(read);
    REQUIRE(read->games.size() == 6);
    for (size_t i = 0; i < read->lines.size(); ++i) {
      CHECK(read->games[i].game == int64_t(i));
      lines[concurrency - 1] += read->lines[i] + "\n";
    }
  }
  CHECK(lines[0] == lines[1]);
}
