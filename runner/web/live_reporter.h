#pragma once
// The tournament's observer that feeds the live page: the standings after every finished game, each game on a
// board while it is played, and the finished games with their journal lines for replay.

#include <cstdint>

#include "tournament/summary.h"
#include "tournament/tournament.h"
#include "web/live_state.h"

namespace arena::web {

class LiveReporter final : public tournament::Observer {
 public:
  LiveReporter(LiveState& state, tournament::RunInfo info) : state_(state), info_(std::move(info)) {}

  void game_finished(const journal::JournaledGame& game, const std::vector<std::string>& records,
                     const tournament::Tally& tally) override;
  void tick(const tournament::Tally& tally) override;
  std::unique_ptr<game::GameWatcher> watch_game(const tournament::ScheduledGame& scheduled, int attempt) override;

 private:
  void publish(const tournament::Tally& tally);

  LiveState& state_;
  tournament::RunInfo info_;
  int64_t published_ = -1;  // journaled games when the standings were last published
};

}  // namespace arena::web
