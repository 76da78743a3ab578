// Configuration: the YAML form, the command-line form, their precedence, and the errors (file:line:key).
#include <doctest/doctest.h>
#include <CLI/CLI.hpp>

#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "config/cli_config.h"
#include "config/engine_keys.h"
#include "config/load.h"
#include "config/values.h"
#include "support/temp_dir.h"

using namespace arena::config;
namespace fs = std::filesystem;
using test_support::TempDir;

namespace {

// The message of the ConfigError that `f` throws, or "" if it throws none.
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return {};
}

ConfigDraft from_yaml(const std::string& text, const std::string& name = "test.yaml") {
  ConfigDraft d;
  apply_yaml_text(text, name, "/base", d);
  return d;
}

// A temporary directory removed at the end of the test.
Config parse_cli(std::vector<std::string> args, std::optional<TournamentType> type) {
  CLI::App app;
  CliOptions options;
  options.add_to(app, type);
  std::vector<const char*> argv = {"test"};
  for (const std::string& a : args) argv.push_back(a.c_str());
  app.parse(int(argv.size()), argv.data());
  return options.build();
}

const char* FULL = R"(# every section
tournament: roundrobin
event: nightly
rounds: 7
concurrency: 3
engines:
  - name: alpha
    cmd: sh
    args: [-c, "exit 0"]
    options:
      USI_Hash: 64
      Threads: 1
    tc: 10+0.1
  - name: beta
    cmd: ./bin/beta
    tc: 0+1b
    ponder: true
    send_inc: false
    swap_btime_wtime: true
    startup_timeout_ms: 60000
  - name: gamma
    cmd: sh
each:
  tc: 5+0.05
  options: {USI_Hash: 16, MultiPV: 1}
openings:
  file: ../openings/x.sfen
  order: random
  seed: 42
  plies: 12
game:
  max_plies: 320
  margin_ms: 50
  stall_timeout_ms: 2000
  entering_king: 24
adjudication:
  resign: {score: 2500, moves: 3}
  draw: off
output:
  dir: out
  kifu: [csa, kif]
  engine_logs: false
restart: always
replay_broken_pairs: false
max_replays: 2
quiet: true
json: true
sprt: {elo0: -1, elo1: 4, alpha: 0.1, beta: 0.2, model: logistic}
)";

}  // namespace

TEST_CASE("a YAML file with every section") {
  ConfigDraft d = from_yaml(FULL);
  const Config& c = d.config;
  CHECK(d.file_type == TournamentType::RoundRobin);
  CHECK(c.game.event == "nightly");
  CHECK(c.rounds == 7);
  CHECK(c.concurrency == 3);
  REQUIRE(d.file_engines.size() == 3);
  CHECK(*d.file_engines[0].name == "alpha");
  CHECK(*d.file_engines[0].cmd == "sh");  // bare names are looked up on PATH later
  CHECK(*d.file_engines[0].args == std::vector<std::string>{"-c", "exit 0"});
  CHECK(d.file_engines[0].options.size() == 2);
  CHECK(*d.file_engines[1].cmd == "/base/bin/beta");  // relative to the file's directory
  CHECK(d.file_engines[1].tc->byoyomi_ms == 1000);
  CHECK(*d.file_engines[1].ponder);
  CHECK(d.file_engines[1].send_inc == false);
  CHECK_FALSE(d.file_engines[0].send_inc.has_value());
  CHECK(d.file_engines[1].swap_btime_wtime == true);
  CHECK(*d.file_engines[1].startup_timeout_ms == 60000);
  CHECK(d.file_each.tc->base_ms == 5000);
  CHECK(c.openings.file == "/openings/x.sfen");
  CHECK(c.openings.order == OpeningOrder::Random);
  CHECK(c.openings.seed == 42);
  CHECK(c.openings.plies == 12);
  CHECK(c.game.max_plies == 320);
  CHECK(c.game.margin_ms == 50);
  CHECK(c.game.stall_timeout_ms == 2000);
  CHECK(c.game.entering_king == shogi::EnteringKingRule::Point24);
  CHECK(c.game.adjudication.resign_enabled);
  CHECK(c.game.adjudication.resign_score_cp == 2500);
  CHECK(c.game.adjudication.resign_moves == 3);
  CHECK_FALSE(c.game.adjudication.draw_enabled);
  CHECK(c.output.dir == "/base/out");
  CHECK(c.output.csa);
  CHECK(c.output.kif);
  CHECK_FALSE(c.output.engine_logs);
  CHECK(c.restart == RestartPolicy::Always);
  CHECK_FALSE(c.replay_broken_pairs);
  CHECK(c.max_replays == 2);
  CHECK(c.quiet);
  CHECK(c.json);
  CHECK(c.sprt.elo0 == -1);
  CHECK(c.sprt.elo1 == 4);
  CHECK(c.sprt.alpha == doctest::Approx(0.1));
  CHECK(c.sprt.model == arena::stats::EloModel::Logistic);

  // Finalized: each's settings under the engines', the engine's own tc winning, options merged by name.
  d.file_engines[1].cmd = "sh";  // /base/bin/beta does not exist
  Config f = finalize(std::move(d), std::nullopt);
  REQUIRE(f.engines.size() == 3);
  CHECK(f.type == TournamentType::RoundRobin);
  CHECK(f.engines[0].command.ends_with("/sh"));
  CHECK(f.engines[0].time_control.base_ms == 10000);
  CHECK(f.engines[2].time_control.base_ms == 5000);
  const auto& opts = f.engines[0].options;
  REQUIRE(opts.size() == 3);
  CHECK(opts[0] == std::pair<std::string, std::string>{"USI_Hash", "64"});
  CHECK(opts[1] == std::pair<std::string, std::string>{"MultiPV", "1"});
  CHECK(opts[2] == std::pair<std::string, std::string>{"Threads", "1"});
  CHECK(f.output.journal == "/base/out/journal.jsonl");
}

