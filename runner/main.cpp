// shogi-arena: the match runner's command line.
//
//   shogi-arena play        one game (or --pair) between two engines
//   shogi-arena gauntlet    the first engine against each of the others
//   shogi-arena roundrobin  every engine against every other
//   shogi-arena sprt        two engines until the SPRT decides
//   shogi-arena spsa        an engine's parameters tuned by self-play (SPSA), then optionally confirmed by an SPRT
//   shogi-arena run         whatever `tournament:` in --config says
//   shogi-arena stats J     all statistics recomputed from a journal (or a sharded run's directory)
//   shogi-arena merge OUT   the segments of a sharded run merged into OUT/journal.jsonl, with its statistics
//   shogi-arena report OUT  one self-contained HTML report of a run (charts, terminations, games with replays)
//   shogi-arena slurm       a tournament as a Slurm job array of shards, submitted and followed (cluster/cli.h)
//   shogi-arena coordinate  the coordinator job of such a run (its SPRT, STOP file and requeues)
//   shogi-arena csa         one engine on a CSA server (Floodgate, championships, a club or our own server)
//   shogi-arena serve       a CSA server
//   shogi-arena check       one engine probed before a tournament: its quirks and the settings to use
//   shogi-arena analyze OUT a referee engine judges a run's moves: blunders, decisive mistakes, per-engine figures
//   shogi-arena --version   the version and the commit it was built from
//
// Exit codes: 0 done (SPRT: H1 accepted, the change passes); 1 SPRT H0 accepted (it fails); 2 an error, an
// interrupted run or an inconclusive SPRT. Errors are one line on stderr. `csa`: 0 the games were played (or a
// stop was requested), 1 gave up (server unreachable, login refused, engine broken), 2 bad configuration.
// `serve`: 0 after Ctrl-C, 1 when it cannot listen, 2 bad configuration. `check`: 0 the engine plays reliably
// with the recommended settings, 1 it does not, 2 bad arguments or interrupted before a failure. `analyze`: 0 done
// (or stopped: --resume goes on), 1 the analysis failed, 2 bad arguments.

#include <signal.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <iostream>
#include <optional>
#include <string_view>
#include <vector>

#include "analysis/cli.h"
#include "build_info.h"
#include "check/cli.h"
#include "cluster/cli.h"
#include "commands/journal_cli.h"
#include "commands/run_cli.h"
#include "commands/serve_cli.h"
#include "config/config.h"
#include "csa/client/cli.h"
#include "csa/client/session.h"
#include "output/utf8.h"
#include "rules/position.h"

namespace {

using namespace arena;

std::atomic<bool> g_stop{false};
std::atomic<int> g_signals{0};

extern "C" void on_signal(int) {
  g_stop.store(true);
  // A third Ctrl-C means "now": engines get EOF on their stdin when the runner is gone.
  if (g_signals.fetch_add(1) >= 2) _exit(2);
}

void install_signal_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  signal(SIGPIPE, SIG_IGN);
}

// The command line after `name`, as typed (slurm forwards it to its shards).
std::vector<std::string> args_after(int argc, char** argv, std::string_view name) {
  for (int i = 1; i < argc; ++i)
    if (std::string_view(argv[i]) == name) return {argv + i + 1, argv + argc};
  return {};
}

// CLI11's error in words where its own are cryptic: a one-value option given twice is "--rounds: At Most 1 required
// but received 2" (its ArgumentMismatch::AtMost; a count of values past the first can only come from repeats, as a
// second value of one occurrence is an unexpected argument).
std::string parse_error_text(const CLI::ParseError& e) {
  const std::string what = e.what();
  static constexpr std::string_view at_most = ": At Most 1 required but received ";
  if (const size_t at = what.find(at_most); at != std::string::npos)
    return what.substr(0, at) + " is given " + what.substr(at + at_most.size()) + " times: it takes one value";
  return what;
}

}  // namespace

