#pragma once
// `shogi-arena analyze`: the games of a run (or records) replayed position by position before a referee engine,
// each judged move by move (game_analysis.h) and written whole to analysis.jsonl (analysis_file.h), several
// referees at once with --concurrency. A kill loses only the games under analysis; --resume goes on. The
// per-engine figures (summary.h) are printed at the end, from the whole file.

#include <atomic>
#include <cstdint>
#include <expected>
#include <iosfwd>
#include <string>
#include <vector>

#include "analysis/judgement.h"
#include "analysis/referee.h"
#include "analysis/source_games.h"
#include "game/game.h"
#include "game/game_result.h"

namespace arena::analysis {

struct AnalyzeOptions {
  game::EngineConfig referee;
  RefereeBudget budget;
  JudgeOptions judge;
  int concurrency = 1;
  std::string out_path;  // analysis.jsonl
  bool resume = false;   // go on with an existing file; without it an existing file is an error
  const std::atomic<bool>* interrupt = nullptr;
  std::ostream* progress = nullptr;  // a line every few seconds: positions per second, time left
};

struct AnalyzeReport {
  std::int64_t analysed = 0;   // games written by this run
  std::int64_t skipped = 0;    // games already in the file
  std::int64_t positions = 0;  // positions the referee evaluated in this run
  double seconds = 0;
  int referee_restarts = 0;
  bool interrupted = false;
};

// Analyses `games` (in this order) into options.out_path. The error is one line: a referee that cannot start or
// gives no score, a file that cannot be written, a file of another analysis on --resume.
std::expected<AnalyzeReport, std::string> analyze_games(const std::vector<SourceGame>& games,
                                                        const AnalyzeOptions& options);

}  // namespace arena::analysis
