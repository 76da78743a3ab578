#include "web/live_reporter.h"

namespace arena::web {

void LiveReporter::game_finished(const journal::JournaledGame& game, const std::vector<std::string>& /*records*/,
                                 const standings::Tally& tally) {
  // Under the tournament's lock: a copy of the line it wrote is all this costs it. The standings follow at the
  // next tick.
  state_.add_finished(game);
  if (published_ < 0 || std::chrono::steady_clock::now() - published_at_ >= STANDINGS_INTERVAL) publish(tally);
}

void LiveReporter::tick(const standings::Tally& tally) {
  // The resumed standings before the first game ends; then whatever games ended since the last publish.
  if (published_ < 0 ||
      (published_ != tally.journaled() && std::chrono::steady_clock::now() - published_at_ >= STANDINGS_INTERVAL))
    publish(tally);
}

void LiveReporter::publish(const standings::Tally& tally) {
  published_ = tally.journaled();
  published_at_ = std::chrono::steady_clock::now();
  standings::Summary summary;
  summary.info = info_;
  state_.set_standings(standings::summary_value(tally, summary), standings::status_line(tally, info_));
}

std::unique_ptr<game::GameWatcher> LiveReporter::watch_game(const run::ScheduledGame& scheduled, int attempt) {
  return state_.watch(scheduled.index, scheduled.round, attempt);
}

}  // namespace arena::web
