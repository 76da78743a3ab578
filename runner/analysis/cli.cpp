#include "analysis/cli.h"

#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>
#include <map>

#include "analysis/analysis_file.h"
#include "analysis/analyze.h"
#include "analysis/annotated_records.h"
#include "analysis/summary.h"
#include "config/engine_keys.h"
#include "config/load.h"
#include "output/utf8.h"
#include "process/find_executable.h"

namespace arena::analysis {

namespace {

// Where analysis.jsonl goes by default: the run's directory (a journal's own folder).
std::string default_out_dir(const std::string& input) {
  std::filesystem::path p(input);
  if (std::filesystem::is_directory(p)) return p.string();
  std::filesystem::path parent = p.parent_path();
  return parent.empty() ? "." : parent.string();
}

int bad_arguments(const std::string& what) {
  std::cerr << "shogi-arena: error: " << utf8::printable(what) << std::endl;
  return 2;
}

}  // namespace

void AnalyzeCli::add_to(CLI::App& app) {
  app.footer(
      "Writes OUT/analysis.jsonl (default OUT: the run's directory), one line per game, and prints each engine's\n"
      "figures. A node budget makes the analysis repeatable; a movetime does not.\n"
      "Exit codes: 0 analysed (or stopped by Ctrl-C: --resume goes on); 1 the analysis failed; 2 bad arguments.\n"
      "Example:\n"
      "  shogi-arena analyze shogi-arena-out --engine cmd=shogi-arena-engine --nodes 200000 --games decisive");
  app.add_option("inputs", inputs_,
                 "A run's directory or journal, CSA or KIF records, or a folder of records (x.kif is left out when "
                 "x.csa is there)")->required()->expected(1, -1);
  app.add_option("--engine", engine_, "The referee: " + config::engine_tokens_usage(config::InTournament))
      ->required()
      ->expected(1, -1);
  auto* nodes = app.add_option("--nodes", nodes_, "The referee's budget per position, in nodes")->type_name("N");
  auto* movetime =
      app.add_option("--movetime", movetime_ms_, "The referee's budget per position, in ms (not repeatable)")
          ->type_name("MS");
  nodes->excludes(movetime);
  app.add_option("--games", games_, "all, decisive, lost-by=NAME, or game numbers such as 3,7,10-12 (default all)");
  app.add_option("--concurrency", concurrency_, "Referees at once (default 1)")->check(CLI::Range(1, 256));
  app.add_option("--out", out_, "The folder of analysis.jsonl (default: the run's directory)")->type_name("DIR");
  app.add_option("--clear-hash", clear_hash_,
                 "usinewgame before every game (default) or every position: the latter makes each position's "
                 "answer independent of the positions before it")
      ->check(CLI::IsMember({"game", "position"}));
  app.add_option("--records", records_,
                 "Also write each analysed game as CSA and KIF records with the referee's score and best reply after "
                 "every move (Floodgate's '** comments, ShogiHome's *#評価値) into DIR")
      ->type_name("DIR");
  app.add_flag("--resume", resume_, "Go on with an existing analysis.jsonl of the same referee and budget");
  app.add_option("--scale", judge_.scale, "Centipawns of the winning-chance logistic (default 600)")
      ->check(CLI::Range(1.0, 100000.0));
  app.add_option("--inaccuracy", judge_.inaccuracy, "Winning chance given up that makes an inaccuracy (0.05)")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--mistake", judge_.mistake, "... a mistake (0.10)")->check(CLI::Range(0.0, 1.0));
  app.add_option("--blunder", judge_.blunder, "... a blunder (0.15)")->check(CLI::Range(0.0, 1.0));
  app.add_option("--decisive-margin", judge_.decisive_margin,
                 "The decisive mistake leaves the loser below 50 % minus this to the end (0.10)")
      ->check(CLI::Range(0.0, 0.5));
}

int AnalyzeCli::run(const std::atomic<bool>* interrupt) const {
  auto settings = config::parse_engine_tokens(engine_, config::InTournament, "");
  if (!settings) return bad_arguments("--engine " + settings.error());
  if (!settings->cmd) return bad_arguments("--engine needs cmd=PATH");
  if (settings->tc) return bad_arguments("--engine tc=: the referee's budget is --nodes or --movetime; leave tc out");
  if (nodes_ <= 0 && movetime_ms_ <= 0)
    return bad_arguments("analyze needs the referee's budget: --nodes N or --movetime MS");
  if (!(judge_.inaccuracy <= judge_.mistake && judge_.mistake <= judge_.blunder))
    return bad_arguments("expected --inaccuracy <= --mistake <= --blunder");
  auto selection = parse_game_selection(games_);
  if (!selection) return bad_arguments("--games: " + selection.error());

  AnalyzeOptions options;
  config::apply_engine_settings(*settings, options.referee);
  options.referee.command = config::resolve_command(*settings->cmd, "");
  if (options.referee.command.empty())
    return bad_arguments("--engine: engine command " + process::not_found_text(*settings->cmd));
  options.referee.interrupt = interrupt;
  if (nodes_ > 0) options.budget.nodes = nodes_;
  if (movetime_ms_ > 0) options.budget.movetime_ms = movetime_ms_;
  options.budget.fresh_positions = clear_hash_ == "position";
  options.judge = judge_;
  options.concurrency = concurrency_;
  options.resume = resume_;
  options.interrupt = interrupt;
  options.progress = &std::cerr;
  options.out_path =
      (std::filesystem::path(out_.empty() ? default_out_dir(inputs_.front()) : out_) / "analysis.jsonl").string();

  std::error_code made;
  std::filesystem::create_directories(std::filesystem::path(options.out_path).parent_path(), made);
  if (made) {
    std::cerr << "shogi-arena: error: --out: cannot create " << utf8::printable(out_) << ": " << made.message()
              << std::endl;
    return 1;
  }

  std::vector<SourceGame> games;
  for (const std::string& input : inputs_) {
    auto read = read_source_games(input);
    if (!read) {
      std::cerr << "shogi-arena: error: " << utf8::printable(read.error()) << std::endl;
      return 1;
    }
    for (SourceGame& g : *read)
      if (selection->selects(g)) games.push_back(std::move(g));
  }
  std::cout << "Analysing " << games.size() << " games with " << options.referee.command << " at "
            << (nodes_ > 0 ? std::to_string(nodes_) + " nodes" : std::to_string(movetime_ms_) + " ms")
            << " per position into " << options.out_path << std::endl;
  if (movetime_ms_ > 0)
    std::cout << "A movetime is not repeatable: the same games analysed again (or resumed, or with another "
                 "--concurrency) may be judged otherwise; --nodes is." << std::endl;
  auto report = analyze_games(games, options);
  if (!report) {
    std::cerr << "shogi-arena: error: " << utf8::printable(report.error()) << std::endl;
    return 1;
  }
  std::cout << "Analysed " << report->analysed << " games (" << report->skipped << " already in the file), "
            << report->positions << " positions in " << static_cast<long long>(report->seconds) << " s";
  if (report->seconds > 0)
    std::cout << ", " << static_cast<long long>(double(report->positions) / report->seconds) << " positions/s";
  if (report->referee_restarts) std::cout << ", referee restarted " << report->referee_restarts << " times";
  std::cout << std::endl;
  if (report->interrupted) {
    std::cout << "Stopped: --resume goes on from game " << report->analysed + report->skipped + 1 << std::endl;
    return 0;
  }
  auto contents = read_analysis(options.out_path);
  if (!contents) {
    std::cerr << "shogi-arena: error: " << utf8::printable(contents.error()) << std::endl;
    return 1;
  }
  std::cout << "\n" << summary_table(summarise(contents->games)) << std::flush;
  if (!records_.empty()) {
    std::error_code made_records;
    std::filesystem::create_directories(records_, made_records);
    std::map<std::string, const SourceGame*> by_key;
    for (const SourceGame& g : games) by_key[game_key(g.game, g.source)] = &g;
    int written = 0;
    for (const GameAnalysis& a : contents->games) {
      auto it = by_key.find(game_key(a.game, a.source));
      if (it == by_key.end()) continue;  // in the file from an earlier selection
      if (auto r = write_annotated_records(records_, it->second->played, a); !r) {
        std::cerr << "shogi-arena: error: " << utf8::printable(r.error()) << std::endl;
        return 1;
      }
      ++written;
    }
    std::cout << "Wrote " << written << " games' records with the referee's comments (CSA and KIF) in " << records_
              << std::endl;
  }
  return 0;
}

}  // namespace arena::analysis