TEST_CASE("config errors name the file, the line and the key") {
  SUBCASE("a directory given as the config") {
    TempDir dir("config-dir");
    ConfigDraft d;
    std::string e = error_of([&] { apply_yaml_file(dir.path.string(), d); });
    CHECK(e == dir.path.string() + ": a directory, not a config file");
  }
  SUBCASE("SPRT bounds: the key once, then what is wrong") {
    std::string e = error_of([] { from_yaml("sprt:\n  alpha: 1.5\n", "configs/x.yaml"); });
    CHECK(e.find("sprt: alpha = 1.5 but it must be between 0 and 1") != std::string::npos);
    CHECK(e.find("sprt: sprt:") == std::string::npos);
  }
  SUBCASE("a typo in a top-level key") {
    std::string e = error_of([] { from_yaml("rounds: 2\nconcurency: 4\n", "configs/x.yaml"); });
    CHECK(e.starts_with("configs/x.yaml:2:1: "));
    CHECK(e.find("unknown key 'concurency'") != std::string::npos);
    CHECK(e.find("did you mean 'concurrency'?") != std::string::npos);
  }
  SUBCASE("a typo inside an engine") {
    std::string e = error_of([] { from_yaml("engines:\n  - name: a\n    cmd: sh\n    optoins: {X: 1}\n"); });
    CHECK(e.starts_with("test.yaml:4:5: "));
    CHECK(e.find("engines[0].optoins") != std::string::npos);
    CHECK(e.find("did you mean 'options'?") != std::string::npos);
  }
  SUBCASE("a value of the wrong kind") {
    std::string e = error_of([] { from_yaml("game:\n  max_plies: many\n"); });
    CHECK(e.starts_with("test.yaml:2:14: game.max_plies: expected an integer"));
    CHECK(e.find("\"many\"") != std::string::npos);
  }
  SUBCASE("a bad time control") {
    std::string e = error_of([] { from_yaml("each:\n  tc: ten\n"); });
    CHECK(e.starts_with("test.yaml:2:7: each.tc: "));
  }
  SUBCASE("a bad enum value") {
    std::string e = error_of([] { from_yaml("openings:\n  order: shuffled\n"); });
    CHECK(e.starts_with("test.yaml:2:10: openings.order: expected sequential or random"));
  }
  SUBCASE("an odd number of games") {
    std::string e = error_of([] { from_yaml("games: 7\n"); });
    CHECK(e.starts_with("test.yaml:1:8: games: expected an even number"));
  }
  SUBCASE("a key given twice") {
    std::string e = error_of([] { from_yaml("rounds: 1\nrounds: 2\n"); });
    CHECK(e.starts_with("test.yaml:2:1: rounds: the key is given twice"));
  }
  SUBCASE("a list where a map belongs") {
    std::string e = error_of([] { from_yaml("game: [1, 2]\n"); });
    CHECK(e.starts_with("test.yaml:1:7: game: expected a map"));
  }
  SUBCASE("bad SPRT bounds") {
    std::string e = error_of([] { from_yaml("sprt:\n  elo0: 5\n  elo1: 0\n"); });
    CHECK(e.starts_with("test.yaml:2:3: sprt: "));
  }
  SUBCASE("not YAML at all") {
    std::string e = error_of([] { from_yaml("rounds: 1\nengines: [a, b\n"); });
    CHECK(e.starts_with("test.yaml:"));
    CHECK(e.find("not valid YAML") != std::string::npos);
  }
  SUBCASE("an empty file") {
    std::string e = error_of([] { from_yaml(""); });
    CHECK(e.find("the file is empty") != std::string::npos);
  }
}

