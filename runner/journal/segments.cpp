#include "journal/segments.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <map>
#include <tuple>

namespace arena::journal {

namespace fs = std::filesystem;

namespace {

int digits(int64_t n) {
  int d = 1;
  while (n >= 10) n /= 10, ++d;
  return d;
}


// A host name as a file-name part: letters, digits, '-' and '_' kept, the rest replaced.
std::string file_part(std::string text) {
  for (char& c : text)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '_';
  return text.empty() ? "host" : text;
}

// A line read from a segment, before the choice of one history per pair.
struct Candidate {
  const JournalGame* game;
  const std::string* line;  // null unless lines are kept
};

}  // namespace

std::string segments_dir(const std::string& out_dir) { return (fs::path(out_dir) / "segments").string(); }

std::string decision_path(const std::string& out_dir) { return (fs::path(out_dir) / "sprt-decision.jsonl").string(); }

std::string utc_time(std::chrono::system_clock::time_point t, bool compact) {
  const auto now = std::chrono::floor<std::chrono::seconds>(t);
  const auto day = std::chrono::floor<std::chrono::days>(now);
  const std::chrono::year_month_day ymd{day};
  const std::chrono::hh_mm_ss hms{now - day};
  char buf[32];
  std::snprintf(buf, sizeof buf, compact ? "%04d%02u%02uT%02d%02d%02dZ" : "%04d-%02u-%02uT%02d:%02d:%02dZ",
                int(ymd.year()), unsigned(ymd.month()), unsigned(ymd.day()), int(hms.hours().count()),
                int(hms.minutes().count()), int(hms.seconds().count()));
  return buf;
}

std::string host_name() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0) return "host";
  return buf;
}

std::string spsa_applied_path(const std::string& out_dir) {
  return (fs::path(out_dir) / "spsa-applied.jsonl").string();
}

std::string new_segment_path(const std::string& out_dir, const Shard& shard) {
  char index[32];
  std::snprintf(index, sizeof index, "%0*d", digits(shard.count - 1), shard.index);
  const std::string name = "shard-" + std::string(index) + "-of-" + std::to_string(shard.count) + "." +
                           utc_time(std::chrono::system_clock::now(), true) + "." + file_part(host_name()) + "." +
                           std::to_string(::getpid()) + ".jsonl";
  return (fs::path(segments_dir(out_dir)) / name).string();
}

std::string run_difference(const JournalHeader& was, const JournalHeader& now, const std::string& was_name) {
  if (was.schedule != now.schedule)
    return "another schedule (engines, openings, rounds, order or seed differ: " + was.schedule + " vs " +
           now.schedule + ")";
  if (was.type != now.type) return "another tournament type (" + was.type + " vs " + now.type + ")";
  if (was.engines != now.engines || was.games != now.games || was.games_per_pair != now.games_per_pair)
    return "another engine list or game count";
  if (was.identity && now.identity) return identity_difference(*was.identity, *now.identity, was_name);
  if (was.identity.has_value() != now.identity.has_value())
    return "one header records the engine binaries and the other does not (a journal from an older version)";
  return {};
}

bool is_segment_name(const std::string& name) {
  return name.starts_with("shard-") && name.ends_with(".jsonl") && name.find("-of-") != std::string::npos;
}

std::vector<size_t> kept_pair_lines(const std::vector<const JournalGame*>& lines, int games_per_pair, bool& complete) {
  // The pair's attempts in order, each with its lines in reading order.
  std::map<int, std::vector<size_t>> attempts;
  for (size_t i = 0; i < lines.size(); ++i) attempts[lines[i]->attempt].push_back(i);
  std::vector<size_t> kept;
  complete = false;
  for (const auto& [attempt, indices] : attempts) {
    if (complete) break;  // beyond the kept attempt: another process's play of the pair
    // One line per game of the attempt, and none after the line that voided it (on one machine the pair is
    // replayed at once after it; a later line is another process's).
    bool taken[2] = {false, false}, voided = false;
    int games = 0;
    for (size_t i : indices) {
      const JournalGame& g = *lines[i];
      if (voided || taken[g.game_in_pair]) continue;
      taken[g.game_in_pair] = true;
      ++games;
      voided = g.replay;
      kept.push_back(i);
    }
    complete = games == games_per_pair && !voided;
  }
  return kept;
}

