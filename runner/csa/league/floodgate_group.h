#pragma once
// One Floodgate game group of the server (`serve --floodgate floodgate-600-10F`): its schedule, the settings of
// its games, what it remembers of its players, and its rounds. No sockets and no clock: the server passes the
// time and the players waiting, and starts the games of the plan.

#include <filesystem>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "csa/league/history.h"
#include "csa/league/pairing.h"
#include "csa/league/schedule.h"

namespace arena::csa::league {

struct FloodgateGroupConfig {
  std::string name;  // the game name players log in for, e.g. "floodgate-600-10F"
  Schedule schedule;
  std::filesystem::path conf_file;  // the `.conf` the schedule came from, re-read before each round; may be empty
};

class FloodgateGroup {
 public:
  explicit FloodgateGroup(FloodgateGroupConfig config);

  const std::string& name() const { return config_.name; }
  // When the group pairs next (nullopt: a `.conf` without times; the group never pairs).
  std::optional<WallTime> next_pairing() const { return next_; }
  // Sets the next pairing time from `now` (at start).
  void arm(WallTime now);

  // A round at `now`: re-reads the `.conf` (a file that no longer parses keeps the schedule and settings it had,
  // and says so in `log`), plans the pairs, remembers who sat out and arms the next pairing.
  RoundPlan pair_round(std::vector<Candidate> waiting, const std::map<std::string, double>& rates, WallTime now,
                       std::mt19937_64& rng, std::vector<std::string>& log);
  // The settings the games of the last round (and of the next one) are played with.
  const GroupSettings& settings() const { return config_.schedule.settings(); }
  // A finished game of the group between two player ids (black_won nullopt: a draw).
  void record_game(const std::string& black, const std::string& white, std::optional<bool> black_won);
  // A round played before a restart, from a line of the group's rounds log; false for a line that is not one.
  bool restore_round(std::string_view rounds_log_line);
  // The rounds log's line for a round just planned (the server appends it to <out>/<group>.rounds):
  //   <time YYYY/MM/DD HH:MM:SS> TAB <round> TAB <left-out ids, comma-separated> TAB <"black white" pairs,
  //   comma-separated>
  std::string rounds_log_line(const RoundPlan& plan, WallTime now) const;
  int rounds() const { return rounds_; }
  const GroupHistory& history() const { return history_; }

 private:
  FloodgateGroupConfig config_;
  GroupHistory history_;
  std::optional<WallTime> next_;
  int rounds_ = 0;
};

}  // namespace arena::csa::league