TEST_CASE("finalize checks the engines") {
  auto finalize_yaml = [](const std::string& text, std::optional<TournamentType> type = TournamentType::Gauntlet) {
    return finalize(from_yaml(text), type);
  };
  SUBCASE("missing cmd names the engine entry") {
    std::string e = error_of([&] { finalize_yaml("engines:\n  - {name: a, tc: 1}\n  - {name: b, cmd: sh, tc: 1}\n"); });
    CHECK(e.starts_with("test.yaml:2:5: engines[0]: the engine has no cmd"));
  }
  SUBCASE("a command that is not there names the cmd key") {
    std::string e = error_of([&] {
      finalize_yaml("engines:\n  - {name: a, cmd: sh, tc: 1}\n  - name: b\n    cmd: no-such-engine-xyz\n    tc: 1\n");
    });
    CHECK(e.starts_with("test.yaml:4:10: engines[1].cmd: engine command 'no-such-engine-xyz' was not found"));
  }
  SUBCASE("duplicate names") {
    std::string e = error_of([&] { finalize_yaml("each: {tc: 1}\nengines:\n  - {cmd: sh}\n  - {cmd: sh}\n"); });
    CHECK(e.find("test.yaml:4:5: engines[1]: two engines are named 'sh'") == 0);
  }
  SUBCASE("no time control") {
    std::string e = error_of([&] { finalize_yaml("engines:\n  - {name: a, cmd: sh}\n  - {name: b, cmd: sh}\n"); });
    CHECK(e.find("engine 'a' has no time control") != std::string::npos);
  }
  SUBCASE("engine counts") {
    const char* three = "each: {tc: 1, cmd: sh}\nengines:\n  - {name: a}\n  - {name: b}\n  - {name: c}\n";
    CHECK(error_of([&] { finalize_yaml(three, TournamentType::Sprt); }).find("sprt needs exactly 2 engines") == 0);
    CHECK(error_of([&] { finalize_yaml(three, TournamentType::RoundRobin); }).empty());
    CHECK(error_of([&] {
            finalize_yaml("each: {tc: 1, cmd: sh}\nengines:\n  - {name: a}\n");
          }).find("gauntlet needs at least 2 engines") == 0);
  }
  SUBCASE("the file's type must agree with the subcommand") {
    std::string e =
        error_of([&] { finalize_yaml("tournament: sprt\neach: {tc: 1, cmd: sh}\nengines: [{name: a}, {name: b}]\n"); });
    CHECK(e.starts_with("test.yaml:1:13: tournament: the file is a sprt config but the command is 'gauntlet'"));
  }
  SUBCASE("no type at all") {
    CHECK(error_of([&] {
            finalize_yaml("each: {tc: 1, cmd: sh}\nengines: [{name: a}, {name: b}]\n", std::nullopt);
          }).find("no tournament type") == 0);
  }
}

TEST_CASE("engine tokens from the command line") {
  EngineSettings e = parse_engine_tokens(
      {"cmd=./dev", "name=dev", "option.USI_Hash=256", "option.Eval Dir=a b", "tc=10+0.1", "ponder", "arg=-x",
       "arg=--y", "startup_timeout_ms=5000", "send_inc=false", "swap_btime_wtime=yes", "margin_ms=450"},
      "--engine #1", "/work");
  CHECK(*e.cmd == "/work/dev");
  CHECK(*e.name == "dev");
  REQUIRE(e.options.size() == 2);
  CHECK(e.options[1] == std::pair<std::string, std::string>{"Eval Dir", "a b"});
  CHECK(e.tc->base_ms == 10000);
  CHECK(e.tc->increment_ms == 100);
  CHECK(*e.ponder);
  CHECK(*e.args == std::vector<std::string>{"-x", "--y"});
  CHECK(*e.startup_timeout_ms == 5000);
  CHECK(*e.margin_ms == 450);
  CHECK(e.send_inc == false);
  CHECK(e.swap_btime_wtime == true);

  CHECK(error_of([] {
          parse_engine_tokens({"cmd=a", "hash=1"}, "--engine #2", "");
        }).starts_with("--engine #2: 'hash=1': unknown key 'hash'"));
  CHECK(error_of([] { parse_engine_tokens({"tc=fast"}, "--each", ""); }).starts_with("--each: 'tc=fast': "));
  CHECK(error_of([] { parse_engine_tokens({"margin_ms=-5"}, "--each", ""); }).starts_with("--each: 'margin_ms=-5': "));
  CHECK(error_of([] {
          parse_engine_tokens({"ponder=maybe"}, "--each", "");
        }).starts_with("--each: 'ponder=maybe': expected true or false"));
}

