// shogi-arena: the match runner's command line.
//
//   shogi-arena play        one game (or --pair) between two engines
//   shogi-arena gauntlet    the first engine against each of the others
//   shogi-arena roundrobin  every engine against every other
//   shogi-arena sprt        two engines until the SPRT decides
//   shogi-arena run         whatever `tournament:` in --config says
//   shogi-arena stats J     all statistics recomputed from a journal (or a sharded run's directory)
//   shogi-arena merge OUT   the segments of a sharded run merged into OUT/journal.jsonl, with its statistics
//   shogi-arena report OUT  one self-contained HTML report of a run (charts, terminations, games with replays)
//   shogi-arena slurm       a tournament as a Slurm job array of shards, submitted and followed (cluster/cli.h)
//   shogi-arena coordinate  the coordinator job of such a run (its SPRT, STOP file and requeues)
//   shogi-arena csa         one engine on a CSA server (Floodgate, championships, a club or our own server)
//   shogi-arena serve       a CSA server
//   shogi-arena check       one engine probed before a tournament: its quirks and the settings to use
//
// Exit codes: 0 done (SPRT: H1 accepted, the change passes); 1 SPRT H0 accepted (it fails); 2 an error, an
// interrupted run or an inconclusive SPRT. Errors are one line on stderr. `csa`: 0 the games were played (or a
// stop was requested), 1 gave up (server unreachable, login refused, engine broken), 2 bad configuration.
// `serve`: 0 after Ctrl-C, 1 when it cannot listen, 2 bad configuration. `check`: 0 the engine plays reliably
// with the recommended settings, 1 it does not, 2 bad arguments.

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <set>

#include "check/cli.h"
#include "cluster/cli.h"
#include "config/cli_config.h"
#include "config/config.h"
#include "config/values.h"
#include "csa/client/cli.h"
#include "csa/client/session.h"
#include "csa/server/cli.h"
#include "csa/server/server.h"
#include "rules/position.h"
#include "tournament/csa_server_engines.h"
#include "tournament/journal.h"
#include "tournament/journal_stats.h"
#include "tournament/openings.h"
#include "tournament/report.h"
#include "tournament/segments.h"
#include "tournament/shard.h"
#include "tournament/tournament.h"
#include "web/csa_server_watch.h"
#include "web/live_reporter.h"
#include "web/live_state.h"
#include "web/report.h"
#include "web/server.h"

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

std::vector<tournament::Opening> openings_of(const config::Config& c) {
  if (!c.openings.position.empty()) {
    auto o = tournament::parse_opening_line(c.openings.position, c.openings.plies);
    if (!o) throw config::ConfigError("--position: " + o.error());
    o->source = "--position";
    return {*o};
  }
  if (!c.openings.file.empty()) {
    auto list = tournament::load_openings(c.openings.file, c.openings.plies);
    if (!list) throw config::ConfigError(list.error());
    return std::move(*list);
  }
  return {tournament::Opening{"startpos", "the start position"}};
}

