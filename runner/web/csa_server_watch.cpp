#include "web/csa_server_watch.h"

#include "game/game.h"
#include "output/result_json.h"
#include "rules/notation.h"
#include "web/live_reporter.h"

namespace arena::web {

namespace {

game::ClockView clocks_of(const csa::CsaGameProgress& p) {
  game::ClockView c;
  c.remaining_ms[shogi::BLACK] = p.remaining_ms[shogi::BLACK];
  c.remaining_ms[shogi::WHITE] = p.remaining_ms[shogi::WHITE];
  c.running = p.to_move;
  return c;
}

}  // namespace

GameResult csa_game_result(const csa::CsaFinishedGame& g) {
  GameResult r;
  const std::string& t = g.end_type;
  r.termination = t == "toryo"             ? Termination::Resign
                  : t == "time up"         ? Termination::TimeForfeit
                  : t == "abnormal"        ? Termination::Disconnect
                  : t == "kachi"           ? Termination::Declaration
                  : t == "illegal kachi"   ? Termination::IllegalDeclaration
                  : t == "sennichite"      ? Termination::Sennichite
                  : t == "oute_sennichite" ? Termination::PerpetualCheck
                  : t == "max_moves"       ? Termination::MaxMoves
                  : t == "illegal move" || t == "uchifuzume" || t == "oute_kaihimore" ? Termination::IllegalMove
                                                                                        : Termination::Interrupted;
  if (g.winner)
    r.outcome = *g.winner == shogi::BLACK ? Outcome::BlackWin : Outcome::WhiteWin;
  else
    r.outcome = r.termination == Termination::Interrupted ? Outcome::None : Outcome::Draw;
  r.detail = g.end_reason + (g.detail.empty() ? "" : " (" + g.detail + ")");
  return r;
}

CsaServerWatch::CsaServerWatch(LiveState& state, std::string address)
    : state_(state), address_(std::move(address)) {
  publish_status();
}

void CsaServerWatch::progress(const csa::CsaGameProgress& p) {
  auto [it, added] = games_.try_emplace(p.game_id);
  Game& g = it->second;
  const game::ClockView clocks = clocks_of(p);
  if (added) {
    g.number = next_number_++;
    g.watcher = state_.watch(g.number, 0, 0);
    g.played.event = p.game_id;
    g.played.names[shogi::BLACK] = p.names[shogi::BLACK];
    g.played.names[shogi::WHITE] = p.names[shogi::WHITE];
    g.played.start_sfen = p.start_sfen;
    game::TimeControl tc;
    tc.base_ms = int64_t(p.total_s) * 1000;
    tc.byoyomi_ms = int64_t(p.byoyomi_s) * 1000;
    tc.increment_ms = int64_t(p.increment_s) * 1000;
    g.played.time_control = tc.to_string();
    for (size_t i = 0; i < p.initial_moves && i < p.moves.size(); ++i) {
      MoveRecord m;
      m.move = p.moves[i];
      m.opening = true;
      g.played.moves.push_back(m);
    }
    g.watcher->started(g.played, clocks);
    publish_status();
  }
  for (size_t i = g.played.moves.size(); i < p.moves.size(); ++i) {
    MoveRecord m;
    m.move = p.moves[i];
    m.time_ms = i < p.times_s.size() ? p.times_s[i] * 1000 : 0;
    g.played.moves.push_back(m);
    g.watcher->moved(m, clocks);
  }
  g.watcher->search_started(clocks);
}

void CsaServerWatch::finished(const csa::CsaFinishedGame& f) {
  auto it = games_.find(f.game_id);
  if (it == games_.end()) return;  // never started: a rejected game is not a game
  Game g = std::move(it->second);
  games_.erase(it);
  g.played.result = csa_game_result(f);
  g.played.start_time = f.start_time;
  g.played.end_time = f.end_time;
  FinishedGame row;
  row.game = g.number;
  row.black = g.played.names[shogi::BLACK];
  row.white = g.played.names[shogi::WHITE];
  row.result = result_text(g.played.result.outcome);
  row.termination = std::string(to_string(g.played.result.termination));
  row.detail = f.game_id + ": " + g.played.result.detail;
  row.plies = int(g.played.moves.size());
  g.watcher.reset();  // off the boards
  state_.add_finished(std::move(row), to_result_json(g.played));
  ++finished_;
  publish_status();
}

void CsaServerWatch::publish_status() {
  state_.set_standings({}, "CSA server on " + address_ + ": " + std::to_string(games_.size()) + " game" +
                               (games_.size() == 1 ? "" : "s") + " in progress, " + std::to_string(finished_) +
                               " finished");
}

}  // namespace arena::web