TEST_CASE("precedence: file each < file engine < --each < --engine") {
  TempDir dir;
  const std::string file = dir.file("c.yaml",
                                    "each:\n  tc: 1+0\n  options: {A: each-file, B: each-file}\n"
                                    "engines:\n"
                                    "  - {name: x, cmd: sh, tc: 2+0, options: {A: engine-file}}\n"
                                    "  - {name: y, cmd: sh}\n"
                                    "rounds: 3\nconcurrency: 1\n");
  SUBCASE("--each overrides the file's engines") {
    Config c = parse_cli({"--config", file, "--each", "tc=3+0", "option.B=each-cli"}, TournamentType::Gauntlet);
    REQUIRE(c.engines.size() == 2);
    CHECK(c.engines[0].send_increments);  // the default: binc/winc are sent, btime is sente's
    CHECK_FALSE(c.engines[0].swap_btime_wtime);
    CHECK(c.engines[0].time_control.base_ms == 3000);
    CHECK(c.engines[1].time_control.base_ms == 3000);
    CHECK(c.engines[0].options ==
          std::vector<std::pair<std::string, std::string>>{{"A", "engine-file"}, {"B", "each-cli"}});
    CHECK(c.rounds == 3);
    CHECK(c.concurrency == 1);
  }
  SUBCASE("--engine replaces the file's engine list; the file's each still applies") {
    Config c = parse_cli({"--config", file, "--engine", "cmd=sh", "name=p", "option.A=engine-cli", "--engine", "cmd=sh",
                          "name=q", "tc=4+0", "send_inc=false", "swap_btime_wtime=true", "--rounds", "5"},
                         TournamentType::Gauntlet);
    REQUIRE(c.engines.size() == 2);
    CHECK(c.engines[0].send_increments);
    CHECK_FALSE(c.engines[1].send_increments);
    CHECK_FALSE(c.engines[0].swap_btime_wtime);
    CHECK(c.engines[1].swap_btime_wtime);
    CHECK(c.engines[0].name == "p");
    CHECK(c.engines[0].time_control.base_ms == 1000);
    CHECK(c.engines[1].time_control.base_ms == 4000);
    CHECK(c.engines[0].options ==
          std::vector<std::pair<std::string, std::string>>{{"A", "engine-cli"}, {"B", "each-file"}});
    CHECK(c.rounds == 5);
  }
  SUBCASE("command-line settings override the file's") {
    Config c = parse_cli({"--config", file, "--concurrency", "6", "--max-plies", "100", "--kifu", "none", "--openings",
                          "file=o.sfen", "order=random", "seed=9", "--sprt", "elo0=0", "elo1=3", "--resign",
                          "score=900", "moves=2"},
                         TournamentType::Sprt);
    CHECK(c.concurrency == 6);
    CHECK(c.game.max_plies == 100);
    CHECK_FALSE(c.output.csa);
    CHECK_FALSE(c.output.kif);
    CHECK(c.openings.order == OpeningOrder::Random);
    CHECK(c.openings.seed == 9);
    CHECK(c.sprt.elo1 == 3);
    CHECK(c.game.adjudication.resign_enabled);
    CHECK(c.game.adjudication.resign_score_cp == 900);
    CHECK(c.rounds == 3);  // the file's rounds are the SPRT's maximum
  }
  SUBCASE("an adjudication key without its value") {
    CHECK(error_of([&] { parse_cli({"--config", file, "--resign", "score"}, TournamentType::Gauntlet); })
              .starts_with("--resign: 'score' needs a value: score=N"));
    CHECK(error_of([&] { parse_cli({"--config", file, "--draw", "min_ply"}, TournamentType::Gauntlet); })
              .starts_with("--draw: 'min_ply' needs a value: min_ply=N"));
  }
  SUBCASE("opening settings that would apply to nothing, or contradict each other") {
    CHECK(error_of([&] {
            parse_cli({"--config", file, "--openings", "order=random"}, TournamentType::Gauntlet);
          }) == "openings: order=random needs a file of openings (file=PATH)");
    CHECK(error_of([&] {
            parse_cli({"--config", file, "--openings", "balance=50"}, TournamentType::Gauntlet);
          }) == "openings: eval_window and balance are for a YaneuraOu book (file=PATH)");
    CHECK(error_of([&] {
            parse_cli({"--config", file, "--openings", "file=o.sfen", "--position", "startpos"},
                      TournamentType::Gauntlet);
          }).starts_with("--position: contradicts --openings file=: give one of them"));
  }
  SUBCASE("a typo in a file given with --config") {
    const std::string bad = dir.file("bad.yaml", "rounds: 3\nengines:\n  - {name: x, cmd: sh}\nopenigs: {}\n");
    std::string e = error_of([&] { parse_cli({"--config", bad}, TournamentType::Gauntlet); });
    CHECK(e.starts_with(bad + ":4:1: unknown key 'openigs' (did you mean 'openings'?)"));
  }
  SUBCASE("bad command-line values name the option") {
    CHECK(error_of([&] {
            parse_cli({"--config", file, "--rounds", "0"}, TournamentType::Gauntlet);
          }).starts_with("--rounds: expected an integer from 1 to 100000000, got 0"));
    CHECK(error_of([&] {
            parse_cli({"--config", file, "--openings", "order=sideways"}, TournamentType::Gauntlet);
          }).starts_with("--openings order: expected sequential or random"));
    CHECK(error_of([&] {
            parse_cli({"--config", file, "--sprt", "elo0=3", "elo1=1"}, TournamentType::Sprt);
          }).starts_with("sprt: "));
  }
}

TEST_CASE("more games at once than hardware threads is warned about") {
  CHECK(oversubscription_warning(2, 2).empty());
  CHECK(oversubscription_warning(1, 8).empty());
  const std::string w = oversubscription_warning(6, 2);
  CHECK(w.starts_with("concurrency 6 is more than the 2 CPUs this runner may use"));
  CHECK(oversubscription_warning(default_concurrency(), default_concurrency()).empty());
}

