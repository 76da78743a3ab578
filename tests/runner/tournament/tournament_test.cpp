// The tournament runner with scripted engines: complete runs, independence from concurrency, replayed pairs,
// interrupt + resume without loss or duplication, SPRT stopping and exit codes, fatal start failures.
#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "runner/run/fake_engines.h"
#include "rules/position.h"
#include "support/temp_dir.h"
#include "tournament/tournament.h"

using namespace arena;
using namespace arena::tournament;
using namespace arena::journal;
using arena::run::testing::fake_config;
using arena::run::testing::fake_factory;
using arena::run::testing::Script;
namespace fs = std::filesystem;
using test_support::TempDir;

namespace {

std::vector<openings::Opening> test_openings() {
  return {{"startpos", "a"},
          {"startpos moves 7g7f", "b"},
          {"startpos moves 7g7f 3c3d", "c"},
          {"startpos moves 2g2f 8c8d 2f2e", "d"},
          {"startpos moves 5g5f", "e"}};
}

// Stops the run (as a signal would) once `after` games are journaled.
class StopAfter : public Observer {
 public:
  StopAfter(std::atomic<bool>& flag, int64_t after) : flag_(flag), after_(after) {}
  void game_finished(const journal::JournaledGame&, const std::vector<std::string>&, const standings::Tally& tally) override {
    if (tally.journaled() >= after_) flag_ = true;
  }
  void warning(const std::string& text) override { warnings.push_back(text); }
  std::vector<std::string> warnings;

 private:
  std::atomic<bool>& flag_;
  int64_t after_;
};

struct Run {
  RunResult result;
  int64_t games_played = 0;
  std::vector<standings::PairingRecord> pairings;
  int64_t scored = 0;
  int exit = -1;
};

Run play_run(const config::Config& c, Script& s, Observer& observer, const std::atomic<bool>* stop = nullptr) {
  Tournament t(c, test_openings(), fake_factory(s));
  auto opened = t.open(observer);
  REQUIRE_MESSAGE(opened, (opened ? "" : opened.error()));
  Run r;
  r.result = t.run(observer, stop);
  r.games_played = t.games_played();
  r.pairings = t.tally().pairings();
  r.scored = t.tally().scored();
  r.exit = exit_code(r.result, c, t.tally());
  return r;
}

// The game lines of a journal: (game, attempt, replay) in order.
std::vector<std::tuple<int64_t, int, bool>> journal_games(const std::string& path) {
  auto c = read_journal(path);
  REQUIRE(c);
  std::vector<std::tuple<int64_t, int, bool>> out;
  for (const JournalGame& g : c->games) out.emplace_back(g.game, g.attempt, g.replay);
  return out;
}

void check_same_scores(const std::vector<standings::PairingRecord>& a, const std::vector<standings::PairingRecord>& b) {
  REQUIRE(a.size() == b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    CHECK(a[i].wdl == b[i].wdl);
    CHECK(a[i].as_black == b[i].as_black);
    CHECK(a[i].penta == b[i].penta);
  }
}

}  // namespace

TEST_CASE("a complete gauntlet; the standings do not depend on concurrency") {
  shogi::Position::init();
  TempDir dir("complete");
  Observer quiet;
  Script s1(3);
  config::Config c1 = fake_config(config::TournamentType::Gauntlet, 3, 6, 1, dir.path / "c1");
  Run one = play_run(c1, s1, quiet);
  CHECK(one.result.end == RunEnd::Completed);
  CHECK(one.games_played == 24);
  CHECK(one.scored == 24);
  CHECK(one.exit == 0);
  REQUIRE(one.pairings.size() == 2);
  CHECK(one.pairings[0].penta.pairs() == 6);
  // The script: the lower engine index wins unless the opening has an odd number of moves (a draw): rounds use
  // openings 0 1 2 3 4 0, and only opening 2 has an odd number.
  CHECK(one.pairings[0].wdl == stats::WdlCounts{10, 0, 2});
  auto lines = journal_games(c1.output.journal);
  std::set<int64_t> ids;
  for (auto [g, a, r] : lines) ids.insert(g);
  CHECK(lines.size() == 24);
  CHECK(ids.size() == 24);
  CHECK(s1.live == 0);  // every engine released at the end

  Script s4(3);
  config::Config c4 = fake_config(config::TournamentType::Gauntlet, 3, 6, 4, dir.path / "c4");
  Run four = play_run(c4, s4, quiet);
  CHECK(four.scored == 24);
  check_same_scores(one.pairings, four.pairings);
  CHECK(s4.live == 0);

  SUBCASE("a round robin with a fresh process per game") {
    Script s(4);
    config::Config c = fake_config(config::TournamentType::RoundRobin, 4, 2, 3, dir.path / "rr");
    c.restart = config::RestartPolicy::Always;
    Run r = play_run(c, s, quiet);
    CHECK(r.scored == 24);
    CHECK(r.pairings.size() == 6);
    int starts = 0;
    for (int n : s.starts) starts += n;
    CHECK(starts == 48);  // two engines started for each of the 24 games
  }
}

