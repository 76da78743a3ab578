#pragma once
// `shogi-arena report`: one self-contained HTML file from a run's journal (or a sharded run's segments), to read
// after the run or while it goes on. It charts the Elo of each pairing and the SPRT's LLR over the games, the time
// each engine used per move against the time it was given (time losses stand out), the engines' scores over the
// plies of a game, and the terminations; it lists every game, and replays the games whose moves it embeds.
//
// The time given is not in the journal: it is the clock's allowance before the move (main time left plus the
// increment or byoyomi, or the movetime), reconstructed from the game's time control and its recorded move times
// by the runner's own clock rules (game/move_timing.h). Recorded times are the runner's measures rounded down to whole
// milliseconds; each is charged with half a millisecond more, so the reconstruction has no drift on average.

#include <cstddef>
#include <cstdint>
#include <expected>
#include <string>
#include <string_view>
#include <vector>

#include "game/game_result.h"
#include "journal/journal.h"

namespace arena::web {

struct ReportOptions {
  // Games whose moves are embedded for replay: games that ended in a fault (time loss, crash, stall, illegal
  // move or declaration) first, then the others in journal order. Every game is listed either way.
  size_t max_replays = 2000;
  // Moves per engine drawn in the time chart: every move over its allowance, then an even sample of the rest
  // (the chart's figures count every move).
  size_t max_time_points = 4000;
  // The run's analysis (`shogi-arena analyze`): this file, or analysis.jsonl beside the journal when there is one.
  std::string analysis;
};

struct ReportData {
  std::string json;                   // what the page shows (report_html); empty from write_report
  std::vector<std::string> warnings;  // game lines that could not be read back, each naming its game
  int64_t games = 0;                  // game lines
  int64_t replays = 0;                // games embedded for replay
  int64_t bytes = 0;                  // the page's size, from write_report
};

// The report's data from a journal read with its lines (journal::read_games(path, true)). `source` names the
// journal on the page. For tests and small journals: write_report does the same without the journal in memory.
ReportData report_data(journal::JournalContents contents, const std::string& source, const ReportOptions& options = {});

// The report of `journal` (a journal file or a run's directory, as journal::read_games takes it) written to `html`,
// replaced whole or not at all. The journal is read twice, a game at a time (what the second reading needs of the
// whole run first: the number of lines and of faults), and the page is written as the games are read: memory
// stays flat in the number of games, but for a sharded run's segments, which are merged in memory first.
std::expected<ReportData, std::string> write_report(const std::string& journal, const std::string& html,
                                                    const ReportOptions& options = {});

// The page: self-contained (styles, script and data inline; nothing loaded from anywhere), the data written in with
// every '<' escaped so that no engine's text can end the script.
std::string report_html(std::string_view data_json);
// The page's text before and after its data, for a writer that writes the data in pieces through
// append_script_json (report_html joins the three).
struct ReportPageParts {
  std::string_view before, after;
};
ReportPageParts report_page_parts();
// `json` appended to `out` with every '<' as \u003c.
void append_script_json(std::string& out, std::string_view json);

}  // namespace arena::web
