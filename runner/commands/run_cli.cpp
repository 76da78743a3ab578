#include "commands/run_cli.h"

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <iostream>

#include "commands/spsa_run.h"
#include "journal/run_start.h"
#include "journal/segments.h"
#include "journal/shard.h"
#include "output/utf8.h"
#include "provision/provision.h"
#include "tournament/console.h"
#include "relay/csa_server_engines.h"
#include "openings/openings.h"
#include "standings/summary.h"
#include "tournament/tournament.h"
#include "web/live_page.h"
#include "web/live_reporter.h"

namespace arena::commands {

namespace {

std::vector<openings::Opening> openings_of(const config::Config& c) {
  auto openings = openings::run_openings(c.openings);
  if (!openings) throw config::ConfigError(openings.error());
  return std::move(*openings);
}

}  // namespace

std::optional<journal::Shard> shard_of(const config::Config& c) {
  if (c.shard.empty()) return std::nullopt;
  if (c.type == config::TournamentType::Play) throw config::ConfigError("--shard: a single game has no shards");
  auto parsed = journal::parse_shard(c.shard);
  if (!parsed) throw config::ConfigError(parsed.error());
  return *parsed;
}

OwnUsage own_usage() {
  OwnUsage u;
  struct rusage self {};
  if (getrusage(RUSAGE_SELF, &self) != 0) return u;
  auto seconds = [](const timeval& tv) { return double(tv.tv_sec) + double(tv.tv_usec) / 1e6; };
  u.user_s = seconds(self.ru_utime);
  u.sys_s = seconds(self.ru_stime);
  u.max_rss_kb = self.ru_maxrss;
  return u;
}

void RunCli::add_to(CLI::App& app, std::optional<config::TournamentType> type) { options_.add_to(app, type); }

int RunCli::run(const std::atomic<bool>* stop) const {
  config::Config c = options_.build();
  // Engines from git refs built, bench signatures checked, clocks scaled: before any output folder or game.
  auto findings = provision::provision_engines(c, c.json ? std::cerr : std::cout);
  if (!findings) throw config::ConfigError(findings.error());
  if (c.type == config::TournamentType::Spsa) return run_spsa(c, *findings, stop);
  return run_tournament(c, *findings, stop);
}

run::EngineFactory engines_of(const config::Config& c, std::vector<game::EngineConfig> engines,
                              const std::optional<journal::Shard>& shard, const std::atomic<bool>* stop) {
  const auto logs = run::engine_logs_of(c, shard);
  if (!logs) throw config::ConfigError(logs.error());
  if (c.via_csa_server) {
    auto relay = relay::make_csa_server_engines(std::move(engines), c.game, *logs);
    if (!relay) throw config::ConfigError(relay.error());
    return std::move(*relay);
  }
  for (game::EngineConfig& e : engines) e.interrupt = stop;  // Ctrl-C is not held up by an engine's start
  return run::make_usi_engines(std::move(engines), c.game, *logs);
}

int run_tournament(const config::Config& c, const provision::Findings& findings, const std::atomic<bool>* stop) {
  const std::optional<journal::Shard> shard = shard_of(c);
  tournament::Tournament t(c, openings_of(c), engines_of(c, c.engines, shard, stop), shard);

  standings::RunInfo info;
  info.type = c.type;
  info.total_games = t.games_to_play();
  info.rating_anchor = c.rating_anchor;
  info.rating_anchor_elo = c.rating_anchor_elo;
  info.builds = findings.builds(c);
  info.scale_tc = findings.time_scale(c);
  // A shard's part of an SPRT decides nothing: the coordinator tests all the shards' games together.
  if (c.type == config::TournamentType::Sprt && !shard) info.sprt = c.sprt;
  tournament::ConsoleReporter::Options ro;
  ro.quiet = c.quiet;
  ro.out = c.json ? stderr : stdout;
  ro.terminal = isatty(fileno(ro.out)) != 0;
  ro.interval_s = c.status_interval_s;
  ro.game_lines = c.type == config::TournamentType::Play;
  tournament::ConsoleReporter console(info, ro);
  std::vector<tournament::Observer*> observer_list{&console};

  // The live page, when asked for: its server runs on a thread of its own and reads what the games publish.
  std::unique_ptr<web::LivePage> page;
  std::optional<web::LiveReporter> live;
  if (!c.web.empty()) {
    std::string title = std::string(config::to_string(c.type)) + ":";
    for (size_t i = 0; i < t.engine_names().size(); ++i) title += (i ? " vs " : " ") + t.engine_names()[i];
    auto started = web::LivePage::start(c.web, title);
    if (!started) throw config::ConfigError(started.error());
    page = std::move(*started);
    live.emplace(page->state(), info);
    observer_list.push_back(&*live);
  }
  tournament::Observers observers(observer_list);

  if (auto opened = t.open(observers, findings); !opened) throw config::ConfigError(opened.error());
  const auto started = std::chrono::steady_clock::now();
  const run::RunResult result = t.run(observers, stop);
  // A run that failed before any game (an engine that does not start) has no results to show: its error line is
  // all there is to say, as for any other error.
  const bool failed = result.end == run::RunEnd::Error;
  const bool results = !failed || t.tally().scored() > 0;
  if (results) console.finish(t.tally());
  if (live) live->publish_final(t.tally());
  page.reset();

  standings::Summary s;
  s.info = info;
  s.end = result.end;
  s.error = result.error;
  s.exit_code = tournament::exit_code(result, c, t.tally(), shard.has_value());
  s.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  s.journal = t.journal_path();
  s.resumed_games = t.resumed_games();
  s.engine_moves = t.engine_moves();
  const OwnUsage usage = own_usage();
  s.runner_user_s = usage.user_s;
  s.runner_sys_s = usage.sys_s;
  s.runner_cpu_s = usage.user_s + usage.sys_s;
  s.runner_max_rss_kb = usage.max_rss_kb;
  if (c.json) {
    std::cout << standings::summary_json(t.tally(), s) << std::endl;
    if (!c.quiet && results) std::cerr << standings::summary_text(t.tally(), s);
  } else if (results) {
    std::cout << standings::summary_text(t.tally(), s) << std::flush;
  }
  // The last line of stderr says it all for a CI log: the error, or the SPRT's verdict.
  if (failed)
    std::cerr << "shogi-arena: error: " << utf8::printable(result.error) << std::endl;
  else if (std::string verdict = standings::verdict_line(t.tally(), s); !verdict.empty())
    std::cerr << verdict << std::endl;
  return s.exit_code;
}

}  // namespace arena::commands