TEST_CASE("the journal is not overwritten by accident") {
  shogi::Position::init();
  TempDir dir("exists");
  Observer quiet;
  Script s(2);
  config::Config c = fake_config(config::TournamentType::Gauntlet, 2, 2, 1, dir.path);
  play_run(c, s, quiet);
  Tournament again(c, test_openings(), fake_factory(s));
  auto e = again.open(quiet);
  REQUIRE_FALSE(e);
  CHECK(e.error().find("the journal already exists; use --resume") != std::string::npos);
  c.overwrite = true;
  Run r = play_run(c, s, quiet);
  CHECK(r.games_played == 4);
  CHECK(journal_games(c.output.journal).size() == 4);
}

TEST_CASE("a pair broken by a crash is replayed") {
  shogi::Position::init();
  TempDir dir("replay");
  Observer quiet;
  SUBCASE("replayed as a new attempt; the crash stays in the faults") {
    Script s(2);
    s.crash = [](int call) { return call == 4; };  // game 3 (pair 1's second game) crashes
    config::Config c = fake_config(config::TournamentType::Gauntlet, 2, 3, 1, dir.path);
    Tournament t(c, test_openings(), fake_factory(s));
    REQUIRE(t.open(quiet));
    RunResult r = t.run(quiet, nullptr);
    CHECK(r.end == RunEnd::Completed);
    CHECK(t.tally().scored() == 6);
    CHECK(t.tally().replays() == 1);
    CHECK(t.tally().void_games() == 2);
    CHECK(t.tally().engines()[1].crashes == 1);  // e1 is black in game 3
    auto lines = journal_games(c.output.journal);
    REQUIRE(lines.size() == 8);
    CHECK(lines[3] == std::make_tuple(int64_t(3), 0, true));
    CHECK(lines[4] == std::make_tuple(int64_t(2), 1, false));
    CHECK(lines[5] == std::make_tuple(int64_t(3), 1, false));
    CHECK(s.starts[1] == 2);  // the crashed engine was restarted
    // The standings are those of a run without the crash.
    Script clean(2);
    config::Config c2 = fake_config(config::TournamentType::Gauntlet, 2, 3, 1, dir.path / "clean");
    check_same_scores(t.tally().pairings(), play_run(c2, clean, quiet).pairings);
  }
  SUBCASE("without replays the crash is scored") {
    Script s(2);
    s.crash = [](int call) { return call == 5; };  // e0 crashes as black in game 4, a drawn game otherwise
    config::Config c = fake_config(config::TournamentType::Gauntlet, 2, 3, 1, dir.path);
    c.replay_broken_pairs = false;
    Run r = play_run(c, s, quiet);
    CHECK(r.scored == 6);
    CHECK(journal_games(c.output.journal).size() == 6);
    CHECK(r.pairings[0].wdl == stats::WdlCounts{4, 1, 1});
  }
  SUBCASE("an engine that always crashes is scored after max_replays") {
    Script s(2);
    s.crash = [](int) { return true; };
    config::Config c = fake_config(config::TournamentType::Gauntlet, 2, 1, 1, dir.path);
    c.max_replays = 2;
    Run r = play_run(c, s, quiet);
    CHECK(r.result.end == RunEnd::Completed);
    CHECK(r.scored == 2);
    // attempt 0: game 0 broke (1 line); attempt 1: game 0 broke; attempt 2: both games scored.
    CHECK(journal_games(c.output.journal).size() == 4);
  }
}

