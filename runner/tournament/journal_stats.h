#pragma once
// A journal's statistics as the `stats`, `merge` and `slurm` commands show them: read from a journal file or a
// sharded run's directory, tallied from the journal's header and games (the SPRT on the complete prefix), printed
// as the same summary a run prints.

#include <optional>
#include <string>
#include <vector>

#include "journal/journal.h"
#include "stats/sprt.h"
#include "tournament/summary.h"
#include "tournament/tally.h"

namespace arena::tournament {

// "elo0=0", "elo1=5", "alpha=..", "beta=..", "model=logistic" over `base`. Throws config::ConfigError.
stats::SprtConfig parse_sprt_args(const std::vector<std::string>& args, stats::SprtConfig base);

struct JournalStandings {
  RunInfo info;
  Tally tally;
};
// The standings of the games, with the header's SPRT or `sprt` instead.
JournalStandings standings_of(const journal::JournalContents& contents,
                              const std::optional<stats::SprtConfig>& sprt = {});

// Prints the summary (text, or JSON with `json`) to stdout; returns the exit code: an SPRT's verdict (0 H1, 1 H0,
// 2 undecided), else 0.
int print_journal_stats(const journal::JournalContents& contents, const std::string& source,
                        const std::vector<std::string>& sprt_args, bool json);

}  // namespace arena::tournament
