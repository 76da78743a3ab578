#pragma once
// The journal of a sharded run: a directory of segments, one per start of a shard, merged when read.
//
//   OUT/segments/shard-<I>-of-<N>.<start, UTC yyyymmddThhmmssZ>.<host>.<pid>.jsonl
//
// I is zero-padded to the width of N-1, so that names sort by shard. A segment is an ordinary journal
// (journal.h) whose header also has "shard":{"index":I,"count":N}. No two processes ever write one file: a
// requeued Slurm task that overlaps its predecessor, or a shard started twice, writes its own segment.
//
// Reading (`merge`, `stats` on a directory, a shard's --resume) takes every segment of the directory:
// - it drops a torn last line (a write cut by kill -9), as reading one journal does;
// - it refuses a segment written for another run (schedule, settings, an engine binary or the openings file),
//   with one line naming the file and the difference;
// - it keeps, per pair, one history of it: for each (attempt, game in pair) the first line read (segments in
//   order of their start), and the attempts up to the first complete one that is not void. A second copy of a
//   line, or an attempt beyond the one kept, is a duplicate (two processes played the pair): counted, left out.
// - it takes the pairs an SPRT was decided on from OUT/sprt-decision.jsonl when that exists (decision_path).
// The result is what a one-machine journal of the same games holds, in pair order, so every statistic is
// computed from it by the same code as for one machine, never by combining the shards' own figures.

#include <chrono>
#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <vector>

#include "journal/journal.h"
#include "journal/shard.h"

namespace arena::journal {

struct SegmentFile {
  std::string path;
  JournalHeader header;
  int64_t games = 0;  // lines read
  bool torn = false;  // its last line was cut off
};

struct MergedJournal {
  std::optional<JournalHeader> header;  // the first segment's, without "shard"; nullopt when there is none
  std::vector<SegmentFile> segments;    // in the order read
  std::vector<JournalGame> games;       // kept, in pair order (per pair: attempt, then game in pair)
  std::vector<std::string> lines;       // their lines as written, when read with keep_lines
  int64_t duplicates = 0;               // lines left out
  int64_t complete_pairs = 0;           // pairs whose kept history ends in a complete, valid attempt
  int64_t incomplete_pairs = 0;         // pairs with games but no complete attempt (yet)
  int64_t decided_pairs = 0;            // pairs taken from OUT/sprt-decision.jsonl
  std::vector<std::string> warnings;    // torn lines, empty segments
};

// OUT/segments.
std::string segments_dir(const std::string& out_dir);
// OUT/sprt-decision.jsonl: the lines of the pairs a cluster's SPRT was decided on, written by the coordinator
// before OUT/STOP. When it exists, those pairs are taken from it rather than from the segments, so that the merged
// journal gives the verdict the coordinator acted on even if an overlapping process journals a copy of one later.
std::string decision_path(const std::string& out_dir);
// OUT/spsa-applied.jsonl: an SPSA run's pairs as its coordinator applied them, each once, with theta after it
// (spsa/applier.h). A sharded SPSA run is read from it rather than from the segments, whose lines have no theta.
std::string spsa_applied_path(const std::string& out_dir);
// The path of a new segment for a shard starting now on this host.
std::string new_segment_path(const std::string& out_dir, const Shard& shard);
// This machine's name (for segment names and headers).
std::string host_name();
// A UTC time to the second: "2026-11-26T07:05:09Z", or "20261126T070509Z" (compact, for file names).
std::string utc_time(std::chrono::system_clock::time_point t, bool compact);

// Whether two headers describe the same run: schedule, type, engines, games and (where both have it) the
// identity. Empty when they do, else the difference in a few words (`recorded_name` names the first).
std::string run_difference(const JournalHeader& recorded, const JournalHeader& now, const std::string& recorded_name);

// Whether a file name is a segment's (shard-<I>-of-<N>.<start>.<host>.<pid>.jsonl).
bool is_segment_name(const std::string& file_name);

// The merge's rule for one pair: of its lines in reading order, the ones kept (their indices, in the merged order):
// per attempt in ascending order, the first line of each game of the pair and none after a line that voided the
// attempt, up to the first complete attempt that is not void. `complete`: whether the kept history ends in one.
std::vector<size_t> kept_pair_lines(const std::vector<const JournalGame*>& lines, int games_per_pair, bool& complete);

// Reads and merges every segment in OUT/segments. `expected`: every segment must belong to this run (a shard
// checks the directory against itself before it adds to it); without it, every segment must agree with the first.
// No segment at all is not an error (a shard that starts first finds none): the result is then empty.
std::expected<MergedJournal, std::string> read_segments(const std::string& out_dir, const JournalHeader* expected,
                                                        bool keep_lines = false);

}  // namespace arena::journal
