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
#include "game/game.h"
#include "game/game_result.h"

namespace arena::analysis {

// One game to analyse, from a journal or a record.
struct SourceGame {
  std::int64_t game = 0;  // the journal's game number (0-based), or the record's place in the list
  std::string source;     // a record's file name; empty for a journal's game
  PlayedGame played;
};

// Which games: "all", "decisive" (a winner), "lost-by=NAME" (games NAME lost), or game numbers as the console shows
// them, 1-based: "3,7,10-12".
struct GameSelection {
  enum class Kind { All, Decisive, LostBy, Numbers };
  Kind kind = Kind::All;
  std::string engine;                 // LostBy
  std::vector<std::int64_t> numbers;  // Numbers, 1-based, as given
  bool selects(const SourceGame& game) const;
};
std::expected<GameSelection, std::string> parse_game_selection(std::string_view text);

// The games of a journal, a run's directory (its journal.jsonl or a sharded run's segments). Void games (a pair
// played again after a crash) are left out, as the run's statistics leave them out.
std::expected<std::vector<SourceGame>, std::string> read_journal_games(const std::string& path);

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
