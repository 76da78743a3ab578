// The game of play_game (game_run.h): both engines readied, the moves in turn until the rules, the adjudicator or
// a fault end it, and the end told to both engines.

#include "game/game_run.h"

#include <cstdio>

#include "game/engine_exit.h"
#include "game/record_info.h"
#include "rules/notation.h"

namespace arena::game {

std::string ms_text(Micros t) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f ms", double(t.count()) / 1000.0);
  return buf;
}

namespace {

std::optional<int> adjudication_score(const SearchInfo& info) {
  if (info.score_mate) return *info.score_mate >= 0 ? ADJUDICATION_MATE_CP : -ADJUDICATION_MATE_CP;
  return info.score_cp;
}

}  // namespace

PlayedGame GameRun::run(const std::string& start_position) {
  game_.event = options_.event;
  for (Color c : {BLACK, WHITE}) game_.names[c] = players_[c]->name();
  game_.start_time = std::chrono::system_clock::now();
  if (auto r = record_.start(start_position); !r) {
    // Openings are checked when they are loaded, so this is a caller's mistake; it is still only this game's
    // end, not played and not scored, and the engines were told nothing.
    game_.start_sfen = std::string(shogi::START_SFEN);
    game_.result = {Outcome::None, Termination::Interrupted,
                    "runner error: start position '" + start_position + "': " + r.error()};
    game_.end_time = std::chrono::system_clock::now();
    return std::move(game_);
  }
  game_.start_sfen = record_.start_sfen();
  for (shogi::Move m : record_.moves()) {
    MoveRecord rec;
    rec.move = m;
    rec.opening = true;
    game_.moves.push_back(std::move(rec));
  }
  for (Color c : {BLACK, WHITE}) game_.time_controls[c] = players_[c]->config().time_control;
  game_.time_control = time_control_text(*game_.time_controls[BLACK], *game_.time_controls[WHITE]);
  line_ = record_.usi_position_command();
  line_has_moves_ = !record_.moves().empty();
  line_.reserve(line_.size() + 6 * 600);
  if (watcher_) watcher_->started(game_, clock_view());

  if (begin() && !judge_position()) {
    while (true) {
      if (interrupted()) {
        end(Outcome::None, Termination::Interrupted, "interrupted by the runner");
        break;
      }
      Color us = record_.position().side_to_move();
      if (!play_move(us) || judge_position() || adjudicate(us)) break;
    }
  }
  finish();
  game_.end_time = std::chrono::system_clock::now();
  return std::move(game_);
}

ClockView GameRun::clock_view() const {
  ClockView v;
  for (Color c : {BLACK, WHITE}) v.remaining_ms[c] = clocks_[c].remaining_ms();
  v.running = record_.position().side_to_move();
  return v;
}

// An engine that could not be written to: gone, or no longer reading its input (then it is killed).
void GameRun::io_failure(Color c, const usi::Result& r, std::string_view doing) {
  if (r.status == usi::Status::Timeout) {
    players_[c]->kill();
    lose(c, Termination::Stall, who(c) + " stopped reading its input while " + std::string(doing) + ": killed");
    return;
  }
  players_[c]->stop();  // it is gone: no quit, just the reaping (with its own exit status)
  lose(c, Termination::Disconnect,
       who(c) + " exited while " + std::string(doing) + " (" + describe_exit(players_[c]->client().process()) + ")");
}

// usinewgame and isready to both engines.
bool GameRun::begin() {
  for (Color c : {BLACK, WHITE}) {
    if (!players_[c]->running()) {
      if (players_[c]->has_client()) players_[c]->stop();  // reaps a dead one
      lose(c, Termination::Disconnect, who(c) + " is not running");
      return false;
    }
    if (usi::Result r = players_[c]->client().new_game(); !r.ok()) {
      io_failure(c, r, "starting a new game");
      return false;
    }
  }
  for (Color c : {BLACK, WHITE}) {
    auto timeout = players_[c]->config().startup_timeout;
    usi::Result r = players_[c]->client().is_ready(SteadyClock::now() + timeout);
    if (r.status == usi::Status::Timeout) {
      players_[c]->kill();
      lose(c, Termination::Stall,
           who(c) + " did not answer isready within " + std::to_string(timeout.count()) + " ms: killed");
      return false;
    }
    if (!r.ok()) {
      io_failure(c, r, "getting ready for the game");
      return false;
    }
  }
  return true;
}

// The rules' verdict on the position after the last move (or the start position). True if the game is over.
bool GameRun::judge_position() {
  shogi::GameStatus st = record_.status(options_.max_plies);
  switch (st.end) {
    case shogi::GameEnd::None:
      return false;
    case shogi::GameEnd::NoLegalMoves:
      lose(~st.winner, Termination::Checkmate,
           who(~st.winner) + (record_.position().in_check() ? " is checkmated" : " has no legal move"));
      return true;
    case shogi::GameEnd::Sennichite:
      end(Outcome::Draw, Termination::Sennichite, "fourfold repetition (sennichite)");
      return true;
    case shogi::GameEnd::PerpetualCheck:
      lose(~st.winner, Termination::PerpetualCheck, "fourfold repetition with perpetual check by " + who(~st.winner));
      return true;
    case shogi::GameEnd::MaxMoves:
      end(Outcome::Draw, Termination::MaxMoves, "ply limit " + std::to_string(options_.max_plies) + " reached");
      return true;
  }
  return false;
}

bool GameRun::adjudicate(Color mover) {
  if (!options_.adjudication.resign_enabled && !options_.adjudication.draw_enabled) return false;
  auto verdict =
      adjudicator_.update(mover, adjudication_score(game_.moves.back().info), record_.position().game_ply() - 1);
  if (!verdict) return false;
  game_.result = std::move(*verdict);
  return true;
}

// Stops what is still searching, tells both engines the result, reaps the dead.
void GameRun::finish() {
  pending_.active = false;
  const Micros stall = ms(options_.stall_timeout_ms);
  for (Color c : {BLACK, WHITE}) {
    Player& p = *players_[c];
    if (!p.has_client()) continue;
    usi::EngineState state = p.client().state();
    if (state == usi::EngineState::Thinking || state == usi::EngineState::Pondering) {
      if (!p.client().stop().ok()) continue;
      usi::SearchResult r = p.client().wait_bestmove(SteadyClock::now() + stall);
      // The game is decided; an engine that cannot even stop is of no use for the next one.
      if (r.status == usi::Status::Timeout) p.kill();
    }
  }
  for (Color c : {BLACK, WHITE}) {
    Player& p = *players_[c];
    if (!p.has_client()) continue;
    if (p.running()) {
      using G = usi::UsiClient::GameOver;
      Outcome o = game_.result.outcome;
      G word = o == win_for(c) ? G::Win : o == win_for(~c) ? G::Lose : G::Draw;
      p.client().game_over(word);
    }
    if (!p.running()) p.stop();  // reaps an engine that died
  }
}

}  // namespace arena::game