TEST_CASE("the default concurrency is the CPUs given to the runner, not the machine's") {
  const int all = default_concurrency();
  // SLURM_CPUS_PER_TASK caps it (a Slurm task may see the node's whole affinity mask).
  ::setenv("SLURM_CPUS_PER_TASK", "1", 1);
  CHECK(default_concurrency() == 1);
  ::setenv("SLURM_CPUS_PER_TASK", "1000000", 1);  // never more than the mask
  CHECK(default_concurrency() == all);
  ::setenv("SLURM_CPUS_PER_TASK", "two", 1);  // not a number: ignored
  CHECK(default_concurrency() == all);
  ::unsetenv("SLURM_CPUS_PER_TASK");
  // The affinity mask (taskset, a cpuset): this thread limited to one CPU.
  cpu_set_t saved, one;
  REQUIRE(::sched_getaffinity(0, sizeof saved, &saved) == 0);
  CPU_ZERO(&one);
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &saved)) {
      CPU_SET(cpu, &one);
      break;
    }
  REQUIRE(::sched_setaffinity(0, sizeof one, &one) == 0);
  CHECK(default_concurrency() == 1);
  REQUIRE(::sched_setaffinity(0, sizeof saved, &saved) == 0);
  CHECK(default_concurrency() == all);
  // A container's CPU limit (cgroup v2 cpu.max).
  CHECK(cpus_of_cpu_max("200000 100000\n") == 2);
  CHECK(cpus_of_cpu_max("150000 100000") == 2);
  CHECK(cpus_of_cpu_max("50000 100000") == 1);
  CHECK_FALSE(cpus_of_cpu_max("max 100000\n"));
  CHECK_FALSE(cpus_of_cpu_max(""));
}

TEST_CASE("defaults") {
  Config c = parse_cli({"--engine", "cmd=sh", "name=a", "tc=1", "--engine", "cmd=sh", "name=b", "tc=1"},
                       TournamentType::Gauntlet);
  CHECK(c.concurrency == default_concurrency());
  CHECK(c.rounds == 1);
  CHECK(c.output.journal == (fs::current_path() / "shogi-arena-out" / "journal.jsonl").lexically_normal().string());
  CHECK(c.replay_broken_pairs);
  CHECK(c.restart == RestartPolicy::OnCrash);
  Config s =
      parse_cli({"--engine", "cmd=sh", "name=a", "tc=1", "--engine", "cmd=sh", "name=b", "tc=1"}, TournamentType::Sprt);
  CHECK(s.rounds == 50000);  // an SPRT's default maximum
  Config p =
      parse_cli({"--engine", "cmd=sh", "name=a", "tc=1", "--engine", "cmd=sh", "name=b", "tc=1"}, TournamentType::Play);
  CHECK(p.concurrency == 1);
  CHECK_FALSE(p.pair);
}

TEST_CASE("via_csa_server: off by default, on from YAML or --via-csa-server, and a bad value names the line") {
  Config c = parse_cli({"--engine", "cmd=sh", "name=a", "tc=1", "--engine", "cmd=sh", "name=b", "tc=1"},
                       TournamentType::Gauntlet);
  CHECK_FALSE(c.via_csa_server);
  Config v =
      parse_cli({"--via-csa-server", "--engine", "cmd=sh", "name=a", "tc=1", "--engine", "cmd=sh", "name=b", "tc=1"},
                TournamentType::Gauntlet);
  CHECK(v.via_csa_server);
  CHECK(from_yaml("via_csa_server: true\n").config.via_csa_server);
  const std::string e = error_of([] { from_yaml("games: 2\nvia_csa_server: maybe\n"); });
  CHECK(e.find("test.yaml:2") != std::string::npos);
  CHECK(e.find("via_csa_server") != std::string::npos);
}