int run_tournament(const config::CliOptions& options) {
  config::Config c = options.build();
  std::vector<tournament::Opening> openings = openings_of(c);

  std::optional<tournament::Shard> shard;
  if (!c.shard.empty()) {
    if (c.type == config::TournamentType::Play) throw config::ConfigError("--shard: a single game has no shards");
    auto parsed = tournament::parse_shard(c.shard);
    if (!parsed) throw config::ConfigError(parsed.error());
    shard = *parsed;
  }
  tournament::EngineLogs logs;
  if (c.output.engine_logs || c.output.io_logs) {
    logs.dir = c.output.dir + "/logs";
    // Shards share OUT from many nodes: each process logs into a folder of its own (appends from several NFS
    // clients to one file interleave).
    if (shard)
      logs.dir += "/shard-" + std::to_string(shard->index) + "-of-" + std::to_string(shard->count) + "." +
                  tournament::host_name() + "." + std::to_string(::getpid());
    std::error_code ec;
    std::filesystem::create_directories(logs.dir, ec);
    if (ec) throw config::ConfigError(logs.dir + ": cannot create the folder: " + ec.message());
  }
  logs.stderr_log = c.output.engine_logs;
  logs.io_log = c.output.io_logs;
  tournament::EngineFactory engines;
  if (c.via_csa_server) {
    auto relay = tournament::make_csa_server_engines(c.engines, c.game, logs);
    if (!relay) throw config::ConfigError(relay.error());
    engines = std::move(*relay);
  } else {
    engines = tournament::make_usi_engines(c.engines, c.game, logs);
  }
  tournament::Tournament t(c, std::move(openings), std::move(engines), shard);

  tournament::ReportInfo info;
  info.type = c.type;
  info.total_games = t.games_to_play();
  // A shard's part of an SPRT decides nothing: the coordinator tests all the shards' games together.
  if (c.type == config::TournamentType::Sprt && !shard) info.sprt = c.sprt;
  tournament::ConsoleReporter::Options ro;
  ro.quiet = c.quiet;
  ro.out = c.json ? stderr : stdout;
  ro.terminal = isatty(fileno(ro.out)) != 0;
  ro.interval_s = c.status_interval_s;
  ro.game_lines = c.type == config::TournamentType::Play;
  tournament::ConsoleReporter reporter(info, ro);

  // The live page, when asked for: its server runs on a thread of its own and reads what the games publish.
  std::optional<web::LiveState> live_state;
  std::optional<web::LiveReporter> live_reporter;
  std::unique_ptr<web::WebServer> web_server;
  std::vector<tournament::Observer*> observer_list{&reporter};
  if (!c.web.empty()) {
    std::string title = std::string(config::to_string(c.type)) + ":";
    for (size_t i = 0; i < t.engine_names().size(); ++i) {
      title += i ? " vs " : " ";
      title += t.engine_names()[i];
    }
    live_state.emplace(title);
    live_reporter.emplace(*live_state, info);
    auto started = web::WebServer::start(*config::parse_listen_address(c.web, config::DEFAULT_WEB_PORT), *live_state);
    if (!started) throw config::ConfigError(started.error());
    web_server = std::move(*started);
    std::cerr << "Live page: " << web_server->url() << std::endl;
    observer_list.push_back(&*live_reporter);
  }
  tournament::Observers observers(observer_list);

  if (auto opened = t.open(observers); !opened) throw config::ConfigError(opened.error());
  install_signal_handlers();
  const auto started = std::chrono::steady_clock::now();
  tournament::RunResult result = t.run(observers, &g_stop);
  reporter.finish(t.tally());
  web_server.reset();

  tournament::Summary s;
  s.info = info;
  s.end = result.end;
  s.error = result.error;
  s.exit_code = tournament::exit_code(result, c, t.tally(), shard.has_value());
  s.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  s.journal = t.journal_path();
  s.resumed_games = t.resumed_games();
  s.engine_moves = t.engine_moves();
  struct rusage self {};
  if (getrusage(RUSAGE_SELF, &self) == 0) {
    auto seconds = [](const timeval& tv) { return double(tv.tv_sec) + double(tv.tv_usec) / 1e6; };
    s.runner_user_s = seconds(self.ru_utime);
    s.runner_sys_s = seconds(self.ru_stime);
    s.runner_cpu_s = s.runner_user_s + s.runner_sys_s;
    s.runner_max_rss_kb = self.ru_maxrss;
  }
  if (c.json) {
    std::cout << tournament::summary_json(t.tally(), s) << std::endl;
    if (!c.quiet) std::cerr << tournament::summary_text(t.tally(), s);
  } else {
    std::cout << tournament::summary_text(t.tally(), s) << std::flush;
  }
  if (result.end == tournament::RunEnd::Error) std::cerr << "shogi-arena: error: " << result.error << std::endl;
  return s.exit_code;
}

struct StatsOptions {
  std::string journal;
  std::vector<std::string> sprt;
  bool json = false;
};

int run_stats(const StatsOptions& o) {
  tournament::JournalContents contents = tournament::read_games(o.journal);
  for (const std::string& w : contents.warnings) std::cerr << "warning: " << w << "\n";
  return tournament::print_journal_stats(contents, o.journal, o.sprt, o.json);
}

struct MergeOptions {
  std::string out;
  std::vector<std::string> sprt;
  bool json = false;
};

