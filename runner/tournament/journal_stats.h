#pragma once
// A journal's statistics as the `stats`, `merge` and `slurm` commands show them: read from a journal file or a
// sharded run's directory, tallied from the journal's header and games (the SPRT on the complete prefix), printed
// as the same summary a run prints.

#include <optional>
#include <string>
#include <vector>

#include "stats/sprt.h"
#include "tournament/journal.h"
#include "tournament/report.h"
#include "tournament/tally.h"

namespace arena::tournament {

// The games of a journal file, of a sharded run's directory (its segments merged) or of a directory holding a
// journal.jsonl. `keep_lines`: with each game's line as written (JournalContents::lines). Errors throw
// config::ConfigError (one line naming the file).
JournalContents read_games(const std::string& path, bool keep_lines = false);

// "elo0=0", "elo1=5", "alpha=..", "beta=..", "model=logistic" over `base`. Throws config::ConfigError.
stats::SprtConfig parse_sprt_args(const std::vector<std::string>& args, stats::SprtConfig base);

struct JournalStandings {
  ReportInfo info;
  Tally tally;
};
// The standings of the games, with the header's SPRT or `sprt` instead.
JournalStandings standings_of(const JournalContents& contents, const std::optional<stats::SprtConfig>& sprt = {});

// Prints the summary (text, or JSON with `json`) to stdout; returns the exit code: an SPRT's verdict (0 H1, 1 H0,
// 2 undecided), else 0.
int print_journal_stats(const JournalContents& contents, const std::string& source,
                        const std::vector<std::string>& sprt_args, bool json);

}  // namespace arena::tournament
