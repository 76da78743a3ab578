// The run core's end states for both kinds of run, a tournament and an SPSA tune, on the same scripted engines:
// completed, stopped by OUT/STOP (a shard), interrupted by a signal, and fatal (an engine that cannot start). And
// SPSA's sides get the tuner's values through the engines' seam before each game.
#include <doctest/doctest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <thread>

#include "journal/journal.h"
#include "journal/segments.h"
#include "journal/shard.h"
#include "rules/position.h"
#include "runner/run/fake_engines.h"
#include "spsa/run.h"
#include "support/temp_dir.h"
#include "tournament/tournament.h"

using namespace arena;
using arena::run::RunEnd;
using arena::run::testing::fake_config;
using arena::run::testing::fake_factory;
using arena::run::testing::Script;
using test_support::TempDir;
namespace fs = std::filesystem;

namespace {

std::vector<openings::Opening> some_openings() {
  return {{"startpos", "a"}, {"startpos moves 7g7f", "b"}, {"startpos moves 2g2f 8c8d", "c"}};
}

config::Config base_config(config::TournamentType type, int engines, const fs::path& out) {
  return fake_config(type, engines, 6, 2, out);
}

config::Config spsa_config(const fs::path& out, int64_t pairs) {
  config::Config c = base_config(config::TournamentType::Spsa, 1, out);
  stats::SpsaParam p;
  p.name = "X";
  p.integer = true;
  p.start = 50, p.min = 0, p.max = 100, p.c_end = 4, p.r_end = 0.002;
  c.spsa.params = {p};
  c.spsa.schedule.iterations = pairs;
  return c;
}

// The spin option the SPSA runs tune.
std::vector<usi::OptionSpec> x_option() { return {usi::OptionSpec{"X", usi::OptionType::Spin, "50", 0, 100, {}}}; }

// Raises the stop flag (as a signal would) after `after` of the kind's events.
class TournamentStop : public tournament::Observer {
 public:
  TournamentStop(std::atomic<bool>& flag, int64_t after) : flag_(flag), after_(after) {}
  void game_finished(const journal::JournaledGame&, const std::vector<std::string>&,
                     const standings::Tally& tally) override {
    if (tally.journaled() >= after_) flag_ = true;
  }

 private:
  std::atomic<bool>& flag_;
  int64_t after_;
};

class SpsaStop : public spsa::Observer {
 public:
  SpsaStop(std::atomic<bool>& flag, int64_t after) : flag_(flag), after_(after) {}
  void pair_finished(const journal::SpsaPair&, const journal::JournaledGame&, const journal::JournaledGame&,
                     const spsa::Progress& progress) override {
    if (progress.pairs_done >= after_) flag_ = true;
  }

 private:
  std::atomic<bool>& flag_;
  int64_t after_;
};

struct Ended {
  run::RunResult result;
  int64_t played = 0;
};

Ended run_tournament(const config::Config& c, Script& s, tournament::Observer& observer,
                       std::optional<journal::Shard> shard = {}, const std::atomic<bool>* stop = nullptr) {
  tournament::Tournament t(c, some_openings(), fake_factory(s), shard);
  auto opened = t.open(observer);
  REQUIRE_MESSAGE(opened, (opened ? "" : opened.error()));
  Ended o;
  o.result = t.run(observer, stop);
  o.played = t.games_played();
  return o;
}

Ended run_spsa(const config::Config& c, Script& s, spsa::Observer& observer,
                 std::optional<journal::Shard> shard = {}, const std::atomic<bool>* stop = nullptr) {
  spsa::Run r(c, some_openings(), fake_factory(s), shard);
  auto opened = r.open(observer);
  REQUIRE_MESSAGE(opened, (opened ? "" : opened.error()));
  Ended o;
  o.result = r.run(observer, stop);
  o.played = r.pairs_played();
  return o;
}

// OUT/STOP, as a coordinator writes it.
void write_stop_file(const fs::path& out) {
  fs::create_directories(out);
  std::ofstream(out / "STOP") << "decided\n";
}

}  // namespace

TEST_CASE("run core: a tournament ends completed, stopped by OUT/STOP, interrupted, or in error") {
  shogi::Position::init();
  TempDir dir("core-tournament");
  tournament::Observer quiet;

  SUBCASE("completed") {
    Script s(2);
    const Ended o = run_tournament(base_config(config::TournamentType::Gauntlet, 2, dir.path), s, quiet);
    CHECK(o.result.end == RunEnd::Completed);
    CHECK(o.played == 12);
    CHECK(s.live == 0);
  }
  SUBCASE("stopped by OUT/STOP: a shard starts no pair") {
    Script s(2);
    write_stop_file(dir.path);
    const Ended o = run_tournament(base_config(config::TournamentType::Gauntlet, 2, dir.path), s, quiet,
                                     journal::Shard{0, 2});
    CHECK(o.result.end == RunEnd::Stopped);
    CHECK(o.played == 0);
  }
  SUBCASE("interrupted by a signal") {
    Script s(2);
    s.think = std::chrono::milliseconds(5);
    std::atomic<bool> stop{false};
    TournamentStop observer(stop, 3);
    const Ended o =
        run_tournament(base_config(config::TournamentType::Gauntlet, 2, dir.path), s, observer, {}, &stop);
    CHECK(o.result.end == RunEnd::Interrupted);
    CHECK(o.played >= 3);
    CHECK(o.played < 12);
    CHECK(s.live == 0);
  }
  SUBCASE("fatal: an engine that never starts") {
    Script s(2);
    s.fail_start = [](int e, int) { return e == 1; };
    const Ended o = run_tournament(base_config(config::TournamentType::Gauntlet, 2, dir.path), s, quiet);
    CHECK(o.result.end == RunEnd::Error);
    CHECK(o.result.error.starts_with("e1: usi: no answer"));
  }
}