// The segments of OUT merged into OUT/journal.jsonl (written to a temporary file, then renamed over it), then
// the statistics of that journal.
int run_merge(const MergeOptions& o) {
  namespace fs = std::filesystem;
  auto merged = tournament::read_segments(o.out, nullptr, true);
  if (!merged) throw config::ConfigError(merged.error());
  if (merged->segments.empty())
    throw config::ConfigError(tournament::segments_dir(o.out) + ": no journal segments (shard-*.jsonl) to merge");
  for (const std::string& w : merged->warnings) std::cerr << "warning: " << w << "\n";
  const std::string path = (fs::path(o.out) / "journal.jsonl").string();
  std::error_code ec;
  if (fs::exists(path, ec)) {
    // Only a journal that a merge wrote is replaced: a one-machine run's journal there holds games of its own.
    auto old = tournament::read_journal(path);
    if (!old || !old->header || old->header->merged_segments == 0)
      throw config::ConfigError(path + ": exists and is not a merged journal; merge into another directory");
  }
  tournament::JournalHeader header = *merged->header;
  header.merged_segments = int64_t(merged->segments.size());
  // A name of this process's own, created exclusively: two merges at once never write into one file.
  const std::string temp = path + ".merging." + std::to_string(::getpid());
  {
    auto writer = tournament::JournalWriter::create(temp, header, true);
    if (!writer) throw config::ConfigError(writer.error());
    writer->set_sync_each_line(false);  // one sync at the end: the segments still hold every game
    for (const std::string& line : merged->lines)
      if (auto w = writer->append(line); !w) throw config::ConfigError(w.error());
    if (auto w = writer->sync(); !w) throw config::ConfigError(w.error());
  }
  fs::rename(temp, path, ec);
  if (ec) throw config::ConfigError(path + ": cannot replace it: " + ec.message());
  if (int d = ::open(o.out.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); d >= 0) ::fsync(d), ::close(d);
  std::set<std::pair<int, int>> shards;
  int64_t torn = 0;
  for (const tournament::SegmentFile& f : merged->segments) {
    if (f.header.shard) shards.insert({f.header.shard->index, f.header.shard->count});
    torn += f.torn ? 1 : 0;
  }
  std::cerr << "Merged " << merged->segments.size() << " segments of " << shards.size() << " shards into " << path
            << ": " << merged->games.size() << " game lines, " << merged->complete_pairs << " complete pairs, "
            << merged->incomplete_pairs << " incomplete, " << merged->duplicates << " duplicate lines left out, "
            << torn << " torn last lines dropped\n";
  auto contents = tournament::read_journal(path);
  if (!contents) throw config::ConfigError(contents.error());
  return tournament::print_journal_stats(*contents, path, o.sprt, o.json);
}

struct ReportCli {
  std::string out;
  std::string html;
  web::ReportOptions options;
};