TEST_CASE("web: off by default, an address from YAML or --web (the command line wins), a bad one names the line") {
  Config c = parse_cli({"--engine", "cmd=sh", "name=a", "tc=1", "--engine", "cmd=sh", "name=b", "tc=1"},
                       TournamentType::Gauntlet);
  CHECK(c.web.empty());
  CHECK(from_yaml("web: 127.0.0.1:8080\n").config.web == "127.0.0.1:8080");
  Config w =
      parse_cli({"--web", "9000", "--engine", "cmd=sh", "name=a", "tc=1", "--engine", "cmd=sh", "name=b", "tc=1"},
                TournamentType::Gauntlet);
  CHECK(w.web == "9000");
  const std::string e = error_of([] { from_yaml("games: 2\nweb: 127.0.0.1:http\n"); });
  CHECK(e.find("test.yaml:2") != std::string::npos);
  CHECK(e.find("expected a port from 0 to 65535, got 'http'") != std::string::npos);
  const std::string cli = error_of([] {
    parse_cli({"--web", "::1:80", "--engine", "cmd=sh", "name=a", "tc=1", "--engine", "cmd=sh", "name=b", "tc=1"},
              TournamentType::Gauntlet);
  });
  CHECK(cli == "--web: '::1:80': write an IPv6 address in brackets, e.g. [::1]:8080");
  // off: no page, whatever the file says (the shards of a Slurm run are started with it).
  CHECK(from_yaml("web: off\n").config.web.empty());
  TempDir dir;
  const std::string file = dir.file("w.yaml",
                                    "web: 127.0.0.1:8080\nengines:\n  - {name: x, cmd: sh, tc: 1+0}\n"
                                    "  - {name: y, cmd: sh, tc: 1+0}\n");
  CHECK(parse_cli({"--config", file}, TournamentType::Gauntlet).web == "127.0.0.1:8080");
  CHECK(parse_cli({"--config", file, "--web", "off"}, TournamentType::Gauntlet).web.empty());
  auto loopback = parse_listen_address("8080", 4081);
  REQUIRE(loopback);
  CHECK(loopback->host == "127.0.0.1");
  CHECK(loopback->port == 8080);
  auto v6 = parse_listen_address("[::1]", 8080);
  REQUIRE(v6);
  CHECK(v6->host == "::1");
  CHECK(v6->port == 8080);
  CHECK_FALSE(parse_listen_address(":80", 8080));
  CHECK_FALSE(parse_listen_address("", 8080));
}

TEST_CASE("a switch the file turns on is turned off by its --no- form or =false; left out, the file's value stands") {
  TempDir dir;
  const std::string file = dir.file("on.yaml",
                                    "via_csa_server: true\nquiet: true\njson: true\n"
                                    "engines:\n  - {name: x, cmd: sh, tc: 1}\n  - {name: y, cmd: sh, tc: 1}\n");
  Config kept = parse_cli({"--config", file}, TournamentType::Gauntlet);
  CHECK(kept.via_csa_server);
  CHECK(kept.quiet);
  CHECK(kept.json);
  Config off =
      parse_cli({"--config", file, "--no-via-csa-server", "--no-quiet", "--json=false"}, TournamentType::Gauntlet);
  CHECK_FALSE(off.via_csa_server);
  CHECK_FALSE(off.quiet);
  CHECK_FALSE(off.json);
  // The last of the two forms wins, as for any repeated option.
  Config last = parse_cli({"--config", file, "--no-quiet", "--quiet"}, TournamentType::Gauntlet);
  CHECK(last.quiet);
}

TEST_CASE("engine keys: the help, the error and the YAML keys come from one table") {
  const std::string usage = engine_tokens_usage(InTournament);
  CHECK(usage.starts_with("cmd=PATH [name=NAME] [option.NAME=VALUE ...] [params=FILE] [tc=10+0.1] [ponder]"));
  CHECK(usage.find("quit_grace_ms") == std::string::npos);  // the CSA client's own
  const std::string csa = engine_tokens_usage(InCsaClient);
  CHECK(csa.find("tc=") == std::string::npos);
  CHECK(csa.find("[io_log=FILE]") != std::string::npos);
  // Every key of the table is in the help and in the error of the places it serves.
  for (const EngineKey& k : engine_keys()) {
    for (EngineKeyPlace place : {InTournament, InCsaClient}) {
      if (!(k.places & place)) continue;
      CAPTURE(k.key);
      CHECK(engine_tokens_usage(place).find(k.key) != std::string::npos);
      CHECK(engine_tokens_expected(place).find(k.key) != std::string::npos);
    }
  }
  auto each = engine_yaml_keys(InTournament, false);
  auto named = engine_yaml_keys(InTournament, true);
  CHECK(std::find(each.begin(), each.end(), "name") == each.end());
  CHECK(std::find(named.begin(), named.end(), "name") != named.end());
  CHECK(std::find(named.begin(), named.end(), "options") != named.end());
  CHECK(std::find(named.begin(), named.end(), "arg") == named.end());  // YAML writes a list under args
}

