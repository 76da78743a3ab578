#include "web/live_reporter.h"

#include "tournament/journal.h"

namespace arena::web {

std::string result_text(Outcome outcome) {
  switch (outcome) {
    case Outcome::BlackWin:
      return "1-0";
    case Outcome::WhiteWin:
      return "0-1";
    case Outcome::Draw:
      return "1/2-1/2";
    case Outcome::None:
      break;
  }
  return "*";
}

void LiveReporter::game_finished(const tournament::ScheduledGame& scheduled, int attempt, bool replay,
                                 const PlayedGame& game, const std::vector<std::string>& /*records*/,
                                 const tournament::Tally& tally) {
  FinishedGame f;
  f.game = scheduled.index;
  f.round = scheduled.round;
  f.attempt = attempt;
  f.replay = replay;
  f.black = game.names[shogi::BLACK];
  f.white = game.names[shogi::WHITE];
  f.result = result_text(game.result.outcome);
  f.termination = std::string(to_string(game.result.termination));
  f.detail = game.result.detail;
  f.plies = int(game.moves.size());
  state_.add_finished(std::move(f), tournament::journal_line(scheduled, attempt, replay, game));
  publish(tally);
}

void LiveReporter::tick(const tournament::Tally& tally) {
  if (published_ < 0) publish(tally);  // the resumed standings, before the first game ends
}

void LiveReporter::publish(const tournament::Tally& tally) {
  published_ = tally.journaled();
  tournament::Summary summary;
  summary.info = info_;
  state_.set_standings(tournament::summary_json(tally, summary), tournament::status_line(tally, info_));
}

std::unique_ptr<game::GameWatcher> LiveReporter::watch_game(const tournament::ScheduledGame& scheduled, int attempt) {
  return state_.watch(scheduled.index, scheduled.round, attempt);
}

}  // namespace arena::web