std::expected<MergedJournal, std::string> read_segments(const std::string& out_dir, const JournalHeader* expected,
                                                        bool keep_lines) {
  MergedJournal merged;
  const fs::path dir = segments_dir(out_dir);
  std::error_code ec;
  if (!fs::exists(dir, ec)) return merged;
  std::vector<std::string> paths;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (is_segment_name(it->path().filename().string())) paths.push_back(it->path().string());
  if (ec) return std::unexpected(dir.string() + ": cannot list the segments: " + ec.message());

  struct Read {
    std::string path;
    JournalContents contents;
  };
  std::vector<Read> reads;
  for (const std::string& path : paths) {
    auto contents = read_journal(path, keep_lines);
    if (!contents) return std::unexpected(contents.error());
    for (std::string& w : contents->warnings) merged.warnings.push_back(std::move(w));
    if (!contents->header) {
      // Created and killed before its header was written, or with the header torn: it holds nothing.
      if (contents->games.empty()) {
        merged.warnings.push_back(path + ": an empty segment (its process died at once), ignored");
        continue;
      }
      return std::unexpected(path + ": a segment without its header line");
    }
    reads.push_back({path, std::move(*contents)});
  }
  // Start order (then name): a duplicate keeps the line of the segment that started first.
  std::sort(reads.begin(), reads.end(), [](const Read& a, const Read& b) {
    return std::tie(a.contents.header->created, a.path) < std::tie(b.contents.header->created, b.path);
  });

  // Each segment against this run (the segment is "recorded", the run is "now"), or against the first segment
  // (then the first is "recorded" and the segment at fault "now").
  const JournalHeader* first = nullptr;
  for (const Read& r : reads) {
    const JournalHeader& h = *r.contents.header;
    std::string d;
    if (expected) {
      d = run_difference(h, *expected, "the segment");
    } else if (!first) {
      first = &h;
    } else {
      d = run_difference(*first, h, "the first segment");
    }
    if (!d.empty())
      return std::unexpected(expected ? r.path + ": written for another run than this one: " + d +
                                            "; use another output directory for a new run"
                                      : r.path + " and " + reads.front().path + " belong to different runs: " + d);
  }

  // Per pair, in reading order: the candidate lines.
  std::map<int64_t, std::vector<Candidate>> pairs;
  for (const Read& r : reads) {
    merged.segments.push_back({r.path, *r.contents.header, int64_t(r.contents.games.size()), r.contents.torn});
    for (size_t i = 0; i < r.contents.games.size(); ++i)
      pairs[r.contents.games[i].pair].push_back({&r.contents.games[i], keep_lines ? &r.contents.lines[i] : nullptr});
  }
  // The lines an SPRT was decided on are the history of their pairs, whatever arrived since: a late line of an
  // overlapping process must not change a verdict the coordinator has already acted on.
  std::optional<JournalContents> decision;
  if (const std::string path = decision_path(out_dir); !reads.empty() && fs::exists(path, ec)) {
    auto d = read_journal(path, keep_lines);
    if (!d) return std::unexpected(d.error());
    if (!d->header) return std::unexpected(path + ": no header line");
    if (std::string diff = run_difference(*reads.front().contents.header, *d->header, "the first segment");
        !diff.empty())
      return std::unexpected(path + " and " + reads.front().path + " belong to different runs: " + diff);
    decision = std::move(*d);
    std::map<int64_t, std::vector<Candidate>> decided;
    for (size_t i = 0; i < decision->games.size(); ++i)
      decided[decision->games[i].pair].push_back({&decision->games[i], keep_lines ? &decision->lines[i] : nullptr});
    for (auto& [pair, lines] : decided) {
      // The decision's lines are also in the segments: the others of the pair are left out as duplicates.
      merged.duplicates += std::max<int64_t>(0, int64_t(pairs[pair].size()) - int64_t(lines.size()));
      pairs[pair] = std::move(lines);
    }
    merged.decided_pairs = int64_t(decided.size());
  }
  const int gpp = reads.empty() ? 2 : reads.front().contents.header->games_per_pair;
  for (auto& [pair, candidates] : pairs) {
    std::vector<const JournalGame*> games;
    games.reserve(candidates.size());
    for (const Candidate& c : candidates) games.push_back(c.game);
    bool complete = false;
    const std::vector<size_t> kept = kept_pair_lines(games, gpp, complete);
    merged.duplicates += int64_t(candidates.size() - kept.size());
    for (size_t i : kept) {
      merged.games.push_back(*candidates[i].game);
      if (keep_lines) merged.lines.push_back(*candidates[i].line);
    }
    ++(complete ? merged.complete_pairs : merged.incomplete_pairs);
  }
  if (!reads.empty()) {
    merged.header = *reads.front().contents.header;
    merged.header->shard.reset();
  }
  return merged;
}

}  // namespace arena::journal
