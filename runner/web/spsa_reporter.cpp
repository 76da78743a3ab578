#include "web/spsa_reporter.h"

#include "spsa/console.h"

namespace arena::web {

SpsaReporter::SpsaReporter(LiveState& state, std::vector<stats::SpsaParam> params, stats::SpsaSchedule schedule)
    : state_(state), params_(params), history_(std::move(params), schedule) {}

void SpsaReporter::resumed(const spsa::Run& run) {
  for (const journal::SpsaPair& p : run.resumed_history())
    if (p.theta) history_.add(p.k, *p.theta, p.result);
  publish(run.progress());
}

void SpsaReporter::pair_finished(const journal::SpsaPair& pair, const journal::JournaledGame& first,
                                 const journal::JournaledGame& second, const spsa::Progress& progress) {
  // Under the run's lock: copies of what the run made, nothing computed twice.
  state_.add_finished(first);
  state_.add_finished(second);
  if (pair.theta) history_.add(pair.k, *pair.theta, pair.result);
  publish(progress);
}

void SpsaReporter::tick(const spsa::Progress& progress) {
  if (published_ < 0) publish(progress);
}

void SpsaReporter::publish(const spsa::Progress& progress) {
  published_ = progress.pairs_done;
  history_.set_done(progress.pairs_done);
  state_.set_standings(nullptr, spsa::status_line(progress, params_));
  state_.set_spsa(history_.json());
}

std::unique_ptr<game::GameWatcher> SpsaReporter::watch_game(const run::ScheduledGame& scheduled, int attempt) {
  return state_.watch(scheduled.index, int(scheduled.pair), attempt);
}

}  // namespace arena::web