// OUT's report: written to a temporary file beside its place, then renamed over it, so that a failed report never
// replaces a good one.
int run_report(const ReportCli& o) {
  namespace fs = std::filesystem;
  tournament::JournalContents contents = tournament::read_games(o.out, true);
  for (const std::string& w : contents.warnings) std::cerr << "warning: " << w << "\n";
  web::ReportData data = web::report_data(contents, o.out, o.options);
  for (const std::string& w : data.warnings) std::cerr << "warning: " << w << "\n";
  std::error_code ec;
  std::string path = o.html;
  if (path.empty()) {
    const fs::path base = fs::is_directory(o.out, ec) ? fs::path(o.out) : fs::path(o.out).parent_path();
    path = (base / "report.html").string();
  }
  const std::string html = web::report_html(data.json);
  const std::string temp = path + ".writing." + std::to_string(::getpid());
  {
    std::FILE* f = std::fopen(temp.c_str(), "wb");
    if (!f) throw config::ConfigError(path + ": cannot write the report: " + std::strerror(errno));
    const bool written = std::fwrite(html.data(), 1, html.size(), f) == html.size();
    if (std::fclose(f) != 0 || !written) {
      const int error = errno;
      std::remove(temp.c_str());
      throw config::ConfigError(path + ": cannot write the report: " + std::strerror(error));
    }
  }
  fs::rename(temp, path, ec);
  if (ec) {
    std::remove(temp.c_str());
    throw config::ConfigError(path + ": cannot write the report: " + ec.message());
  }
  std::cout << "Report: " << path << " (" << data.games << " games, " << data.replays << " replayable, "
            << (html.size() + 1023) / 1024 << " KiB)" << std::endl;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  shogi::Position::init();
  CLI::App app{"shogi-arena: matches, gauntlets, round robins and SPRTs between USI shogi engines"};
  app.require_subcommand(1);
  app.footer(
      "Exit codes: 0 done (SPRT: H1 accepted); 1 SPRT H0 accepted; 2 error, interrupted or inconclusive SPRT.\n"
      "Examples:\n"
      "  shogi-arena gauntlet --config configs/default.yaml\n"
      "  shogi-arena sprt --engine cmd=./new name=new --engine cmd=./old name=old --each tc=10+0.1 \\\n"
      "      --sprt elo0=0 elo1=5 --openings file=openings/balanced-24.sfen order=random\n"
      "  shogi-arena stats shogi-arena-out/journal.jsonl");

  struct Command {
    const char* name;
    const char* help;
    std::optional<config::TournamentType> type;
    config::CliOptions options;
    CLI::App* app = nullptr;
  };
  std::vector<Command> commands;
  commands.reserve(5);
  commands.push_back({"play",
                      "One game between two engines (or a pair with --pair), printing the result",
                      config::TournamentType::Play,
                      {}});
  commands.push_back({"gauntlet", "The first engine against each of the others", config::TournamentType::Gauntlet, {}});
  commands.push_back({"roundrobin", "Every engine against every other", config::TournamentType::RoundRobin, {}});
  commands.push_back({"sprt",
                      "Two engines until the SPRT accepts H0 or H1 (or --rounds pairs are played)",
                      config::TournamentType::Sprt,
                      {}});
  commands.push_back({"run", "The tournament described by --config (its 'tournament:' key)", std::nullopt, {}});
  for (Command& c : commands) {
    c.app = app.add_subcommand(c.name, c.help);
    c.options.add_to(*c.app, c.type);
  }

  StatsOptions stats_options;
  CLI::App* stats = app.add_subcommand("stats", "Recompute every statistic from a journal");
  stats
      ->add_option("journal", stats_options.journal,
                   "The JSONL journal of a run, or a sharded run's directory (its segments merged)")
      ->required();
  stats->add_option("--sprt", stats_options.sprt, "elo0=E elo1=E [alpha=A] [beta=B] [model=...]: test this SPRT")
      ->expected(1, 5);
  stats->add_flag("--json", stats_options.json, "Summary as JSON");

  MergeOptions merge_options;
  CLI::App* merge = app.add_subcommand("merge", "Merge the journal segments of a sharded run into OUT/journal.jsonl");
  merge->add_option("out", merge_options.out, "The run's output directory (holding segments/)")->required();
  merge->add_option("--sprt", merge_options.sprt, "elo0=E elo1=E [alpha=A] [beta=B] [model=...]: test this SPRT")
      ->expected(1, 5);
  merge->add_flag("--json", merge_options.json, "Summary as JSON");

  ReportCli report_options;
  CLI::App* report = app.add_subcommand("report", "Write one self-contained HTML report of a run from its journal");
  report
      ->add_option("out", report_options.out,
                   "The run's journal, its output directory, or a sharded run's directory (its segments merged)")
      ->required();
  report->add_option("--html", report_options.html, "Where to write it (default: report.html beside the journal)")
      ->type_name("FILE");
  report
      ->add_option("--max-replays", report_options.options.max_replays,
                   "Games whose moves are embedded for replay: faults first, then in order (every game is listed)")
      ->check(CLI::Range(0, 1000000))
      ->capture_default_str();
  report->footer(
      "Examples:\n"
      "  shogi-arena report shogi-arena-out\n"
      "  shogi-arena report /shared/sprt-1 --html sprt-1.html");

  config::CliOptions slurm_tournament;
  cluster::SlurmCli slurm_options;
  CLI::App* slurm = app.add_subcommand("slurm", "Run a tournament as a Slurm job array of shards, and follow it");
  slurm_tournament.add_to(*slurm, std::nullopt);
  slurm_options.add_to(*slurm);
  slurm->footer(
      "Every option of `run` is forwarded to the shards. Paths must be on a filesystem every node sees.\n"
      "Examples:\n"
      "  shogi-arena slurm --config /shared/sprt.yaml --out /shared/sprt-1 --shards 40 --time 4:00:00\n"
      "  shogi-arena slurm --attach /shared/sprt-1\n"
      "  shogi-arena slurm --cancel /shared/sprt-1");
  cluster::CoordinateCli coordinate_options;
  CLI::App* coordinate =
      app.add_subcommand("coordinate", "The coordinator of a sharded run (started by `slurm` as a job of its own)");
  coordinate_options.add_to(*coordinate);

  csa::CsaClientCli csa_options;
  CLI::App* csa = app.add_subcommand("csa", "Play on a CSA server (Floodgate, championships, shogi-arena serve)");
  csa_options.add_to(*csa);
  csa->footer(
      "Examples:\n"
      "  shogi-arena csa --config configs/csa-floodgate.yaml --user me --trip secret\n"
      "  shogi-arena csa --user dev --game test-300-10F --engine cmd=fairy-stockfish option.Hash=64 --games 4");

  csa::CsaServerCli serve_options;
  CLI::App* serve = app.add_subcommand("serve", "Host games as a CSA server (shogi-server / Floodgate rules)");
  serve_options.add_to(*serve);
  serve->footer("Example:\n  shogi-arena serve --listen 0.0.0.0:4081 --out csa-server --log csa-server/server.log");

  check::CheckCli check_options;
  CLI::App* check_app =
      app.add_subcommand("check", "Probe one engine before a tournament: its quirks and the settings to use");
  check_options.add_to(*check_app);
  check_app->footer(
      "Exit codes: 0 it plays reliably with the recommended settings; 1 it does not; 2 bad arguments.\n"
      "Examples:\n"
      "  shogi-arena check --engine cmd=/usr/games/gpsusi\n"
      "  shogi-arena check --engine cmd=./yaneuraou option.Threads=1 --quick --json");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "shogi-arena: error: " << e.what() << " (see --help)" << std::endl;
    return 2;
  }

  try {
    if (stats->parsed()) return run_stats(stats_options);
    if (check_app->parsed()) {
      install_signal_handlers();
      return check_options.run(&g_stop);
    }
    if (merge->parsed()) return run_merge(merge_options);
    if (report->parsed()) return run_report(report_options);
    if (slurm->parsed()) {
      std::vector<std::string> args;
      for (int i = 1; i < argc; ++i)
        if (std::string_view(argv[i]) == "slurm") {
          args.assign(argv + i + 1, argv + argc);
          break;
        }
      install_signal_handlers();
      return slurm_options.run(slurm_tournament, args, &g_stop);
    }
    if (coordinate->parsed()) {
      install_signal_handlers();
      return coordinate_options.run(&g_stop);
    }
    if (csa->parsed()) {
      auto config = csa_options.build();
      if (!config) throw config::ConfigError(config.error());
      install_signal_handlers();
      return csa::run_csa_client(*config, &g_stop);
    }
    if (serve->parsed()) {
      auto config = serve_options.build();
      if (!config) throw config::ConfigError(config.error());
      // The live page of the server's games, when asked for: fed by the server's hooks on its own thread.
      std::optional<web::LiveState> live;
      std::optional<web::CsaServerWatch> watch;
      std::unique_ptr<web::WebServer> web_server;
      if (!serve_options.web().empty()) {
        // Port 0 is the system's pick, known only once the server listens: the page then names the host alone.
        const std::string where =
            config->listen_address + (config->port ? ":" + std::to_string(config->port) : std::string());
        live.emplace("CSA server " + where);
        watch.emplace(*live, where);
        config->on_game_progress = [&watch](const csa::CsaGameProgress& g) { watch->progress(g); };
        config->on_game_finished = [&watch](const csa::CsaFinishedGame& g) { watch->finished(g); };
        auto started =
            web::WebServer::start(*config::parse_listen_address(serve_options.web(), config::DEFAULT_WEB_PORT), *live);
        if (!started) throw config::ConfigError(started.error());
        web_server = std::move(*started);
        std::cerr << "Live page: " << web_server->url() << std::endl;
      }
      install_signal_handlers();
      return csa::run_csa_server(*config, &g_stop);
    }
    for (Command& c : commands)
      if (c.app->parsed()) return run_tournament(c.options);
  } catch (const config::ConfigError& e) {
    std::cerr << "shogi-arena: error: " << e.what() << std::endl;
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "shogi-arena: error: " << e.what() << std::endl;
    return 2;
  }
  return 2;
}
