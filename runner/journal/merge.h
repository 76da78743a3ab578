#pragma once
// A run's games as one journal, whatever form they are in: a journal file, a sharded run's directory of segments
// (merged by segments.h's rule), or a directory holding a journal.jsonl; and `merge`, which writes a sharded run's
// segments into OUT/journal.jsonl for good.

#include <cstdint>
#include <expected>
#include <string>
#include <vector>

#include "journal/journal.h"

namespace arena::journal {

// The games of `path` handed to `visitor` one at a time. A journal file (also a directory's journal.jsonl or an
// SPSA coordinator's) is read a line at a time; a sharded run's segments are merged in memory first (segments.h),
// so memory stays flat in the number of games only once they are merged into one journal (`shogi-arena merge`).
// Warnings (torn lines, duplicates left out) are in the scan; the error is one line naming the file.
std::expected<JournalScan, std::string> scan_games(const std::string& path, JournalVisitor& visitor,
                                                   bool with_lines = false);
// The same games kept whole. `keep_lines`: with each game's line as written (JournalContents::lines).
std::expected<JournalContents, std::string> read_games(const std::string& path, bool keep_lines = false);

struct MergeReport {
  std::string path;  // OUT/journal.jsonl
  int64_t segments = 0;
  int64_t shards = 0;
  int64_t games = 0;  // game lines written
  int64_t complete_pairs = 0;
  int64_t incomplete_pairs = 0;
  int64_t duplicates = 0;  // lines left out
  int64_t torn = 0;        // segments whose torn last line was dropped
  std::vector<std::string> warnings;
  // "Merged 12 segments of 4 shards into OUT/journal.jsonl: 200 game lines, ..."
  std::string text() const;
};

// Merges the segments of OUT into OUT/journal.jsonl: written to a file of this process's own, synced, then renamed
// over the old one, so that a reader never sees half a journal and two merges never write one file. Only a journal
// that a merge wrote is replaced (a one-machine run's journal there holds games of its own).
std::expected<MergeReport, std::string> merge_segments(const std::string& out_dir);

}  // namespace arena::journal
