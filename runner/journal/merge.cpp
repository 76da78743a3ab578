#include "journal/merge.h"

#include <filesystem>
#include <set>

#include "journal/file_tail.h"
#include "journal/segments.h"
#include "output/atomic_file.h"

namespace arena::journal {

namespace fs = std::filesystem;

std::expected<JournalScan, std::string> scan_games(const std::string& path, JournalVisitor& visitor, bool with_lines) {
  std::error_code ec;
  if (!fs::is_directory(path, ec)) return scan_journal(path, visitor, with_lines);
  // A sharded SPSA run: its coordinator's journal has every pair once, with theta.
  if (const std::string applied = spsa_applied_path(path); fs::exists(applied, ec))
    return scan_journal(applied, visitor, with_lines);
  const std::string journal = (fs::path(path) / "journal.jsonl").string();
  if (!fs::exists(segments_dir(path), ec) && fs::exists(journal, ec)) return scan_journal(journal, visitor, with_lines);
  auto merged = read_segments(path, nullptr, with_lines);
  if (!merged) return std::unexpected(merged.error());
  if (merged->segments.empty()) {
    if (fs::exists(journal, ec)) return scan_journal(journal, visitor, with_lines);
    return std::unexpected(path + ": neither journal segments (segments/shard-*.jsonl) nor a journal.jsonl");
  }
  if (merged->header) visitor.header(*merged->header);
  for (size_t i = 0; i < merged->games.size(); ++i)
    visitor.game(std::move(merged->games[i]), with_lines ? std::move(merged->lines[i]) : std::string());
  JournalScan scan;
  scan.warnings = std::move(merged->warnings);
  if (merged->duplicates > 0)
    scan.warnings.push_back(path + ": " + std::to_string(merged->duplicates) + " duplicate game lines left out");
  return scan;
}

std::expected<JournalContents, std::string> read_games(const std::string& path, bool keep_lines) {
  JournalCollector collector(keep_lines);
  auto scan = scan_games(path, collector, keep_lines);
  if (!scan) return std::unexpected(scan.error());
  return std::move(collector).finish(std::move(*scan));
}

std::string MergeReport::text() const {
  return "Merged " + std::to_string(segments) + " segments of " + std::to_string(shards) + " shards into " + path +
         ": " + std::to_string(games) + " game lines, " + std::to_string(complete_pairs) + " complete pairs, " +
         std::to_string(incomplete_pairs) + " incomplete, " + std::to_string(duplicates) +
         " duplicate lines left out, " + std::to_string(torn) + " torn last lines dropped";
}

std::expected<MergeReport, std::string> merge_segments(const std::string& out_dir) {
  auto merged = read_segments(out_dir, nullptr, true);
  if (!merged) return std::unexpected(merged.error());
  if (merged->segments.empty())
    return std::unexpected(segments_dir(out_dir) + ": no journal segments (shard-*.jsonl) to merge");
  MergeReport report;
  report.warnings = merged->warnings;
  report.path = (fs::path(out_dir) / "journal.jsonl").string();
  std::error_code ec;
  if (fs::exists(report.path, ec)) {
    auto old = read_journal(report.path);
    if (!old || !old->header || old->header->merged_segments == 0)
      return std::unexpected(report.path + ": exists and is not a merged journal; merge into another directory");
  }
  JournalHeader header = *merged->header;
  header.merged_segments = int64_t(merged->segments.size());
  // A sharded SPSA run's journal is its coordinator's: each pair once, in the order applied, with theta after it.
  std::vector<std::string> lines = std::move(merged->lines);
  if (const std::string applied = spsa_applied_path(out_dir); header.spsa && fs::exists(applied, ec)) {
    if (auto valid = read_journal(applied); !valid) return std::unexpected(valid.error());
    lines.clear();
    for (FileTail tail(applied); const FileTail::Line& l : tail.read_new())  // complete lines: a torn one is left
      if (l.number > 1 && l.text.find_first_not_of(" \t\r") != std::string::npos) lines.push_back(l.text);
  }
  std::string text = to_json(header) + "\n";
  for (const std::string& line : lines) text += line + "\n";
  if (auto written = output::write_file_atomically(report.path, text); !written)
    return std::unexpected(written.error());
  std::set<std::pair<int, int>> shards;
  for (const SegmentFile& f : merged->segments) {
    if (f.header.shard) shards.insert({f.header.shard->index, f.header.shard->count});
    report.torn += f.torn ? 1 : 0;
  }
  report.segments = int64_t(merged->segments.size());
  report.shards = int64_t(shards.size());
  report.games = int64_t(merged->games.size());
  report.complete_pairs = merged->complete_pairs;
  report.incomplete_pairs = merged->incomplete_pairs;
  report.duplicates = merged->duplicates;
  return report;
}

}  // namespace arena::journal
