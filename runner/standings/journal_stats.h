#pragma once
// A journal's statistics as the `stats`, `merge` and `slurm` commands show them: read from a journal file or a
// sharded run's directory, tallied from the journal's header and games (the SPRT on the complete prefix), printed
// as the same summary a run prints.

#include <optional>
#include <string>
#include <vector>

#include "journal/journal.h"
#include "stats/sprt.h"
#include "standings/summary.h"
#include "standings/tally.h"

namespace arena::standings {

// "elo0=0", "elo1=5", "alpha=..", "beta=..", "model=logistic" over `base`. Throws config::ConfigError.
stats::SprtConfig parse_sprt_args(const std::vector<std::string>& args, stats::SprtConfig base);

struct JournalStandings {
  RunInfo info;
  Tally tally;
};
// The standings of the games, with the header's SPRT or `sprt` instead.
JournalStandings standings_of(const journal::JournalContents& contents,
                              const std::optional<stats::SprtConfig>& sprt = {});

// What to print of a journal: its summary as text or JSON, with the header's SPRT and rating anchor or others.
struct StatsRequest {
  std::vector<std::string> sprt_args;  // elo0=E elo1=E ...: test this SPRT instead
  bool json = false;
  std::string rating_anchor;               // rate on this engine instead of the header's anchor
  std::optional<double> rating_anchor_elo;  // at this rating
};

// Prints the summary to stdout; returns the exit code: an SPRT's verdict (0 H1, 1 H0, 2 undecided), else 0.
// An anchor that is not an engine of the journal throws config::ConfigError.
int print_journal_stats(const journal::JournalContents& contents, const std::string& source,
                        const StatsRequest& request);

}  // namespace arena::standings
