#pragma once
// The journal a run writes, opened as every kind of run opens it: a new journal in OUT, the one there read back
// for --resume, or, for a shard of a cluster run, a new segment of its own after every segment of the directory
// read back (journal/segments.h).

#include <expected>
#include <optional>
#include <string>
#include <vector>

#include "config/config.h"
#include "journal/journal.h"
#include "journal/shard.h"
#include "provision/findings.h"

namespace arena::run {

struct RunJournal {
  journal::JournalWriter writer;
  std::string path;  // OUT/journal.jsonl (or --journal), or the shard's new segment
  // What was journaled before this start: the journal's games (--resume), or the games of every segment (a
  // shard), whichever process played them.
  std::vector<journal::JournalGame> games;
  // The journal read back for --resume (nullopt: a new journal, or a shard).
  std::optional<journal::JournalContents> resumed;
  std::vector<std::string> warnings;  // torn lines, duplicated pairs
};

// Creates the output folders (and `records_dir`), then the journal, as above. The header is stamped here
// (journal/run_start.h stamp_header) and gets what provisioning found; a shard's gets its shard. The error is one
// line naming the file.
std::expected<RunJournal, std::string> open_run_journal(const config::Config& config,
                                                        const provision::Findings& findings,
                                                        journal::JournalHeader header,
                                                        const std::optional<journal::Shard>& shard,
                                                        const std::string& records_dir);

}  // namespace arena::run
