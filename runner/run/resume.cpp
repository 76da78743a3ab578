#include "run/resume.h"

namespace arena::run {

std::expected<ResumePlan, std::string> ResumePlan::make(const std::vector<journal::JournalGame>& games,
                                                        const Schedule& schedule,
                                                        const std::vector<std::string>& names) {
  ResumePlan plan;
  for (const journal::JournalGame& g : games) {
    const std::string what = "journal game " + std::to_string(g.game + 1);
    if (g.game >= schedule.games())
      return std::unexpected(what + " is beyond the schedule's " + std::to_string(schedule.games()) + " games");
    ScheduledGame s = schedule.game(g.game);
    if (g.pair != s.pair || g.game_in_pair != s.game_in_pair)
      return std::unexpected(what + ": its pair does not match the schedule");
    if (g.black != names[size_t(s.black)] || g.white != names[size_t(s.white)])
      return std::unexpected(what + " was " + g.black + " vs " + g.white + " but the schedule says " +
                             names[size_t(s.black)] + " vs " + names[size_t(s.white)]);
    PairProgress& p = plan.pairs_[g.pair];
    if (g.attempt < p.attempt) {
      plan.warnings_.push_back(what + ": a game of a replayed attempt of its pair, ignored");
      continue;
    }
    if (g.attempt > p.attempt) p = PairProgress{g.attempt, {false, false}};
    if (g.replay) {
      p = PairProgress{g.attempt + 1, {false, false}};
      continue;
    }
    if (p.done[g.game_in_pair]) {
      plan.warnings_.push_back(what + " appears twice; the first is kept");
      continue;
    }
    p.done[g.game_in_pair] = true;
  }
  for (const auto& [pair, p] : plan.pairs_) plan.games_done_ += int64_t(p.done[0]) + int64_t(p.done[1]);
  return plan;
}

PairProgress ResumePlan::pair(int64_t pair) const {
  auto it = pairs_.find(pair);
  return it == pairs_.end() ? PairProgress{} : it->second;
}

}  // namespace arena::run