TEST_CASE("run core: an SPSA run ends completed, stopped by OUT/STOP, interrupted, or in error") {
  shogi::Position::init();
  TempDir dir("core-spsa");
  spsa::Observer quiet;

  SUBCASE("completed, each side sent its values before each game") {
    Script s(2);
    s.names = {"e0+", "e0-"};
    s.options = x_option();
    const Ended o = run_spsa(spsa_config(dir.path, 5), s, quiet);
    CHECK(o.result.end == RunEnd::Completed);
    CHECK(o.played == 5);
    CHECK(s.live == 0);
    // Two sides of two games a pair, each told X before its game.
    REQUIRE(s.options_sent.size() == 20);
    for (const game::OptionList& sent : s.options_sent) {
      REQUIRE(sent.size() == 1);
      CHECK(sent[0].first == "X");
      const int x = std::stoi(sent[0].second);
      CHECK(x >= 0);
      CHECK(x <= 100);
    }
    auto journal = journal::read_journal(dir.path / "journal.jsonl");
    REQUIRE(journal);
    CHECK(journal->spsa_pairs.size() == 5);
  }
  SUBCASE("stopped by OUT/STOP: a shard starts no pair and says Stopped, not Completed") {
    Script s(2);
    s.names = {"e0+", "e0-"};
    s.options = x_option();
    write_stop_file(dir.path);
    const Ended o = run_spsa(spsa_config(dir.path, 8), s, quiet, journal::Shard{0, 2});
    CHECK(o.result.end == RunEnd::Stopped);
    CHECK(o.played == 0);
  }
  SUBCASE("stopped by OUT/STOP while a shard waits for the coordinator's theta") {
    Script s(2);
    s.names = {"e0+", "e0-"};
    s.options = x_option();
    // Shard 0 of 2, one worker: pairs 1 and 3 need no theta; pair 5 waits for the coordinator to apply pair 1,
    // which it never does here. OUT/STOP appears 300 ms after pair 3, while pair 5 waits (the coordinator gave up
    // on the run). Without the check the wait ends only at the coordinator timeout, in an error.
    class StopFileSoonAfter : public spsa::Observer {
     public:
      explicit StopFileSoonAfter(fs::path out) : out_(std::move(out)) {}
      ~StopFileSoonAfter() override {
        if (writer_.joinable()) writer_.join();
      }
      void pair_finished(const journal::SpsaPair&, const journal::JournaledGame&, const journal::JournaledGame&,
                         const spsa::Progress& progress) override {
        if (progress.pairs_done == 2)
          writer_ = std::thread([out = out_] {
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            write_stop_file(out);
          });
      }

     private:
      fs::path out_;
      std::thread writer_;
    } observer(dir.path);
    config::Config c = spsa_config(dir.path, 12);
    c.concurrency = 1;
    c.spsa.coordinator_timeout_s = 5;
    const Ended o = run_spsa(c, s, observer, journal::Shard{0, 2});
    CHECK(o.result.end == RunEnd::Stopped);
    CHECK(o.played == 2);
  }
  SUBCASE("a runner failure in a game stops the run with it; the pair is not journaled") {
    Script s(2);
    s.names = {"e0+", "e0-"};
    s.options = x_option();
    s.runner_throws = [](int call) { return call == 3; };  // pair 2's first game
    config::Config c = spsa_config(dir.path, 6);
    c.concurrency = 1;
    const Ended o = run_spsa(c, s, quiet);
    CHECK(o.result.end == RunEnd::Error);
    CHECK(o.result.error == "runner error: scripted failure in game 3");
    CHECK(o.played == 1);
    auto journal = journal::read_journal(dir.path / "journal.jsonl");
    REQUIRE(journal);
    CHECK(journal->spsa_pairs.size() == 1);
  }
  SUBCASE("interrupted by a signal") {
    Script s(2);
    s.names = {"e0+", "e0-"};
    s.options = x_option();
    s.think = std::chrono::milliseconds(5);
    std::atomic<bool> stop{false};
    SpsaStop observer(stop, 2);
    const Ended o = run_spsa(spsa_config(dir.path, 40), s, observer, {}, &stop);
    CHECK(o.result.end == RunEnd::Interrupted);
    CHECK(o.played >= 2);
    CHECK(o.played < 40);
    CHECK(s.live == 0);
  }
  SUBCASE("fatal: the engine's option check cannot start it") {
    Script s(2);
    s.names = {"e0+", "e0-"};
    s.options = x_option();
    s.fail_start = [](int, int) { return true; };
    spsa::Run r(spsa_config(dir.path, 4), some_openings(), fake_factory(s));
    auto opened = r.open(quiet);
    REQUIRE_FALSE(opened);
    CHECK(opened.error().starts_with("usi: no answer"));
  }
  SUBCASE("fatal: a side that cannot be restarted stops the run") {
    Script s(2);
    s.names = {"e0+", "e0-"};
    s.options = x_option();
    // Started once for the option check and once by the worker; the first game's black (e0+) dies, and every
    // start after that fails: three in a row stop the run.
    s.crash = [](int call) { return call == 1; };
    s.fail_start = [](int e, int start) { return e == 0 && start > 2; };
    config::Config c = spsa_config(dir.path, 6);
    c.concurrency = 1;
    const Ended o = run_spsa(c, s, quiet);
    CHECK(o.result.end == RunEnd::Error);
    CHECK(o.result.error.starts_with("e0+: usi: no answer"));
  }
  SUBCASE("an option the engine lacks is named before any game") {
    Script s(2);
    s.names = {"e0+", "e0-"};
    spsa::Run r(spsa_config(dir.path, 4), some_openings(), fake_factory(s));
    auto opened = r.open(quiet);
    REQUIRE_FALSE(opened);
    CHECK(opened.error() == "parameter 'X': engine 'e0' has no option 'X' (it offers: none)");
  }
}