TEST_CASE("interrupted and resumed: every scheduled game exactly once") {
  shogi::Position::init();
  TempDir dir("resume");
  Observer quiet;
  Script reference(3);
  const config::Config ref_config = fake_config(config::TournamentType::Gauntlet, 3, 8, 2, dir.path / "ref");
  Run expected = play_run(ref_config, reference, quiet);

  config::Config c = fake_config(config::TournamentType::Gauntlet, 3, 8, 3, dir.path / "run");
  Script s(3);
  s.think = std::chrono::milliseconds(5);
  std::atomic<bool> stop{false};
  StopAfter observer(stop, 7);
  Run first = play_run(c, s, observer, &stop);
  CHECK(first.result.end == RunEnd::Interrupted);
  CHECK(first.exit == 2);
  CHECK(s.live == 0);
  const size_t journaled = journal_games(c.output.journal).size();
  CHECK(journaled >= 7);
  CHECK(journaled < 32);
  // A kill -9 in the middle of a write leaves a torn line.
  std::ofstream(c.output.journal, std::ios::app) << "{\"game\":31,\"pair\":15,";

  SUBCASE("a different schedule is refused") {
    config::Config other = c;
    other.resume = true;
    other.rounds = 9;
    Tournament t(other, test_openings(), fake_factory(s));
    auto e = t.open(quiet);
    REQUIRE_FALSE(e);
    // The difference named, not only that the schedule's digest differs.
    INFO(e.error());
    CHECK(e.error().find("the journal was written by another run: ") != std::string::npos);
    CHECK(e.error().find("rounds") != std::string::npos);
  }
  SUBCASE("resumed to the end") {
    c.resume = true;
    Script s2(3);
    StopAfter watcher(stop, 1000);
    stop = false;
    Tournament t(c, test_openings(), fake_factory(s2));
    REQUIRE(t.open(watcher));
    CHECK(t.resumed_games() == int64_t(journaled));
    RunResult r = t.run(watcher, &stop);
    CHECK(r.end == RunEnd::Completed);
    CHECK(t.games_played() == 32 - int64_t(journaled));
    // The torn line; and, on a machine with fewer than 3 hardware threads, the concurrency.
    const auto not_concurrency = std::count_if(watcher.warnings.begin(), watcher.warnings.end(),
                                               [](const std::string& w) { return !w.starts_with("concurrency "); });
    CHECK(not_concurrency == 1);
    CHECK(watcher.warnings.size() == (c.concurrency > config::default_concurrency() ? 2u : 1u));
    auto lines = journal_games(c.output.journal);
    std::map<int64_t, int> count;
    for (auto [g, a, replay] : lines) ++count[g];
    CHECK(lines.size() == 32);
    CHECK(count.size() == 32);
    for (auto [g, n] : count) CHECK(n == 1);
    check_same_scores(t.tally().pairings(), expected.pairings);
  }
}

TEST_CASE("SPRT: stops at the verdict; the exit code tells it") {
  shogi::Position::init();
  TempDir dir("sprt");
  Observer quiet;
  config::Config c = fake_config(config::TournamentType::Sprt, 2, 1000, 2, dir.path);
  c.sprt = stats::SprtConfig{0.05, 0.05, 0, 5, stats::EloModel::Normalized};
  Script s(2);
  // Mostly wins for e0 with some losses, so the pairs vary and the test must decide.
  s.result = [](int black, int, const std::string& position) {
    if (position.size() % 3 == 0) return black == 0 ? Outcome::WhiteWin : Outcome::BlackWin;
    return black == 0 ? Outcome::BlackWin : Outcome::WhiteWin;
  };
  SUBCASE("H1") {
    Run r = play_run(c, s, quiet);
    CHECK(r.result.end == RunEnd::SprtDecided);
    CHECK(r.exit == 0);
    CHECK(r.scored < 2000);
  }
  SUBCASE("H0") {
    s.result = [](int black, int, const std::string& position) {
      if (position.size() % 3 == 0) return black == 0 ? Outcome::BlackWin : Outcome::WhiteWin;
      return black == 0 ? Outcome::WhiteWin : Outcome::BlackWin;
    };
    Run r = play_run(c, s, quiet);
    CHECK(r.result.end == RunEnd::SprtDecided);
    CHECK(r.exit == 1);
  }
  SUBCASE("inconclusive at the maximum") {
    c.rounds = 3;
    s.result = [](int, int, const std::string&) { return Outcome::Draw; };
    Run r = play_run(c, s, quiet);
    CHECK(r.result.end == RunEnd::Completed);
    CHECK(r.scored == 6);
    CHECK(r.exit == 2);
  }
}

