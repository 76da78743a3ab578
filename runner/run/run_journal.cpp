#include "run/run_journal.h"

#include "journal/run_start.h"
#include "journal/segments.h"

namespace arena::run {

std::expected<RunJournal, std::string> open_run_journal(const config::Config& config,
                                                        const provision::Findings& findings,
                                                        journal::JournalHeader header,
                                                        const std::optional<journal::Shard>& shard,
                                                        const std::string& records_dir) {
  if (auto made = journal::make_output_folders(config, records_dir); !made) return std::unexpected(made.error());
  if (auto stamped = journal::stamp_header(header, config, findings.written_time_controls()); !stamped)
    return std::unexpected(stamped.error());
  header.builds = findings.builds(config);
  header.scale_tc = findings.time_scale(config);
  RunJournal out;
  if (shard) {
    header.shard = *shard;
    auto merged =
        journal::read_segments_to_resume(config.output.dir, header, *shard, config.resume, config.overwrite);
    if (!merged) return std::unexpected(merged.error());
    out.games = std::move(merged->games);
    out.warnings = std::move(merged->warnings);
    out.path = journal::new_segment_path(config.output.dir, *shard);
    auto writer = journal::JournalWriter::create(out.path, header, true);
    if (!writer) return std::unexpected(writer.error());
    out.writer = std::move(*writer);
    return out;
  }
  out.path = config.output.journal;
  auto resumed =
      journal::read_journal_to_resume(config.output.dir, out.path, header, config.resume, config.overwrite);
  if (!resumed) return std::unexpected(resumed.error());
  if (!*resumed) {
    auto writer = journal::JournalWriter::create(out.path, header);
    if (!writer) return std::unexpected(writer.error());
    out.writer = std::move(*writer);
    return out;
  }
  out.resumed = std::move(**resumed);
  out.games = out.resumed->games;
  out.warnings = out.resumed->warnings;
  auto writer = journal::JournalWriter::append_to(out.path, out.resumed->valid_size);
  if (!writer) return std::unexpected(writer.error());
  out.writer = std::move(*writer);
  return out;
}

}  // namespace arena::run