TEST_CASE("run core: both kinds write what provisioning found to the journal header, and resume on its clocks") {
  shogi::Position::init();
  TempDir dir("core-findings");
  tournament::Observer quiet_tournament;
  spsa::Observer quiet_spsa;
  auto with_findings = [](config::Config c, double factor) {
    c.sources.resize(c.engines.size());
    c.sources[0].git_repo = "/r";
    c.sources[0].git_ref = "dev";
    c.scale_tc = config::ScaleTc{1e6, ""};
    provision::Findings f;
    f.engines.resize(c.engines.size());
    f.engines[0] = {std::string(40, 'a'), true, std::string(64, 'b'), 4321};
    f.scaling = provision::ClockScaling{1e6 / factor, factor, {}};
    for (game::EngineConfig& e : c.engines) {
      f.scaling->written.push_back(e.time_control);  // as written: 1 s
      e.time_control.base_ms = int64_t(double(e.time_control.base_ms) * factor);
    }
    return std::pair{c, f};
  };
  auto header_of = [](const fs::path& journal) {
    auto contents = journal::read_journal(journal.string());
    REQUIRE(contents);
    REQUIRE(contents->header);
    return *contents->header;
  };
  auto check_header = [](const journal::JournalHeader& h, double factor) {
    REQUIRE(h.builds.size() == 1);
    CHECK(h.builds[0].engine == "e0");
    CHECK(h.builds[0].ref == "dev");
    CHECK(h.builds[0].commit == std::string(40, 'a'));
    CHECK(h.builds[0].dirty);
    CHECK(h.builds[0].bench == 4321);
    REQUIRE(h.scale_tc);
    CHECK(h.scale_tc->engine == "e0");
    CHECK(h.scale_tc->factor == factor);
    REQUIRE(h.identity);
    // The run is identified by the clock as written, not by the one this machine's speed gave.
    CHECK(h.identity->settings.find("\"tc\":\"1\"") != std::string::npos);
  };

  SUBCASE("a tournament") {
    Script s(2);
    auto [c, found] = with_findings(base_config(config::TournamentType::Gauntlet, 2, dir.path / "t"), 2);
    c.rounds = 2;
    {
      tournament::Tournament t(c, some_openings(), fake_factory(s));
      REQUIRE(t.open(quiet_tournament, found));
      CHECK(t.run(quiet_tournament, nullptr).end == RunEnd::Completed);
    }
    check_header(header_of(c.output.journal), 2);
    // Resumed on a machine twice as fast again: other clocks, the same run.
    auto [faster, found_faster] = with_findings(base_config(config::TournamentType::Gauntlet, 2, dir.path / "t"), 4);
    faster.rounds = 2;
    faster.resume = true;
    tournament::Tournament again(faster, some_openings(), fake_factory(s));
    auto opened = again.open(quiet_tournament, found_faster);
    CHECK_MESSAGE(opened, (opened ? "" : opened.error()));
  }
  SUBCASE("an SPSA run") {
    Script s(2);
    s.names = {"e0+", "e0-"};
    s.options = x_option();
    auto [c, found] = with_findings(spsa_config(dir.path / "s", 2), 2);
    spsa::Run r(c, some_openings(), fake_factory(s));
    REQUIRE(r.open(quiet_spsa, found));
    CHECK(r.run(quiet_spsa, nullptr).end == RunEnd::Completed);
    check_header(header_of(c.output.journal), 2);
  }
}
