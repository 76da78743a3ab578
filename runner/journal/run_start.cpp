#include "journal/run_start.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>

#include "journal/run_identity.h"

namespace arena::journal {

namespace fs = std::filesystem;

std::string created_now() { return utc_time(std::chrono::system_clock::now(), false); }

std::expected<void, std::string> make_output_folders(const config::Config& config, const std::string& records_dir) {
  std::error_code ec;
  fs::create_directories(config.output.dir, ec);
  if (ec) return std::unexpected(config.output.dir + ": cannot create the output directory: " + ec.message());
  for (const fs::path& folder : {fs::path(records_dir), fs::path(config.output.journal).parent_path()}) {
    if (folder.empty()) continue;
    fs::create_directories(folder, ec);
    if (ec) return std::unexpected(folder.string() + ": cannot create the folder: " + ec.message());
  }
  return {};
}

std::expected<void, std::string> stamp_header(JournalHeader& header, const config::Config& config,
                                              const std::vector<game::TimeControl>& written) {
  header.created = created_now();
  header.host = host_name();
  header.pid = int64_t(::getpid());
  auto identity = make_run_identity(config, written);
  if (!identity) return std::unexpected(identity.error());
  header.identity = std::move(*identity);
  return {};
}

std::expected<std::optional<JournalContents>, std::string> read_journal_to_resume(const std::string& out_dir,
                                                                                  const std::string& path,
                                                                                  const JournalHeader& header,
                                                                                  bool resume, bool overwrite) {
  std::error_code ec;
  bool exists = fs::exists(path, ec) && fs::file_size(path, ec) > 0;
  if (exists && !overwrite) {
    // A journal without a single game (its run stopped while the engines started: a bad option, a missing
    // binary) holds nothing to continue or to lose: the corrected command starts afresh over it, resumed or not.
    if (auto was = read_journal(path); was && was->games.empty() && was->spsa_pairs.empty()) exists = false;
  }
  if (exists && !resume && !overwrite)
    return std::unexpected(path +
                           ": the journal already exists; use --resume to continue that run or --overwrite "
                           "to start afresh (or choose another --out)");
  if (fs::exists(segments_dir(out_dir), ec))
    return std::unexpected(out_dir +
                           ": holds the journal segments of a sharded run; continue it with --shard (e.g. --shard 0/1 "
                           "--resume), read it with `stats` or `merge`, or use another --out");
  if (!exists || !resume) return std::optional<JournalContents>{};
  auto contents = read_journal(path);
  if (!contents) return std::unexpected(contents.error());
  if (!contents->header) return std::unexpected(path + ": the journal has no header line; cannot resume it");
  const JournalHeader& was = *contents->header;
  if (was.merged_segments > 0)
    return std::unexpected(path + ": a journal merged from shards; continue the run with --shard, not here");
  if (!was.type.empty() && was.type != header.type)
    return std::unexpected(path + ": the journal of another kind of run (" + was.type + ", not " + header.type +
                           "); choose another --out or --overwrite it");
  // The settings first: their difference is named, where the schedule's digest can only say that it differs.
  if (was.identity && header.identity)
    if (std::string d = identity_difference(*was.identity, *header.identity); !d.empty())
      return std::unexpected(path + ": the journal was written by another run: " + d +
                             "; resume with the same builds and settings, or use --out");
  if (was.schedule != header.schedule)
    return std::unexpected(path +
                           ": the journal was written for a different schedule (engines, openings, rounds or "
                           "pairs, order or seed differ); resume with the same settings, or use --out");
  return std::optional<JournalContents>(std::move(*contents));
}

std::expected<MergedJournal, std::string> read_segments_to_resume(const std::string& out_dir,
                                                                  const JournalHeader& header, const Shard& shard,
                                                                  bool resume, bool overwrite) {
  const std::string dir = segments_dir(out_dir);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return std::unexpected(dir + ": cannot create the folder: " + ec.message());
  auto merged = read_segments(out_dir, &header);
  if (!merged) return std::unexpected(merged.error());
  int64_t owned = 0;
  for (const JournalGame& g : merged->games) owned += shard.owns_pair(g.pair) ? 1 : 0;
  if (owned > 0 && !resume) {
    if (!overwrite)
      return std::unexpected(dir + ": shard " + shard.text() + " already has " + std::to_string(owned) +
                             " games there; use --resume to continue it, --overwrite to delete this shard's "
                             "segments, or another --out");
    for (const SegmentFile& f : merged->segments)
      if (f.header.shard && f.header.shard->index == shard.index && f.header.shard->count == shard.count)
        fs::remove(f.path, ec);
    merged = read_segments(out_dir, &header);
    if (!merged) return std::unexpected(merged.error());
  }
  if (merged->duplicates > 0)
    merged->warnings.push_back(dir + ": " + std::to_string(merged->duplicates) +
                               " duplicate game lines (a pair played by two processes) left out");
  return std::move(*merged);
}

}  // namespace arena::journal
