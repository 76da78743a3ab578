#include "commands/journal_cli.h"

#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>

#include "config/config.h"
#include "journal/merge.h"
#include "output/atomic_file.h"
#include "standings/journal_stats.h"

namespace arena::commands {

namespace fs = std::filesystem;

namespace {

journal::JournalContents read_or_throw(const std::string& path, bool keep_lines) {
  auto contents = journal::read_games(path, keep_lines);
  if (!contents) throw config::ConfigError(contents.error());
  for (const std::string& w : contents->warnings) std::cerr << "warning: " << w << "\n";
  return std::move(*contents);
}

}  // namespace

void StatsOutput::add_to(CLI::App& app) {
  app.add_option("--sprt", sprt, "elo0=E elo1=E [alpha=A] [beta=B] [model=...]: test this SPRT")->expected(1, 5);
  app.add_flag("--json", json, "Summary as JSON");
  app.add_option("--rating-anchor", rating_anchor,
                 "Rate more than two engines with this one at --rating-anchor-elo "
                 "(default: the run's anchor, else mean 0)")
      ->type_name("NAME");
  app.add_option("--rating-anchor-elo", rating_anchor_elo, "The anchor's rating")->type_name("ELO");
}

void StatsCli::add_to(CLI::App& app) {
  app.add_option("journal", journal_, "The JSONL journal of a run, or a sharded run's directory (its segments merged)")
      ->required();
  output_.add_to(app);
}

int StatsCli::run() const {
  return standings::print_journal_stats(read_or_throw(journal_, false), journal_, output_.request());
}

void MergeCli::add_to(CLI::App& app) {
  app.add_option("out", out_, "The run's output directory (holding segments/)")->required();
  output_.add_to(app);
}

int MergeCli::run() const {
  auto merged = journal::merge_segments(out_);
  if (!merged) throw config::ConfigError(merged.error());
  for (const std::string& w : merged->warnings) std::cerr << "warning: " << w << "\n";
  std::cerr << merged->text() << "\n";
  return standings::print_journal_stats(read_or_throw(merged->path, false), merged->path, output_.request());
}

void ReportCli::add_to(CLI::App& app) {
  app.add_option("out", out_,
                 "The run's journal, its output directory, or a sharded run's directory (its segments merged)")
      ->required();
  app.add_option("--html", html_, "Where to write it (default: report.html beside the journal)")->type_name("FILE");
  app.add_option("--max-replays", options_.max_replays,
                 "Games whose moves are embedded for replay: faults first, then in order (every game is listed)")
      ->check(CLI::Range(0, 1000000))
      ->capture_default_str();
  app.add_option("--analysis", options_.analysis,
                 "The run's analysis from `shogi-arena analyze` (default: analysis.jsonl beside the journal, if any)")
      ->type_name("FILE");
  app.footer(
      "Examples:\n"
      "  shogi-arena report shogi-arena-out\n"
      "  shogi-arena report /shared/sprt-1 --html sprt-1.html");
}

int ReportCli::run() const {
  std::string path = html_;
  if (path.empty()) {
    std::error_code ec;
    const fs::path base = fs::is_directory(out_, ec) ? fs::path(out_) : fs::path(out_).parent_path();
    path = (base / "report.html").string();
  }
  auto data = web::write_report(out_, path, options_);
  if (!data) throw config::ConfigError(data.error());
  for (const std::string& w : data->warnings) std::cerr << "warning: " << w << "\n";
  std::cout << "Report: " << path << " (" << data->games << " games, " << data->replays << " replayable, "
            << (data->bytes + 1023) / 1024 << " KiB)" << std::endl;
  return 0;
}

}  // namespace arena::commands