TEST_CASE("engine keys: every YAML key of an engine entry is read, and the same value as a token gives the same") {
  const TempDir temp("engine-keys");
  const std::string dir = temp.path.string();
  std::filesystem::create_directories(dir + "/work");
  const std::string yaml = dir + "/k.yaml";
  std::ofstream(yaml)
      << "tournament: gauntlet\nengines:\n  - name: a\n    cmd: /bin/sh\n    args: [-c, 'x y']\n"
         "    dir: work\n    options: {USI_Hash: 64}\n    tc: 5+0.5\n    ponder: true\n"
         "    send_inc: false\n    swap_btime_wtime: true\n    startup_timeout_ms: 2500\n    margin_ms: 700\n";
  ConfigDraft from_yaml;
  apply_yaml_file(yaml, from_yaml);
  REQUIRE(from_yaml.file_engines.size() == 1);
  const EngineSettings& y = from_yaml.file_engines[0];
  EngineSettings t = parse_engine_tokens(
      {"name=a", "cmd=/bin/sh", "arg=-c", "arg=x y", "dir=work", "option.USI_Hash=64", "tc=5+0.5", "ponder",
       "send_inc=false", "swap_btime_wtime=true", "startup_timeout_ms=2500", "margin_ms=700"},
      "--engine #1", dir);
  CHECK(*y.name == *t.name);
  CHECK(*y.cmd == *t.cmd);
  CHECK(*y.args == *t.args);
  CHECK(*y.dir == dir + "/work");
  CHECK(*t.dir == dir + "/work");
  CHECK(y.options == t.options);
  CHECK(y.tc->to_string() == t.tc->to_string());
  CHECK(*y.ponder == *t.ponder);
  CHECK(*y.send_inc == *t.send_inc);
  CHECK(*y.swap_btime_wtime == *t.swap_btime_wtime);
  CHECK(*y.startup_timeout_ms == *t.startup_timeout_ms);
  CHECK(*y.margin_ms == 700);
  CHECK(*t.margin_ms == 700);
  // The YAML path accepts exactly the table's keys: one the table does not know is refused with the list.
  std::ofstream(yaml) << "tournament: gauntlet\nengines:\n  - name: a\n    quit_grace_ms: 10\n";
  ConfigDraft refused;
  CHECK(error_of([&] {
          apply_yaml_file(yaml, refused);
        }).find("unknown key 'engines[0].quit_grace_ms'; expected one of: cmd, name, options, params, tc,") !=
        std::string::npos);
}

TEST_CASE("engine keys: params=FILE sets each line's start as an option; later keys win") {
  const TempDir temp("params-key");
  const std::string dir = temp.path.string();
  // An SPSA run's tuned.params (theta as START) and fishtest's untyped form; a float parameter keeps its fraction.
  std::ofstream(dir + "/tuned.params") << "# tuned\nLmrScale,int,221,150,300,8,0.02\nNmpBase,-3,-5,10,1\n"
                                          "Scale,0.75,0.5,1.5,0.05\n";
  EngineSettings e =
      parse_engine_tokens({"cmd=./e", "params=tuned.params", "option.NmpBase=4"}, "--engine #1", dir);
  REQUIRE(e.options.size() == 4);
  CHECK(e.options[0] == std::pair<std::string, std::string>{"LmrScale", "221"});
  CHECK(e.options[1] == std::pair<std::string, std::string>{"NmpBase", "-3"});
  CHECK(e.options[2] == std::pair<std::string, std::string>{"Scale", "0.75"});
  arena::game::EngineConfig engine;
  apply_engine_settings(e, engine);
  REQUIRE(engine.options.size() == 3);
  CHECK(engine.options[1] == std::pair<std::string, std::string>{"NmpBase", "4"});  // the later key
  // The same from YAML, the path taken against the file's folder.
  std::ofstream(dir + "/p.yaml") << "tournament: gauntlet\nengines:\n  - name: a\n    cmd: /bin/sh\n"
                                    "    params: tuned.params\n";
  ConfigDraft from_yaml;
  apply_yaml_file(dir + "/p.yaml", from_yaml);
  REQUIRE(from_yaml.file_engines.size() == 1);
  CHECK(from_yaml.file_engines[0].options.size() == 3);
  // A broken file: the token, the file and its line.
  std::ofstream(dir + "/broken.params") << "LmrScale,int,400,150,300,8\n";
  const std::string error = error_of([&] { parse_engine_tokens({"params=broken.params"}, "--engine #1", dir); });
  CHECK(error.starts_with("--engine #1: 'params=broken.params': " + dir + "/broken.params:1: "));
  CHECK(error_of([&] { parse_engine_tokens({"params=missing.params"}, "--engine #1", dir); }) ==
        "--engine #1: 'params=missing.params': " + dir + "/missing.params: cannot read the params file");
}

