#include "web/journal_feed.h"

#include <algorithm>
#include <filesystem>

#include "journal/segments.h"
#include "journal/spsa_pair.h"
#include "standings/journal_stats.h"
#include "standings/summary.h"
#include "web/live_state.h"

namespace arena::web {

namespace fs = std::filesystem;

JournalFeed::JournalFeed(LiveState& state, std::string out)
    : state_(state), out_(std::move(out)), decision_path_(journal::decision_path(out_)) {}

std::vector<std::string> JournalFeed::files() const {
  std::vector<std::string> out;
  std::error_code ec;
  if (fs::is_regular_file(out_, ec)) return {out_};
  const fs::path segments = journal::segments_dir(out_);
  if (fs::is_directory(segments, ec)) {
    for (const auto& entry : fs::directory_iterator(segments, ec))
      if (journal::is_segment_name(entry.path().filename().string())) out.push_back(entry.path().string());
    std::sort(out.begin(), out.end());  // by shard, then by start
    out.push_back(decision_path_);
    return out;
  }
  return {(fs::path(out_) / "journal.jsonl").string()};
}

void JournalFeed::read_file(const std::string& path, File& file, std::vector<NewLine>& out) {
  if (file.ignored) return;
  if (!file.tail) file.tail = std::make_unique<journal::FileTail>(path);
  for (journal::FileTail::Line& l : file.tail->read_new()) {
    if (l.text.find_first_not_of(" \t\r") == std::string::npos) continue;
    const std::string where = path + ":" + std::to_string(l.number) + ": ";
    if (l.number == 1 && l.text.find("\"journal\"") != std::string::npos) {
      auto header = journal::parse_journal_header(l.text);
      if (!header) {
        warnings_.push_back(where + header.error());
        continue;
      }
      if (!header_) {
        header_ = std::move(*header);
        header_->shard.reset();
      } else if (std::string d = journal::run_difference(*header_, *header, "the first file read"); !d.empty()) {
        warnings_.push_back(path + ": written for another run: " + d + "; left out");
        file.ignored = true;
        return;
      }
      continue;
    }
    // A game's line, or an SPSA pair's, which holds its two games: taken whole or left out whole.
    std::vector<journal::JournalGame> games;
    std::vector<std::string> game_lines;
    if (journal::is_spsa_pair_line(l.text)) {
      const size_t params = header_ && header_->spsa ? header_->spsa->params.size() : 0;
      auto pair = journal::parse_spsa_pair_line(l.text, params, /*game_lines=*/true);
      if (!pair) {
        warnings_.push_back(where + pair.error());
        continue;
      }
      games = std::move(pair->games);
      game_lines = std::move(pair->game_lines);
    } else {
      auto game = journal::parse_journal_game(l.text);
      if (!game) {
        warnings_.push_back(where + game.error());
        continue;
      }
      games.push_back(std::move(*game));
      game_lines.push_back(std::move(l.text));
    }
    std::string foreign;
    for (size_t i = 0; i < games.size() && foreign.empty(); ++i)
      foreign = journal::foreign_game(games[i], header_ ? &*header_ : nullptr);
    if (!foreign.empty()) {
      warnings_.push_back(where + foreign + "; left out");
      continue;
    }
    for (size_t i = 0; i < games.size(); ++i)
      out.push_back({std::move(games[i]), std::move(game_lines[i]), path == decision_path_});
  }
}

std::vector<size_t> JournalFeed::kept(int64_t pair, bool& from_decision) const {
  from_decision = decided_.contains(pair);
  const auto& source = from_decision ? decided_ : lines_;
  auto it = source.find(pair);
  if (it == source.end()) return {};
  std::vector<const journal::JournalGame*> lines;
  lines.reserve(it->second.size());
  for (const auto& g : it->second) lines.push_back(&g);
  bool complete = false;
  return journal::kept_pair_lines(lines, header_ ? header_->games_per_pair : 2, complete);
}

int64_t JournalFeed::poll() {
  std::vector<NewLine> fresh;
  for (const std::string& path : files()) read_file(path, files_[path], fresh);
  for (NewLine& n : fresh) {
    auto& lines = (n.decided ? decided_ : lines_)[n.game.pair];
    n.index = lines.size();
    lines.push_back(n.game);
  }
  for (NewLine& n : fresh) {
    // The list shows each game once: a copy from an overlapping process, or one the merge leaves out, is not added.
    bool from_decision = false;
    const std::vector<size_t> kept_lines = kept(n.game.pair, from_decision);
    if (from_decision != n.decided || std::find(kept_lines.begin(), kept_lines.end(), n.index) == kept_lines.end())
      continue;
    if (!listed_.insert({n.game.pair, n.game.game_in_pair, n.game.attempt}).second) continue;
    state_.add_finished({std::move(n.line), n.game});
  }
  if (!fresh.empty() || (header_ && standings_.is_null())) tally();
  return int64_t(fresh.size());
}

// The standings from every pair's kept lines, as `stats OUT` computes them from the same files.
void JournalFeed::tally() {
  journal::JournalContents contents;
  contents.header = header_;
  standings::JournalStandings st = standings::standings_of(contents);
  counted_ = 0;
  std::set<int64_t> pairs;
  for (const auto& [pair, lines] : lines_) pairs.insert(pair);
  for (const auto& [pair, lines] : decided_) pairs.insert(pair);
  for (int64_t pair : pairs) {
    bool from_decision = false;
    const auto& lines = (decided_.contains(pair) ? decided_ : lines_).at(pair);
    for (size_t i : kept(pair, from_decision)) {
      st.tally.add(lines[i]);
      ++counted_;
    }
  }
  standings::Summary summary;
  summary.info = st.info;
  standings_ = standings::summary_value(st.tally, summary);
  status_ = standings::status_line(st.tally, st.info);
  publish_standings();
}

void JournalFeed::set_note(std::string note) {
  if (note == note_) return;
  note_ = std::move(note);
  publish_standings();
}

void JournalFeed::publish_standings() {
  const std::string status = status_.empty() ? "waiting for the first games" : status_;
  state_.set_standings(standings_, note_.empty() ? status : status + "\n" + note_);
}

}  // namespace arena::web