int main(int argc, char** argv) {
  shogi::Position::init();
  CLI::App app{"shogi-arena: matches, gauntlets, round robins and SPRTs between USI shogi engines"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "shogi-arena " SHOGI_ARENA_VERSION " (commit " SHOGI_ARENA_COMMIT ")");
  app.footer(
      "Exit codes: 0 done (SPRT: H1 accepted); 1 SPRT H0 accepted; 2 error, interrupted or inconclusive SPRT.\n"
      "Examples:\n"
      "  shogi-arena gauntlet --config configs/default.yaml\n"
      "  shogi-arena sprt --engine cmd=./new name=new --engine cmd=./old name=old --each tc=10+0.1 \\\n"
      "      --sprt elo0=0 elo1=5 --openings file=openings/balanced-24.sfen order=random\n"
      "  shogi-arena stats shogi-arena-out/journal.jsonl");

  struct Tournament {
    const char* name;
    const char* help;
    std::optional<config::TournamentType> type;
    commands::RunCli cli{};
    CLI::App* app = nullptr;
  };
  Tournament tournaments[] = {
      {"play", "One game between two engines (or a pair with --pair), printing the result",
       config::TournamentType::Play},
      {"gauntlet", "The first engine against each of the others", config::TournamentType::Gauntlet},
      {"roundrobin", "Every engine against every other", config::TournamentType::RoundRobin},
      {"sprt", "Two engines until the SPRT accepts H0 or H1 (or --rounds pairs are played)",
       config::TournamentType::Sprt},
      {"spsa", "Tune an engine's options by self-play (SPSA, as fishtest runs it)", config::TournamentType::Spsa},
      {"run", "The tournament described by --config (its 'tournament:' key)", std::nullopt},
  };
  for (Tournament& t : tournaments) {
    t.app = app.add_subcommand(t.name, t.help);
    t.cli.add_to(*t.app, t.type);
  }

  // Each command's options belong to the room that runs it.
  auto add = [&app](const char* name, const char* help, auto& cli) {
    CLI::App* sub = app.add_subcommand(name, help);
    cli.add_to(*sub);
    return sub;
  };
  commands::StatsCli stats_cli;
  CLI::App* stats = add("stats", "Recompute every statistic from a journal", stats_cli);
  commands::MergeCli merge_cli;
  CLI::App* merge = add("merge", "Merge the journal segments of a sharded run into OUT/journal.jsonl", merge_cli);
  commands::ReportCli report_cli;
  CLI::App* report = add("report", "Write one self-contained HTML report of a run from its journal", report_cli);
  config::CliOptions slurm_tournament;  // the shards' `run` options, forwarded to them
  cluster::SlurmCli slurm_cli;
  CLI::App* slurm = add("slurm", "Run a tournament as a Slurm job array of shards, and follow it", slurm_cli);
  slurm_tournament.add_to(*slurm, std::nullopt);
  cluster::CoordinateCli coordinate_cli;
  CLI::App* coordinate =
      add("coordinate", "The coordinator of a sharded run (started by `slurm` as a job of its own)", coordinate_cli);
  csa::CsaClientCli csa_cli;
  CLI::App* csa = add("csa", "Play on a CSA server (Floodgate, championships, shogi-arena serve)", csa_cli);
  commands::ServeCli serve_cli;
  CLI::App* serve = add("serve", "Host games as a CSA server (shogi-server / Floodgate rules)", serve_cli);
  check::CheckCli check_cli;
  CLI::App* check = add("check", "Probe one engine before a tournament: its quirks and the settings to use", check_cli);
  analysis::AnalyzeCli analyze_cli;
  CLI::App* analyze =
      add("analyze", "A referee engine judges every move of a run's games: blunders, decisive mistakes", analyze_cli);

  // CLI11 says only "A subcommand is required" of a misspelt command: name it and the commands there are.
  if (argc > 1 && argv[1][0] != '-') {
    const std::string given = argv[1];
    std::string known;
    bool found = false;
    for (const CLI::App* sub : app.get_subcommands({})) {
      found = found || sub->get_name() == given;
      known += (known.empty() ? "" : ", ") + sub->get_name();
    }
    if (!found) {
      std::cerr << "shogi-arena: error: unknown command '" << utf8::printable(given) << "' (expected one of " << known
                << ")" << std::endl;
      return 2;
    }
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "shogi-arena: error: " << parse_error_text(e) << " (see --help)" << std::endl;
    return 2;
  }

  try {
    if (stats->parsed()) return stats_cli.run();
    if (merge->parsed()) return merge_cli.run();
    if (report->parsed()) return report_cli.run();
    // Everything else runs for a while: Ctrl-C and SIGTERM ask it to stop cleanly.
    install_signal_handlers();
    if (check->parsed()) return check_cli.run(&g_stop);
    if (analyze->parsed()) return analyze_cli.run(&g_stop);
    if (slurm->parsed()) return slurm_cli.run(slurm_tournament, args_after(argc, argv, "slurm"), &g_stop);
    if (coordinate->parsed()) return coordinate_cli.run(&g_stop);
    if (csa->parsed()) {
      auto config = csa_cli.build();
      if (!config) throw config::ConfigError(config.error());
      return csa::run_csa_client(*config, &g_stop);
    }
    if (serve->parsed()) return serve_cli.run(&g_stop);
    for (Tournament& t : tournaments)
      if (t.app->parsed()) return t.cli.run(&g_stop);
  } catch (const config::ConfigError& e) {
    std::cerr << "shogi-arena: error: " << utf8::printable(e.what()) << std::endl;
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "shogi-arena: error: " << utf8::printable(e.what()) << std::endl;
    return 2;
  }
  return 2;
}