TEST_CASE("an engine from a git ref: REPO@REF split at the last '@', paths made absolute, build and bin required") {
  EngineSettings local = parse_engine_tokens({"git=../eng@main", "build=make -j2", "bin=src/eng"}, "--engine #1", "/w/x");
  CHECK(*local.git == "/w/eng@main");
  CHECK(*local.build == "make -j2");
  CHECK(*local.bin == "src/eng");
  CHECK(*parse_engine_tokens({"git=git@github.com:me/eng.git@v1.2"}, "--engine #1", "/w").git ==
        "git@github.com:me/eng.git@v1.2");
  CHECK(*parse_engine_tokens({"git=https://example.org/eng.git@HEAD~1"}, "--engine #1", "/w").git ==
        "https://example.org/eng.git@HEAD~1");
  CHECK(*parse_engine_tokens({"bench=975903", "bench_cmd=usi:bench 16"}, "--engine #1", "").bench == 975903);
  CHECK(error_of([] { parse_engine_tokens({"git=/repo"}, "--engine #1", ""); })
            .find("--engine #1: 'git=/repo': expected git=PATH_OR_URL@REF") == 0);
  CHECK(error_of([] { parse_engine_tokens({"git=/repo@"}, "--engine #1", ""); }).find("expected git=") !=
        std::string::npos);
  CHECK(error_of([] { parse_engine_tokens({"bin=/abs/eng"}, "--engine #1", ""); })
            .find("expected bin=PATH relative to the checkout") != std::string::npos);
  CHECK(error_of([] { parse_engine_tokens({"bench=-3"}, "--engine #1", ""); }).find("'bench=-3'") !=
        std::string::npos);

  const std::vector<std::string> tail = {"--each", "tc=1+0.1", "--sprt", "elo0=0", "elo1=5"};
  auto sprt = [&](std::vector<std::string> args) {
    args.insert(args.end(), tail.begin(), tail.end());
    return parse_cli(args, TournamentType::Sprt);
  };
  Config c = sprt({"--engine", "git=/r@a", "build=make", "bin=e", "bench=5", "--engine", "cmd=/bin/sh"});
  REQUIRE(c.sources.size() == 2);
  CHECK(c.sources[0].from_git());
  CHECK(c.sources[0].git_repo == "/r");
  CHECK(c.sources[0].git_ref == "a");
  CHECK(c.sources[0].bench == 5);
  CHECK(c.engines[0].command.empty());  // built before the first game
  CHECK(c.engines[0].name == "r@a");
  CHECK_FALSE(c.sources[1].from_git());
  CHECK(error_of([&] { sprt({"--engine", "git=/r@a", "--engine", "cmd=/bin/sh"}); })
            .find("--engine #1: git=/r@a needs build=\"COMMAND\"") == 0);
  CHECK(error_of([&] { sprt({"--engine", "git=/r@a", "cmd=/bin/sh", "build=make", "bin=e", "--engine", "cmd=/bin/sh"}); })
            .find("give either cmd= or git=") != std::string::npos);
  CHECK(error_of([&] { sprt({"--engine", "cmd=/bin/sh", "bin=e", "--engine", "cmd=/bin/sh", "name=b"}); })
            .find("build= and bin= go with git=REPO@REF") != std::string::npos);
}

TEST_CASE("scale_tc and build_cache from YAML and the command line") {
  ConfigDraft d = from_yaml("scale_tc: {nps: 1200000, engine: a}\nbuild_cache: cache\n");
  REQUIRE(d.config.scale_tc);
  CHECK(d.config.scale_tc->nps == 1200000);
  CHECK(d.config.scale_tc->engine == "a");
  CHECK(d.config.build_cache == "/base/cache");
  CHECK(error_of([] { from_yaml("scale_tc: {nps: 0}\n"); }).find("test.yaml:1") == 0);
  CHECK(error_of([] { from_yaml("scale_tc: {speed: 10}\n"); }).find("unknown key") != std::string::npos);
  Config c = parse_cli({"--engine", "cmd=/bin/sh", "name=a", "--engine", "cmd=/bin/sh", "name=b", "--each",
                        "tc=10+0.1", "--scale-tc", "nps=800000", "engine=b"},
                       TournamentType::Gauntlet);
  REQUIRE(c.scale_tc);
  CHECK(c.scale_tc->nps == 800000);
  CHECK(c.scale_tc->engine == "b");
  CHECK(error_of([] {
          parse_cli({"--engine", "cmd=/bin/sh", "name=a", "--engine", "cmd=/bin/sh", "name=b", "--each", "tc=1",
                     "--scale-tc", "nps=8", "engine=c"},
                    TournamentType::Gauntlet);
        }) == "scale_tc: engine 'c' is not an engine of the run");
  CHECK(error_of([] {
          parse_cli({"--engine", "cmd=/bin/sh", "name=a", "--engine", "cmd=/bin/sh", "name=b", "--each", "tc=1",
                     "--scale-tc", "speed=8"},
                    TournamentType::Gauntlet);
        }).find("--scale-tc: unknown key 'speed=8'") == 0);
}

TEST_CASE("every tournament config shipped in configs/ loads and passes the checks of a run") {
  // A key misspelt or a value out of range in a shipped config would only show when a user runs it. Engines are
  // looked up as a run would look them up, so the built binaries are needed: the ones a config names that are not
  // here (a Debian engine not installed) are replaced by `sh`, which exists everywhere.
  const fs::path dir = fs::path(SHOGI_ARENA_SOURCE_DIR) / "configs";
  int loaded = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".yaml") continue;
    std::ifstream in(entry.path());
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (text.find("\ntournament:") == std::string::npos && !text.starts_with("tournament:")) continue;
    INFO(entry.path().string());
    ConfigDraft d;
    const std::string e = error_of([&] { apply_yaml_file(entry.path().string(), d); });
    REQUIRE_MESSAGE(e.empty(), e);
    for (EngineSettings& engine : d.file_engines)
      if (engine.cmd && resolve_command(*engine.cmd, dir.string()).empty()) engine.cmd = "sh";
    const std::string f = error_of([&] { finalize(std::move(d), std::nullopt); });
    CHECK_MESSAGE(f.empty(), f);
    ++loaded;
  }
  CHECK(loaded >= 9);
}
