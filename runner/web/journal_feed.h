#pragma once
// The live page of a run that other processes play: the shards of a Slurm run, followed by `shogi-arena slurm`.
// It reads only what the journal files gained since its last look (each file's offset is kept; a line still being
// written waits for its newline), so a look costs the new lines, not the whole journal.
//
// What it publishes: the standings, tallied from the games kept by the merge's rule (journal/segments.h: per
// pair, one line per game and attempt, up to the first complete valid attempt; the pairs an SPRT was decided on
// from OUT/sprt-decision.jsonl), so that the page agrees with `stats OUT` on the same files; and the finished games
// as they arrive, each replayable from its line. The shards publish no boards, so the page shows no game in
// progress; the status line says so.
//
// Files read: OUT/segments/shard-*.jsonl and OUT/sprt-decision.jsonl for a sharded run, else OUT/journal.jsonl (or
// OUT itself when it is a journal file). A file written for another run than the first one read is left out with
// a warning.

#include <boost/json/value.hpp>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "journal/file_tail.h"
#include "journal/journal.h"
#include "web/live_state.h"

namespace arena::web {

class JournalFeed {
 public:
  JournalFeed(LiveState& state, std::string out);

  // Reads what was appended since the last call and publishes it; returns the number of new game lines. Never
  // throws: a file that cannot be read now is read at the next call, and a line that is neither a header nor a
  // game (or an SPSA pair's, which gives its two games), or a game no run under the header writes, is left out
  // with a warning (warnings()).
  int64_t poll();
  // A line the page shows under the status, e.g. the Slurm shards' states; kept until changed.
  void set_note(std::string note);

  int64_t games() const { return counted_; }  // games the standings count
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  struct File {
    std::unique_ptr<journal::FileTail> tail;
    bool ignored = false;  // written for another run
  };
  struct NewLine {
    journal::JournalGame game;
    std::string line;
    bool decided = false;  // from the coordinator's decision file
    size_t index = 0;      // among its pair's lines of its source
  };
  std::vector<std::string> files() const;
  void read_file(const std::string& path, File& file, std::vector<NewLine>& out);
  // The indices of the lines of `pair` the merge keeps, and the source they index (the decision file's lines of a
  // pair it decided on, else the segments').
  std::vector<size_t> kept(int64_t pair, bool& from_decision) const;
  void tally();
  void publish_standings();

  LiveState& state_;
  const std::string out_;
  const std::string decision_path_;
  std::map<std::string, File> files_;
  std::optional<journal::JournalHeader> header_;                  // the first read (every file starts with one)
  std::map<int64_t, std::vector<journal::JournalGame>> lines_;    // per pair, in reading order
  std::map<int64_t, std::vector<journal::JournalGame>> decided_;  // the decision file's, per pair
  std::set<std::tuple<int64_t, int, int>> listed_;                // (pair, game in pair, attempt) on the page's list
  boost::json::value standings_;  // null until the first tally
  std::string status_, note_;
  int64_t counted_ = 0;
  std::vector<std::string> warnings_;
};

}  // namespace arena::web
