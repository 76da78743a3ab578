#pragma once
// The live page of a run that other processes play: the shards of a Slurm run, followed by `shogi-arena slurm`.
// It reads only what the journal files gained since its last look (each file's offset is kept; a line still being
// written waits for its newline), so following a run of any length costs per new game, not per game played.
//
// What it publishes: the standings (tallied game by game as the lines arrive: a copy of a line that another
// process also wrote counts once) and the finished games, each replayable from its line. The shards do not
// publish their boards, so the page shows no game in progress; the status line says so.
//
// Files read: OUT/segments/*.jsonl and OUT/sprt-decision.jsonl for a sharded run, else OUT/journal.jsonl (or OUT
// itself when it is a journal file).

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "tournament/journal_stats.h"
#include "web/live_state.h"

namespace arena::web {

class JournalFeed {
 public:
  JournalFeed(LiveState& state, std::string out);

  // Reads what was appended since the last call and publishes it; returns the number of new games. Never throws:
  // a file that cannot be read now is read at the next call, and a line that is neither a header nor a game is
  // left out with a warning (warnings()).
  int64_t poll();
  // What the page says below the standings, e.g. the Slurm shards' states; kept until changed.
  void set_note(std::string note);

  int64_t games() const { return games_; }
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  struct File {
    uint64_t offset = 0;   // bytes read up to the end of the last complete line
    int64_t lines = 0;     // complete lines read
  };
  std::vector<std::string> files() const;
  void read_file(const std::string& path, File& file, std::vector<std::pair<tournament::JournalGame, std::string>>& out);
  void publish_standings();

  LiveState& state_;
  const std::string out_;
  std::map<std::string, File> files_;
  std::optional<tournament::JournalStandings> standings_;  // from the first header read (every file starts with one)
  std::set<std::tuple<int64_t, int, int>> seen_;           // (pair, game in pair, attempt)
  std::string note_;
  int64_t games_ = 0;
  std::vector<std::string> warnings_;
};

}  // namespace arena::web