TEST_CASE("an engine that cannot start") {
  shogi::Position::init();
  TempDir dir("start");
  Observer quiet;
  SUBCASE("at the first start: a fatal configuration error") {
    Script s(2);
    s.fail_start = [](int e, int) { return e == 1; };
    config::Config c = fake_config(config::TournamentType::Gauntlet, 2, 4, 2, dir.path);
    Run r = play_run(c, s, quiet);
    CHECK(r.result.end == RunEnd::Error);
    CHECK(r.result.error.starts_with("e1: usi: no answer"));
    CHECK(r.exit == 2);
    CHECK(r.scored == 0);
    // The journal it left holds no game: the same command with the engine mended starts afresh, no --resume or
    // --overwrite needed; and so does --resume with other settings.
    REQUIRE(fs::exists(c.output.journal));
    Script fixed(2);
    Run again = play_run(c, fixed, quiet);
    CHECK(again.result.end == RunEnd::Completed);
    CHECK(again.scored == 8);
    CHECK(journal_games(c.output.journal).size() == 8);
  }
  SUBCASE("resumed after a failed start with other settings: afresh, nothing was played") {
    Script s(2);
    s.fail_start = [](int e, int) { return e == 1; };
    config::Config c = fake_config(config::TournamentType::Gauntlet, 2, 4, 2, dir.path);
    REQUIRE(play_run(c, s, quiet).result.end == RunEnd::Error);
    Script fixed(2);
    config::Config other = fake_config(config::TournamentType::Gauntlet, 2, 2, 2, dir.path);
    other.resume = true;
    Run again = play_run(other, fixed, quiet);
    CHECK(again.result.end == RunEnd::Completed);
    CHECK(again.scored == 4);
  }
  SUBCASE("a failed restart after a crash is a crash; replayed") {
    Script s(2);
    s.crash = [](int call) { return call == 1; };
    s.fail_start = [](int e, int n) { return e == 0 && n == 2; };  // e0's restart fails once
    config::Config c = fake_config(config::TournamentType::Gauntlet, 2, 2, 1, dir.path);
    Run r = play_run(c, s, quiet);
    CHECK(r.result.end == RunEnd::Completed);
    CHECK(r.scored == 4);
    auto lines = journal_games(c.output.journal);
    REQUIRE(lines.size() == 6);
    CHECK(std::get<2>(lines[0]));  // the crash
    CHECK(std::get<2>(lines[1]));  // the failed restart
  }
}

TEST_CASE("an engine that dies just before the runner's stop signal died with the job: not a crash") {
  // scancel, a Slurm requeue or a time limit signal every process of the job at once: the engine may go first.
  shogi::Position::init();
  TempDir dir("jobkill");
  Observer quiet;
  Script s(2);
  std::atomic<bool> stop{false};
  std::thread signaller;
  s.crash = [&](int call) {
    if (call != 3) return false;
    signaller = std::thread([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      stop = true;
    });
    return true;
  };
  config::Config c = fake_config(config::TournamentType::Gauntlet, 2, 4, 1, dir.path / "j");
  Run r = play_run(c, s, quiet, &stop);
  signaller.join();
  CHECK(r.result.end == RunEnd::Interrupted);
  auto journal = read_journal(c.output.journal);
  REQUIRE(journal);
  CHECK(journal->games.size() == 2);  // the two games before; the third is not journaled
  for (const JournalGame& g : journal->games) CHECK(g.termination != Termination::Disconnect);
}

TEST_CASE("what the engines' starts tell of the rules is said once per run, however often they start") {
  shogi::Position::init();
  TempDir dir("rule-notices");
  config::Config c = fake_config(config::TournamentType::Gauntlet, 3, 3, 2, dir.path);
  c.restart = config::RestartPolicy::Always;  // a fresh process for every game: many starts of each engine
  Script s(3);
  s.rule_notices = [](int e) {
    return game::Player::Notices{{"engine 'e" + std::to_string(e) + "': EnteringKingRule set to CSARule27"},
                                 {"engine 'e" + std::to_string(e) + "': MaxMovesToDraw is 0"}};
  };
  struct Said : Observer {
    void note(const std::string& text) override { notes.push_back(text); }
    void warning(const std::string& text) override { warnings.push_back(text); }
    std::vector<std::string> notes, warnings;
  } said;
  Run r = play_run(c, s, said);
  CHECK(r.result.end == RunEnd::Completed);
  int starts = 0;
  for (int n : s.starts) starts += n;
  CHECK(starts > 3);
  std::sort(said.notes.begin(), said.notes.end());
  std::sort(said.warnings.begin(), said.warnings.end());
  CHECK(said.notes == std::vector<std::string>{"engine 'e0': EnteringKingRule set to CSARule27",
                                               "engine 'e1': EnteringKingRule set to CSARule27",
                                               "engine 'e2': EnteringKingRule set to CSARule27"});
  CHECK(said.warnings == std::vector<std::string>{"engine 'e0': MaxMovesToDraw is 0", "engine 'e1': MaxMovesToDraw is 0",
                                                  "engine 'e2': MaxMovesToDraw is 0"});
}
