#include "web/journal_feed.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "tournament/report.h"
#include "tournament/segments.h"
#include "web/live_reporter.h"

namespace arena::web {

namespace fs = std::filesystem;

JournalFeed::JournalFeed(LiveState& state, std::string out) : state_(state), out_(std::move(out)) {}

std::vector<std::string> JournalFeed::files() const {
  std::vector<std::string> out;
  std::error_code ec;
  if (fs::is_regular_file(out_, ec)) return {out_};
  const fs::path segments = tournament::segments_dir(out_);
  if (fs::is_directory(segments, ec)) {
    for (const auto& entry : fs::directory_iterator(segments, ec))
      if (entry.path().extension() == ".jsonl") out.push_back(entry.path().string());
    std::sort(out.begin(), out.end());  // by shard, then by start
    out.push_back(tournament::decision_path(out_));
    return out;
  }
  return {(fs::path(out_) / "journal.jsonl").string()};
}

void JournalFeed::read_file(const std::string& path, File& file,
                            std::vector<std::pair<tournament::JournalGame, std::string>>& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return;  // not there yet
  std::error_code ec;
  if (const auto size = fs::file_size(path, ec); !ec && size < file.offset) file = File{};  // cut and rewritten
  in.seekg(std::streamoff(file.offset));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t start = 0;
  for (size_t nl = text.find('\n'); nl != std::string::npos; start = nl + 1, nl = text.find('\n', start)) {
    std::string line = text.substr(start, nl - start);
    ++file.lines;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    if (file.lines == 1 && line.find("\"journal\"") != std::string::npos) {
      auto header = tournament::parse_journal_header(line);
      if (!header) {
        warnings_.push_back(path + ":1: " + header.error());
      } else if (!standings_) {
        tournament::JournalContents contents;
        contents.header = std::move(*header);
        contents.header->shard.reset();
        standings_ = tournament::standings_of(contents);
      }
      continue;
    }
    auto game = tournament::parse_journal_game(line);
    if (!game) {
      warnings_.push_back(path + ":" + std::to_string(file.lines) + ": " + game.error());
      continue;
    }
    out.emplace_back(std::move(*game), std::move(line));
  }
  file.offset += start;  // a line without its newline yet is read again next time, whole
}

int64_t JournalFeed::poll() {
  std::vector<std::pair<tournament::JournalGame, std::string>> fresh;
  for (const std::string& path : files()) read_file(path, files_[path], fresh);
  int64_t added = 0;
  for (auto& [game, line] : fresh) {
    // Two processes may have played one pair (a requeued shard overlapping its predecessor), and the coordinator
    // copies decided pairs: one copy counts.
    if (!seen_.insert({game.pair, game.game_in_pair, game.attempt}).second) continue;
    if (!standings_) {
      tournament::JournalContents no_header;
      standings_ = tournament::standings_of(no_header);
    }
    standings_->tally.add(game);
    FinishedGame f;
    f.game = game.game;
    f.attempt = game.attempt;
    f.replay = game.replay;
    f.black = game.black;
    f.white = game.white;
    f.result = result_text(game.outcome);
    f.termination = std::string(to_string(game.termination));
    f.detail = game.detail;
    f.plies = game.plies;
    state_.add_finished(std::move(f), std::move(line));
    ++added;
  }
  games_ += added;
  if (added > 0 || (standings_ && games_ == 0)) publish_standings();
  return added;
}

void JournalFeed::set_note(std::string note) {
  if (note == note_) return;
  note_ = std::move(note);
  publish_standings();
}

void JournalFeed::publish_standings() {
  if (!standings_) {
    state_.set_standings({}, note_.empty() ? "waiting for the first games" : "waiting for the first games; " + note_);
    return;
  }
  tournament::Summary summary;
  summary.info = standings_->info;
  std::string status = tournament::status_line(standings_->tally, standings_->info);
  if (!note_.empty()) status += "\n" + note_;
  state_.set_standings(tournament::summary_json(standings_->tally, summary), status);
}

}  // namespace arena::web
