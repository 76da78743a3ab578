#pragma once
// The tournament's observer that feeds the live page: the standings, each game on a board while it is played, and
// the finished games with their journal lines for replay.
//
// The standings (their summary JSON, with the rating list's maximum-likelihood fit over every pair of games) are
// computed under the tournament's lock, so they are not redone after every game: at most every
// STANDINGS_INTERVAL, from the tournament's ticks, and once more when the run ends (publish_final).

#include <chrono>
#include <cstdint>

#include "standings/summary.h"
#include "tournament/tournament.h"
#include "web/live_state.h"

namespace arena::web {

class LiveReporter final : public tournament::Observer {
 public:
  LiveReporter(LiveState& state, standings::RunInfo info) : state_(state), info_(std::move(info)) {}

  void game_finished(const journal::JournaledGame& game, const std::vector<std::string>& records,
                     const standings::Tally& tally) override;
  void tick(const standings::Tally& tally) override;
  std::unique_ptr<game::GameWatcher> watch_game(const run::ScheduledGame& scheduled, int attempt) override;

  // The standings as the run left them (after Tournament::run, which no longer ticks).
  void publish_final(const standings::Tally& tally) { publish(tally); }

  static constexpr std::chrono::milliseconds STANDINGS_INTERVAL{250};

 private:
  void publish(const standings::Tally& tally);

  LiveState& state_;
  standings::RunInfo info_;
  int64_t published_ = -1;  // journaled games when the standings were last published
  std::chrono::steady_clock::time_point published_at_;
};

}  // namespace arena::web
