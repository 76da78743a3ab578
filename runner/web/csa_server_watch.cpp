#include "web/csa_server_watch.h"

#include "rules/notation.h"
#include "web/league_view.h"
#include "web/live_state.h"

namespace arena::web {

GameResult csa_game_result(const csa::CsaFinishedGame& g) {
  GameResult r;
  const std::string& t = g.end_type;
  r.termination = t == "toryo"                                                        ? Termination::Resign
                  : t == "time up"                                                    ? Termination::TimeForfeit
                  : t == "abnormal"                                                   ? Termination::Disconnect
                  : t == "kachi"                                                      ? Termination::Declaration
                  : t == "illegal kachi"                                              ? Termination::IllegalDeclaration
                  : t == "sennichite"                                                 ? Termination::Sennichite
                  : t == "oute_sennichite"                                            ? Termination::PerpetualCheck
                  : t == "max_moves"                                                  ? Termination::MaxMoves
                  : t == "illegal move" || t == "uchifuzume" || t == "oute_kaihimore" ? Termination::IllegalMove
                                                                                      : Termination::Interrupted;
  if (g.winner)
    r.outcome = *g.winner == shogi::BLACK ? Outcome::BlackWin : Outcome::WhiteWin;
  else
    r.outcome = r.termination == Termination::Interrupted ? Outcome::None : Outcome::Draw;
  r.detail = g.end_reason + (g.detail.empty() ? "" : " (" + g.detail + ")");
  return r;
}

CsaServerWatch::CsaServerWatch(LiveState& state, std::string address) : state_(state), address_(std::move(address)) {
  publish_status();
}

void CsaServerWatch::progress(const csa::CsaGameProgress& p) {
  auto [it, added] = games_.try_emplace(p.game_id);
  Game& g = it->second;
  if (added) {
    g.number = next_number_++;
    g.watcher = state_.watch(g.number, 0, 0);
    g.follower = std::make_unique<relay::CsaGameFollower>(*g.watcher);
  }
  g.follower->progress(p);
  if (added) publish_status();
}

void CsaServerWatch::finished(const csa::CsaFinishedGame& f) {
  auto it = games_.find(f.game_id);
  if (it == games_.end()) return;  // never started: a rejected game is not a game
  Game g = std::move(it->second);
  games_.erase(it);
  PlayedGame played = g.follower->game();
  played.result = csa_game_result(f);
  played.result.detail = f.game_id + ": " + played.result.detail;
  played.start_time = f.start_time;
  played.end_time = f.end_time;
  g.follower.reset();
  g.watcher.reset();  // off the boards
  state_.add_finished(journal::journaled({.game = g.number}, played));
  ++finished_;
  publish_status();
}

void CsaServerWatch::league(const csa::CsaLeagueView& view) { state_.set_league(league_json(view)); }

void CsaServerWatch::publish_status() {
  state_.set_standings(nullptr, "CSA server on " + address_ + ": " + std::to_string(games_.size()) + " game" +
                               (games_.size() == 1 ? "" : "s") + " in progress, " + std::to_string(finished_) +
                               " finished");
}

}  // namespace arena::web
