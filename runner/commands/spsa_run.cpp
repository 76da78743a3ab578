#include "commands/spsa_run.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "commands/run_cli.h"
#include "output/atomic_file.h"
#include "output/utf8.h"
#include "spsa/console.h"
#include "spsa/run.h"
#include "openings/openings.h"
#include "web/live_page.h"
#include "web/spsa_reporter.h"

namespace arena::commands {

namespace fs = std::filesystem;

namespace {

std::vector<std::pair<std::string, std::string>> with_options(
    std::vector<std::pair<std::string, std::string>> base,
    const std::vector<std::pair<std::string, std::string>>& over) {
  config::merge_options(base, over);
  return base;
}

// The findings of the SPRT after a tune: its two engines are the tuned one, twice.
provision::Findings then_sprt_findings(const provision::Findings& spsa) {
  provision::Findings f = spsa;
  if (!f.engines.empty()) f.engines.assign(2, spsa.engines[0]);
  if (f.scaling && !f.scaling->written.empty()) f.scaling->written.assign(2, spsa.scaling->written[0]);
  return f;
}

}  // namespace

config::Config then_sprt_config(const config::Config& spsa,
                                const std::vector<std::pair<std::string, std::string>>& tuned,
                                const std::vector<std::pair<std::string, std::string>>& start) {
  config::Config c = spsa;
  c.type = config::TournamentType::Sprt;
  c.sprt = *spsa.spsa.then_sprt;
  c.rounds = 50000;  // the SPRT decides long before
  const game::EngineConfig& e = spsa.engines[0];
  game::EngineConfig with_tuned = e, with_start = e;
  with_tuned.name = e.name + "-tuned";
  with_tuned.options = with_options(e.options, tuned);
  with_start.name = e.name + "-start";
  with_start.options = with_options(e.options, start);
  c.engines = {with_tuned, with_start};
  if (!spsa.sources.empty()) c.sources.assign(2, spsa.sources[0]);
  c.output.dir = (fs::path(spsa.output.dir) / "then-sprt").string();
  c.output.journal = (fs::path(c.output.dir) / "journal.jsonl").string();
  // A resumed SPSA run resumes its SPRT too; a fresh one starts it afresh.
  std::error_code ec;
  c.resume = spsa.resume && fs::exists(c.output.journal, ec);
  c.overwrite = !c.resume;
  c.shard.clear();
  return c;
}

int run_spsa(const config::Config& c, const provision::Findings& findings, const std::atomic<bool>* stop) {
  auto openings = openings::run_openings(c.openings);
  if (!openings) throw config::ConfigError(openings.error());
  const std::optional<journal::Shard> shard = shard_of(c);
  spsa::Run run(c, std::move(*openings), engines_of(c, spsa::spsa_sides(c.engines.at(0)), shard, stop), shard);

  standings::StatusDisplay::Options display;
  display.quiet = c.quiet;
  display.out = c.json ? stderr : stdout;
  display.terminal = isatty(fileno(display.out)) != 0;
  display.interval_s = c.status_interval_s;
  spsa::Console console(c.spsa.params, display);
  std::vector<spsa::Observer*> observer_list{&console};

  std::unique_ptr<web::LivePage> page;
  std::unique_ptr<web::SpsaReporter> live;
  if (!c.web.empty()) {
    auto started = web::LivePage::start(c.web, "spsa: " + c.engines[0].name);
    if (!started) throw config::ConfigError(started.error());
    page = std::move(*started);
    live = std::make_unique<web::SpsaReporter>(page->state(), c.spsa.params, c.spsa.schedule);
    observer_list.push_back(live.get());
  }
  spsa::Observers observers(observer_list);

  if (auto opened = run.open(observers, findings); !opened) throw config::ConfigError(opened.error());
  if (live) live->resumed(run);
  const auto started = std::chrono::steady_clock::now();
  const run::RunResult result = run.run(observers, stop);
  console.finish(run.progress());
  page.reset();

  spsa::Summary s;
  s.end = result.end;
  s.error = result.error;
  s.pairs_played = run.pairs_played();
  s.resumed_pairs = run.resumed_pairs();
  s.journal = run.journal_path();
  s.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (const OwnUsage usage = own_usage(); usage.user_s >= 0) s.runner_cpu_s = usage.user_s + usage.sys_s;
  // A shard stopped by OUT/STOP has played its part: the coordinator applies the pairs.
  s.exit_code = result.end == run::RunEnd::Completed || (shard && result.end == run::RunEnd::Stopped) ? 0 : 2;
  if (shard) {
    // A shard's pairs are the coordinator's to apply: its theta is the last it read, not the run's.
    std::cerr << "Shard " << shard->text() << ": " << run.pairs_played() << " pairs played into " << s.journal
              << (result.end == run::RunEnd::Error ? "; error: " + utf8::printable(result.error) : "") << std::endl;
    return s.exit_code;
  }
  const std::string params_path = (fs::path(c.output.dir) / "tuned.params").string();
  // Replaced whole: a half-written params file never replaces a good one.
  if (auto written =
          output::write_file_atomically(params_path, spsa::tuned_params_file(run.tuner()), "the tuned params file");
      written)
    s.params_file = params_path;
  else
    std::cerr << "warning: " << written.error() << std::endl;
  if (c.json) {
    std::cout << spsa::summary_json(run, s) << std::endl;
    if (!c.quiet) std::cerr << spsa::summary_text(run, s);
  } else {
    std::cout << spsa::summary_text(run, s) << std::flush;
  }
  if (result.end == run::RunEnd::Error)
    std::cerr << "shogi-arena: error: " << utf8::printable(result.error) << std::endl;
  if (result.end != run::RunEnd::Completed || !c.spsa.then_sprt) return s.exit_code;

  // A tune that only fitted noise is not shipped: the tuned values play the start values.
  std::vector<double> start;
  for (const stats::SpsaParam& p : run.tuner().params()) start.push_back(p.start);
  const config::Config sprt =
      then_sprt_config(c, run.tuner().options(run.tuner().final_values()), run.tuner().options(start));
  (c.json ? std::cerr : std::cout) << "\nThen an SPRT of the tuned values against the start values (" << sprt.output.dir
                                   << "):\n"
                                   << std::flush;
  return run_tournament(sprt, then_sprt_findings(findings), stop);
}

}  // namespace arena::commands
