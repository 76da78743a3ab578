#pragma once
// Resuming a run: where each pair of the schedule stands after the games already in its journal (or its segments),
// so that a resumed run plays exactly what is missing, and a journal of another schedule is refused.

#include <cstdint>
#include <expected>
#include <string>
#include <unordered_map>
#include <vector>

#include "journal/journal.h"
#include "run/schedule.h"

namespace arena::run {

// Where each pair of the schedule stands after the games already in a journal.
struct PairProgress {
  int attempt = 0;                // the attempt to continue (games of earlier attempts are void)
  bool done[2] = {false, false};  // which games of that attempt are journaled
};
class ResumePlan {
 public:
  ResumePlan() = default;
  // `games` in journal order. Errors: a game outside the schedule or with other engines than the schedule says.
  static std::expected<ResumePlan, std::string> make(const std::vector<journal::JournalGame>& games,
                                                     const Schedule& schedule,
                                                     const std::vector<std::string>& engine_names);
  PairProgress pair(int64_t pair) const;
  int64_t games_done() const { return games_done_; }  // games that count (not void)
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  std::unordered_map<int64_t, PairProgress> pairs_;
  int64_t games_done_ = 0;
  std::vector<std::string> warnings_;
};

}  // namespace arena::run
