#pragma once
// When a Floodgate group pairs its waiting players, and the settings of its games: shogi-server's
// `<game_name>.conf` (floodgate.md §2), its built-in schedules, or a fixed interval for tests and short events.
//
// A `.conf` file has one entry per line:
//   Thu 22:00                          a weekly pairing time, server-local (Sun..Sat or Sunday..Saturday)
//   set pairing_factory least_diff_pairing
//   set sacrifice gps500+e293220e3f8a3e59f79f6b0efffaa931
//   set max_moves 256
//   set least_time_per_move 0
//   # a comment
// shogi-server only warns about a line it does not understand and silently skips an unknown day or an hour out
// of range; here every such line is an error naming the file and line, so a typo cannot leave a league unpaired.

#include <chrono>
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace arena::csa::league {

using WallTime = std::chrono::system_clock::time_point;

// The settings every game of a group is played with, whatever the server's own --max-moves says (as on
// Floodgate, where the league's values always reach the board).
struct GroupSettings {
  std::string pairing_factory = "default_factory";
  std::string sacrifice = "gps500+e293220e3f8a3e59f79f6b0efffaa931";  // left out first when the count is odd
  int max_moves = 256;
  int least_time_per_move = 0;
};

class Schedule {
 public:
  // shogi-server's default when there is no `.conf`: every 30 minutes, at :00 and :30 local time.
  static Schedule every_half_hour();
  // Every `interval` from the epoch (a 10 s interval pairs at :00, :10, :20 ... of each minute).
  static Schedule every(std::chrono::seconds interval, GroupSettings settings = {});
  // A `.conf` file's text; `file` names it in errors ("file:line: what was expected").
  static std::expected<Schedule, std::string> parse(std::string_view text, const std::string& file);
  // Reads and parses a `.conf` file.
  static std::expected<Schedule, std::string> load(const std::string& path);

  // The first pairing time strictly after `now`. A weekly time lies in the ISO week (Monday to Sunday) of `now`,
  // or the next one when it is not after `now`, as shogi-server computes it. nullopt: no time at all (a `.conf`
  // with only `set` lines).
  std::optional<WallTime> next_after(WallTime now) const;

  const GroupSettings& settings() const { return settings_; }
  // "every 30 minutes", "every 10 s", "3 weekly times" (for the log).
  std::string describe() const;

 private:
  struct WeeklyTime {
    int iso_weekday;  // 1 = Monday ... 7 = Sunday
    int hour, minute;
  };
  std::vector<WeeklyTime> weekly_;
  std::chrono::seconds interval_{0};  // > 0: interval mode
  bool half_hourly_ = false;
  GroupSettings settings_;
};

}  // namespace arena::csa::league
