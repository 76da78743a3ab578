#include "analysis/referee.h"

#include "game/engine_exit.h"
#include "game/engine_start.h"
#include "usi/usi_client.h"

namespace arena::analysis {

namespace {

using std::chrono::milliseconds;

// How long a budgeted search may take before the referee counts as stalled: a node budget has no time of its own.
milliseconds search_timeout(const RefereeBudget& budget) {
  if (budget.movetime_ms) return milliseconds(*budget.movetime_ms + 10000);
  return milliseconds(600000);
}

}  // namespace

Referee::Referee(game::EngineConfig config, RefereeBudget budget)
    : config_(std::move(config)), budget_(budget), name_(game::engine_name(config_)) {}

Referee::~Referee() { quit(); }

bool Referee::running() const { return client_ && client_->state() != usi::EngineState::Dead; }

void Referee::quit() {
  if (client_) client_->quit(config_.quit_grace);
  client_.reset();
}

std::expected<void, RefereeError> Referee::start() {
  quit();
  ++starts_;
  auto started = game::start_engine(config_);
  if (!started) return std::unexpected(RefereeError{RefereeError::Kind::Start, "referee " + started.error().message()});
  client_ = std::move(started->client);
  name_ = started->name;
  return {};
}

RefereeError Referee::lost(std::string what) {
  std::string text = "referee '" + name_ + "' " + what;
  if (client_) {
    client_->quit(milliseconds(0));
    text += " (" + game::describe_exit(client_->process()) + ")";
  }
  client_.reset();
  return RefereeError{RefereeError::Kind::Lost, std::move(text)};
}

std::expected<void, RefereeError> Referee::new_game() {
  if (!running()) return std::unexpected(lost("is not running"));
  if (!client_->new_game().ok()) return std::unexpected(lost("died at usinewgame"));
  auto ready = client_->is_ready(process::SteadyClock::now() + config_.startup_timeout);
  if (!ready.ok()) return std::unexpected(lost("did not answer isready: " + ready.text));
  return {};
}

std::expected<Evaluation, RefereeError> Referee::evaluate(std::string_view position_line) {
  if (!running()) return std::unexpected(lost("is not running"));
  usi::GoParams go;
  go.nodes = budget_.nodes;
  go.movetime = budget_.movetime_ms;
  if (!client_->position_and_go(position_line, go).ok()) return std::unexpected(lost("died before the search"));
  usi::SearchResult result = client_->wait_bestmove(process::SteadyClock::now() + search_timeout(budget_));
  if (result.status == usi::Status::Timeout) {
    client_->stop();
    result = client_->wait_bestmove(process::SteadyClock::now() + milliseconds(2000));
    if (result.status != usi::Status::Ok)
      return std::unexpected(
          lost("gave no bestmove within " + std::to_string(search_timeout(budget_).count()) + " ms, nor after stop"));
  }
  if (result.status == usi::Status::Disconnected) return std::unexpected(lost("died during a search"));
  if (result.status != usi::Status::Ok) return std::unexpected(lost("answered a search with '" + result.text + "'"));
  if (!result.info.score)
    return std::unexpected(
        RefereeError{RefereeError::Kind::NoScore,
                     "referee '" + name_ +
                         "' gave no score (a referee must send `info ... score cp N` or `score mate N` before "
                         "its bestmove) in '" +
                         std::string(position_line) + "'"});
  Evaluation e;
  e.score = *result.info.score;
  e.best = result.bestmove.move;
  e.depth = result.info.depth;
  e.nodes = result.info.nodes;
  return e;
}

}  // namespace arena::analysis
