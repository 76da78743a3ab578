#pragma once
// The SPSA run's observer that feeds the live page: its status line, one chart per parameter (web/spsa_chart.h),
// each game on a board while it is played, and the finished games with their journal lines for replay.

#include <memory>

#include "spsa/run.h"
#include "web/live_state.h"
#include "web/spsa_chart.h"

namespace arena::web {

class SpsaReporter final : public spsa::Observer {
 public:
  SpsaReporter(LiveState& state, std::vector<stats::SpsaParam> params, stats::SpsaSchedule schedule);
  // The pairs a resumed run read back (their theta on the charts) and where the run stands.
  void resumed(const spsa::Run& run);

  void pair_finished(const journal::SpsaPair& pair, const journal::JournaledGame& first,
                     const journal::JournaledGame& second, const spsa::Progress& progress) override;
  void tick(const spsa::Progress& progress) override;
  std::unique_ptr<game::GameWatcher> watch_game(const run::ScheduledGame& scheduled, int attempt) override;

 private:
  void publish(const spsa::Progress& progress);

  LiveState& state_;
  std::vector<stats::SpsaParam> params_;
  SpsaHistory history_;
  int64_t published_ = -1;  // pairs done when last published
};

}  // namespace arena::web
