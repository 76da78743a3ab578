#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "journal/journal.h"
#include "journal/run_identity.h"
#include "provision/bench.h"
#include "provision/git_build.h"
#include "provision/provision.h"

using namespace arena;
using provision::parse_bench_output;

TEST_CASE("bench output: the node count and speed as Stockfish, YaneuraOu and this project's engine print them") {
  // This project's engine.
  auto ours = parse_bench_output("info depth 9 nodes 12 nps 500\n\nTotal time (ms) : 933\nNodes searched: 975903\n"
                                 "Nodes/second: 1045983\n");
  REQUIRE(ours);
  CHECK(ours->nodes == 975903);
  CHECK(ours->nps == 1045983);
  // Stockfish / YaneuraOu: padded labels, on stderr after many info lines.
  auto padded = parse_bench_output("===========================\nTotal time (ms) : 2011\nNodes searched  : 2514331\n"
                                   "Nodes/second    : 1250289\n");
  REQUIRE(padded);
  CHECK(padded->nodes == 2514331);
  CHECK(padded->nps == 1250289);
  // A bare "nodes N" line counts; an info line's "nodes N ..." fragment does not.
  auto bare = parse_bench_output("info depth 3 nodes 77 time 5\nnodes 4242\nnps 1000\n");
  REQUIRE(bare);
  CHECK(bare->nodes == 4242);
  CHECK(bare->nps == 1000);
  // No speed printed: 0 (run_bench then divides by the wall time).
  CHECK(parse_bench_output("Nodes searched: 5\n")->nps == 0);
  // The last count wins (a bench of several positions prints a total at the end).
  CHECK(parse_bench_output("Nodes searched: 5\nNodes searched: 9\n")->nodes == 9);
  CHECK_FALSE(parse_bench_output("info depth 1 nodes 10 nps 20\nbestmove 7g7f\n"));
  CHECK_FALSE(parse_bench_output("Nodes searched: many\n"));
  CHECK_FALSE(parse_bench_output(""));
}

TEST_CASE("a time control scaled: clocks and movetime multiplied, in whole ms, node and depth limits kept") {
  auto tc = [](const char* t) { return *game::parse_time_control(t); };
  CHECK(provision::scaled(tc("10+0.1"), 2).to_string() == "20+0.2");
  CHECK(provision::scaled(tc("0+1b"), 0.5).to_string() == "0+0.5b");
  CHECK(provision::scaled(tc("60+10b"), 1.5).to_string() == "90+15b");
  CHECK(provision::scaled(tc("movetime=1"), 0.25).movetime_ms == 250);
  CHECK(provision::scaled(tc("0.001+0.001"), 0.01).base_ms == 1);  // never rounded to no time at all
  CHECK(provision::scaled(tc("nodes=1000"), 3).nodes == 1000);
  CHECK(provision::scaled(tc("depth=6"), 3).depth == 6);
}

TEST_CASE("the journal header keeps the builds and the time scaling, and older headers have neither") {
  journal::JournalHeader h;
  h.type = "sprt";
  h.engines = {"dev", "base"};
  h.games = 10;
  h.schedule = "s";
  h.builds = {{"dev", "/r", "feature", std::string(40, 'a'), true, 975903}, {"base", "", "", "", false, 12}};
  h.scale_tc = journal::TimeScale{1e6, "dev", 5e5, 2};
  const std::string line = journal::to_json(h);
  auto back = journal::parse_journal_header(line);
  REQUIRE(back);
  REQUIRE(back->builds.size() == 2);
  CHECK(back->builds[0].engine == "dev");
  CHECK(back->builds[0].repo == "/r");
  CHECK(back->builds[0].ref == "feature");
  CHECK(back->builds[0].commit == std::string(40, 'a'));
  CHECK(back->builds[0].dirty);
  CHECK(back->builds[0].bench == 975903);
  CHECK(back->builds[1].repo.empty());
  CHECK(back->builds[1].bench == 12);
  REQUIRE(back->scale_tc);
  CHECK(back->scale_tc->factor == 2);
  CHECK(back->scale_tc->measured_nps == 5e5);
  CHECK(back->scale_tc->engine == "dev");
  journal::JournalHeader old = h;
  old.builds.clear();
  old.scale_tc.reset();
  const std::string old_line = journal::to_json(old);
  CHECK(old_line.find("builds") == std::string::npos);
  auto old_back = journal::parse_journal_header(old_line);
  REQUIRE(old_back);
  CHECK(old_back->builds.empty());
  CHECK_FALSE(old_back->scale_tc);
}

