#pragma once
// What a run finds in its output folder when it starts, checked the same way by every kind of run (a tournament,
// an SPSA run): a journal to continue or to refuse, or the segments of a shard. The errors are one line naming the
// file and saying what to do instead.

#include <expected>
#include <optional>
#include <string>

#include "config/config.h"
#include "journal/journal.h"
#include "journal/segments.h"
#include "journal/shard.h"

namespace arena::journal {

// The moment as a header's "created" holds it: UTC, e.g. "2026-11-26T04:30:58Z".
std::string created_now();

// Makes the output folder, `records_dir` (kifu; empty: none) and the journal's folder. The error names the folder.
std::expected<void, std::string> make_output_folders(const config::Config& config, const std::string& records_dir);

// Completes the header of a run starting now: created, host, pid, and what identifies the run (run_identity.h,
// with the time controls as `written`; its error is this one's).
std::expected<void, std::string> stamp_header(JournalHeader& header, const config::Config& config,
                                              const std::vector<game::TimeControl>& written = {});

// A run on one machine into the journal `path` of OUT `out_dir`, about to write `header`. Refuses an OUT that holds
// a sharded run's segments, and an existing journal unless `resume` or `overwrite` (a journal of no game counts as
// none: there is nothing in it to lose). With `resume` and a journal,
// reads it back, refusing one without a header, one merged from shards, or one of another schedule or run
// (identity); nullopt: the run starts afresh (the caller creates the journal).
std::expected<std::optional<JournalContents>, std::string> read_journal_to_resume(const std::string& out_dir,
                                                                                  const std::string& path,
                                                                                  const JournalHeader& header,
                                                                                  bool resume, bool overwrite);

// Shard `shard` of a run spread over a cluster, about to start a segment with `header`: every segment in OUT read
// back (one of another run is refused). If this shard already has games there, refuses unless `resume`, or
// deletes this shard's segments first with `overwrite`. The pairs two processes played count as duplicates, with
// a warning among the result's.
std::expected<MergedJournal, std::string> read_segments_to_resume(const std::string& out_dir,
                                                                  const JournalHeader& header, const Shard& shard,
                                                                  bool resume, bool overwrite);

}  // namespace arena::journal