TEST_CASE("prebuilt binaries: a shard plays the listed build, and refuses one whose digest changed") {
  const std::filesystem::path dir = "/tmp/shogi-arena-prebuilt-" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  const std::string bin = (dir / "eng").string();
  std::ofstream(bin) << "#!/bin/sh\n";
  config::Config c;
  c.engines.resize(2);
  c.engines[0].name = "dev";
  c.engines[1].name = "other";
  c.engines[1].command = "/bin/sh";
  c.sources.resize(2);
  c.sources[0].git_repo = "/r";
  c.sources[0].git_ref = "main";
  c.engines[0].command = bin;
  provision::Findings built;  // as build_git_engines finds them
  built.engines.resize(2);
  built.engines[0].commit = std::string(40, 'c');
  built.engines[0].sha256 = journal::sha256_file(bin).value();
  const std::string list = (dir / "prebuilt.tsv").string();
  std::ofstream(list) << provision::prebuilt_text(c, built);

  config::Config shard = c;
  shard.engines[0].command.clear();
  shard.prebuilt = list;
  std::ostringstream progress;
  auto found = provision::provision_engines(shard, progress);
  REQUIRE(found);
  CHECK(shard.engines[0].command == bin);
  REQUIRE(found->engines.size() == 2);
  CHECK(found->engines[0].commit == std::string(40, 'c'));
  CHECK(found->engines[0].sha256 == built.engines[0].sha256);
  CHECK(found->engines[1].commit.empty());
  CHECK(shard.engines[1].command == "/bin/sh");
  // The header records the git engine only (the other has no bench either).
  const auto builds = found->builds(shard);
  REQUIRE(builds.size() == 1);
  CHECK(builds[0].engine == "dev");
  CHECK(builds[0].ref == "main");
  CHECK(builds[0].commit == std::string(40, 'c'));

  std::ofstream(bin, std::ios::app) << "# rebuilt\n";
  config::Config changed = c;
  changed.prebuilt = list;
  auto refused = provision::provision_engines(changed, progress);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().find("engine 'dev': " + bin + " has sha256") == 0);

  std::ofstream(list) << "dev\tonly-three\tfields\n";
  auto broken = provision::provision_engines(changed, progress);
  REQUIRE_FALSE(broken);
  CHECK(broken.error() == list + ":1: expected NAME, COMMIT, DIRTY (0|1), SHA256, BINARY");

  // The list carries the digest taken at build time: a binary changed between the build and the list is refused
  // too (the list is not a fresh hash of whatever lies there now).
  std::ofstream(list) << provision::prebuilt_text(c, built);
  auto late = provision::provision_engines(changed, progress);
  REQUIRE_FALSE(late);
  CHECK(late.error().find("engine 'dev': " + bin + " has sha256") == 0);
  std::filesystem::remove_all(dir);
}

TEST_CASE("last lines of a log, for a one-line error") {
  const std::string path = "/tmp/shogi-arena-last-lines-" + std::to_string(::getpid());
  std::ofstream(path) << "a\n\nb\nc  \n\nd\n";
  CHECK(provision::last_lines(path, 3) == "b | c | d");
  CHECK(provision::last_lines(path, 10) == "a | b | c | d");
  CHECK(provision::last_lines("/nonexistent/log", 3).empty());
  std::filesystem::remove(path);
}

TEST_CASE("one engine with bench= and --scale-tc at one game at a time runs its bench once") {
  auto tc = [](const char* t) { return *game::parse_time_control(t); };
  const std::filesystem::path dir = "/tmp/shogi-arena-bench-once-" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  const std::string bin = (dir / "eng").string(), runs = (dir / "runs").string();
  std::ofstream(bin) << "#!/bin/sh\necho run >> " << runs << "\necho 'Nodes searched  : 5000'\n"
                     << "echo 'Nodes/second    : 250000'\n";
  std::filesystem::permissions(bin, std::filesystem::perms::owner_all);
  auto count_runs = [&] {
    std::ifstream in(runs);
    int n = 0;
    for (std::string line; std::getline(in, line);) ++n;
    return n;
  };
  config::Config c;
  c.concurrency = 1;
  c.engines.resize(1);
  c.engines[0].name = "dev";
  c.engines[0].command = bin;
  c.engines[0].time_control = tc("10+0.1");
  c.sources.resize(1);
  c.sources[0].bench = 5000;
  c.scale_tc = config::ScaleTc{};
  c.scale_tc->nps = 500000;
  const config::Config written = c;
  std::ostringstream progress;
  auto found = provision::provision_engines(c, progress);
  REQUIRE(found);
  CHECK(count_runs() == 1);
  REQUIRE(found->scaling);
  CHECK(found->scaling->measured_nps == 250000);
  CHECK(found->scaling->factor == 2);
  CHECK(c.engines[0].time_control.to_string() == "20+0.2");
  REQUIRE(found->written_time_controls().size() == 1);
  CHECK(found->written_time_controls()[0].to_string() == "10+0.1");
  CHECK(found->engines[0].bench_nodes == 5000);
  // The header: the scaling with its reference engine, and the bench checked; the identity is the written clock's.
  const auto scale = found->time_scale(c);
  REQUIRE(scale);
  CHECK(scale->engine == "dev");
  CHECK(scale->nps == 500000);
  CHECK(found->builds(c).size() == 1);
  CHECK(journal::make_run_identity(c, found->written_time_controls())->settings ==
        journal::make_run_identity(written)->settings);
  CHECK(journal::make_run_identity(c)->settings != journal::make_run_identity(written)->settings);

  // Two games at once: the speed is measured under that load, by benches of its own.
  std::filesystem::remove(runs);
  config::Config two = written;
  two.concurrency = 2;
  REQUIRE(provision::provision_engines(two, progress));
  const int hardware = int(std::max(1u, std::thread::hardware_concurrency()));
  CHECK(count_runs() == 1 + std::min(2, hardware));
  std::filesystem::remove_all(dir);
}
