// play_game: one game between two started players, judged move by move with the rules library.
//
// The path from one engine's bestmove to the other's `go` is the runner's overhead on every move, so it stays
// lean: one parse_usi_move to judge the move, one do_move, the end-of-game check, and the position line grows
// by appending the move instead of being rebuilt.

#include <algorithm>
#include <cstdio>

#include "game/adjudication.h"
#include "game/clock.h"
#include "game/engine_exit.h"
#include "game/game.h"
#include "game/game_watch.h"
#include "game/record_info.h"
#include "rules/notation.h"
#include "usi/usi_client.h"

namespace arena::game {

namespace {

using process::Deadline;
using process::SteadyClock;
using Micros = std::chrono::microseconds;
using shogi::BLACK;
using shogi::Color;
using shogi::WHITE;

// While an interrupt flag is given, waits are cut into slices so that Ctrl-C ends a long think promptly.
constexpr auto kInterruptSlice = std::chrono::milliseconds(50);

Micros ms(int64_t v) { return Micros(v * 1000); }

std::string ms_text(Micros t) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f ms", double(t.count()) / 1000.0);
  return buf;
}

std::optional<int> adjudication_score(const SearchInfo& info) {
  if (info.score_mate) return *info.score_mate >= 0 ? ADJUDICATION_MATE_CP : -ADJUDICATION_MATE_CP;
  return info.score_cp;
}

Outcome win_for(Color c) { return c == BLACK ? Outcome::BlackWin : Outcome::WhiteWin; }

class GameRun {
 public:
  GameRun(Player& black, Player& white, const GameOptions& options, const std::atomic<bool>* interrupt,
          GameWatcher* watcher)
      : players_{&black, &white},
        options_(options),
        interrupt_(interrupt),
        watcher_(watcher),
        clocks_{Clock(black.config().time_control), Clock(white.config().time_control)},
        adjudicator_(options.adjudication) {}

  PlayedGame run(const std::string& start_position) {
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

 private:
  ClockView clock_view() const {
    ClockView v;
    for (Color c : {BLACK, WHITE}) v.remaining_ms[c] = clocks_[c].remaining_ms();
    v.running = record_.position().side_to_move();
    return v;
  }

  bool interrupted() const { return interrupt_ && interrupt_->load(std::memory_order_relaxed); }

  std::string who(Color c) const {
    return std::string(c == BLACK ? "black" : "white") + " (" + players_[c]->name() + ")";
  }

  void end(Outcome outcome, Termination termination, std::string detail) {
    game_.result = GameResult{outcome, termination, std::move(detail)};
  }
  void lose(Color loser, Termination termination, std::string detail) {
    end(win_for(~loser), termination, std::move(detail));
  }

  // An engine that could not be written to: gone, or no longer reading its input (then it is killed).
  void io_failure(Color c, const usi::Result& r, std::string_view doing) {
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
  bool begin() {
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
  bool judge_position() {
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

  bool adjudicate(Color mover) {
    if (!options_.adjudication.resign_enabled && !options_.adjudication.draw_enabled) return false;
    auto verdict =
        adjudicator_.update(mover, adjudication_score(game_.moves.back().info), record_.position().game_ply() - 1);
    if (!verdict) return false;
    game_.result = std::move(*verdict);
    return true;
  }

  // wait_bestmove, in slices when an interrupt flag or a watcher is given; the info of all slices is merged, and
  // the watcher sees it every kThinkingIntervalMs.
  usi::SearchResult wait(usi::UsiClient& client, Deadline deadline) {
    if (!interrupt_ && !watcher_) return client.wait_bestmove(deadline);
    usi::SearchInfo info;
    int info_lines = 0;
    SteadyClock::time_point shown = SteadyClock::now();
    int shown_lines = 0;
    while (true) {
      Deadline slice = std::min(deadline, SteadyClock::now() + kInterruptSlice);
      usi::SearchResult r = client.wait_bestmove(slice);
      info.merge(std::move(r.info));  // replaced below before r is returned
      info_lines += r.info_lines;
      if (r.status != usi::Status::Timeout || slice >= deadline || interrupted()) {
        r.info = std::move(info);
        r.info_lines = info_lines;
        return r;
      }
      if (watcher_ && info_lines != shown_lines &&
          SteadyClock::now() - shown >= std::chrono::milliseconds(kThinkingIntervalMs)) {
        shown = SteadyClock::now();
        shown_lines = info_lines;
        usi::SearchInfo copy = info;
        watcher_->thinking(clock_view(), record_info(std::move(copy)));
      }
    }
  }

  // Sends the `go ponder` planned after the last move, once the opponent's clock runs.
  void start_pending_ponder() {
    if (!pending_.active) return;
    pending_.active = false;
    Color side = pending_.side;
    usi::UsiClient& client = players_[side]->client();
    std::string line = line_;
    line += line_has_moves_ ? " " : " moves ";
    line += pending_.usi;
    // A failure means the engine is gone; its next turn reports the disconnect.
    if (client.position_and_go(line, go_params(clocks_[BLACK], clocks_[WHITE], side, true)).ok())
      ponder_[side] = Ponder{true, pending_.move};
  }

  // One move of `us`: start (or convert the ponder search), time, judge. False if the game ended.
  bool play_move(Color us) {
    Player& player = *players_[us];
    usi::UsiClient& client = player.client();
    Clock& clock = clocks_[us];
    const Micros margin = ms(player.config().margin_ms.value_or(options_.margin_ms));
    const Micros stall = ms(options_.stall_timeout_ms);

    bool hit = false;
    SteadyClock::time_point start{};
    if (ponder_[us].active) {
      ponder_[us].active = false;
      if (!record_.moves().empty() && record_.moves().back() == ponder_[us].move) {
        // The clock runs from the moment the opponent's move is known, i.e. from the ponderhit.
        usi::Result r = client.ponder_hit();
        if (!r.ok()) {
          io_failure(us, r, "pondering");
          return false;
        }
        hit = true;
        start = client.ponderhit_time();
      } else {
        // A miss: the ponder search is stopped and its move discarded; the real search gets a fresh go.
        usi::Result r = client.stop();
        if (!r.ok()) {
          io_failure(us, r, "pondering");
          return false;
        }
        usi::SearchResult discarded = client.wait_bestmove(SteadyClock::now() + stall);
        if (discarded.status == usi::Status::Timeout) {
          player.kill();
          lose(us, Termination::Stall,
               who(us) + " did not answer stop after a ponder miss within " + ms_text(stall) + ": killed");
          return false;
        }
        if (discarded.status == usi::Status::Disconnected) {
          io_failure(us, {usi::Status::Disconnected, {}}, "pondering");
          return false;
        }
      }
    }
    if (!hit) {
      usi::Result r = client.position_and_go(line_, go_params(clocks_[BLACK], clocks_[WHITE], us));
      if (!r.ok()) {
        io_failure(us, r, "starting a search");
        return false;
      }
      start = SteadyClock::now();  // just after go_time; the verdict uses the search's own go_time
    }
    start_pending_ponder();
    if (watcher_) watcher_->search_started(clock_view());

    const std::optional<Micros> allowed = clock.allowed();
    // Deadline is absolute: an info flood must not buy thinking time.
    Deadline deadline = start + (allowed ? *allowed + margin : ms(options_.untimed_move_limit_ms));
    usi::SearchResult r = wait(client, deadline);

    if (r.status == usi::Status::Timeout) {
      if (interrupted()) {
        end(Outcome::None, Termination::Interrupted, "interrupted by the runner");
        return false;  // finish() stops the search
      }
      std::string limit = allowed ? ms_text(*allowed) + " + " + ms_text(margin) + " margin"
                                  : ms_text(ms(options_.untimed_move_limit_ms)) + " (limit for untimed moves)";
      usi::Result s = client.stop();
      usi::SearchResult late = s.ok() ? client.wait_bestmove(SteadyClock::now() + stall) : usi::SearchResult{};
      if (!s.ok()) late.status = usi::Status::Disconnected;
      if (late.status == usi::Status::Timeout) {
        player.kill();
        lose(us, Termination::Stall,
             who(us) + " did not move within " + limit + " and did not answer stop within " + ms_text(stall) +
                 ": killed");
      } else if (late.status == usi::Status::Disconnected) {
        player.stop();
        lose(us, Termination::TimeForfeit, who(us) + " did not move within " + limit + " and then exited");
      } else {
        Micros used = std::chrono::duration_cast<Micros>(late.bestmove_time - (hit ? start : late.go_time));
        lose(us, Termination::TimeForfeit,
             who(us) + " did not move within " + limit + "; it answered stop after " + ms_text(used));
        game_.forfeit_used_ms = used.count() / 1000;
      }
      return false;
    }
    if (r.status == usi::Status::Disconnected) {
      io_failure(us, {usi::Status::Disconnected, {}}, "thinking");
      return false;
    }

    // A bestmove line (well-formed or not): time first, a move after the flag loses whatever it is.
    const SteadyClock::time_point t0 = hit ? start : r.go_time;
    const Micros used = std::max(Micros(0), std::chrono::duration_cast<Micros>(r.bestmove_time - t0));
    if (clock.charge(used, margin) == Clock::Verdict::Flag) {
      lose(us, Termination::TimeForfeit,
           who(us) + " used " + ms_text(used) + ", allowed " + ms_text(*allowed) + " + " + ms_text(margin) + " margin");
      game_.forfeit_used_ms = used.count() / 1000;
      return false;
    }
    if (r.status != usi::Status::Ok) {
      game_.illegal_move_text = r.text;
      lose(us, Termination::IllegalMove, who(us) + " sent a malformed bestmove line '" + r.text + "'");
      return false;
    }
    const usi::BestMove& best = r.bestmove;
    if (best.is_resign()) {
      lose(us, Termination::Resign, who(us) + " resigned");
      return false;
    }
    if (best.is_win()) {
      shogi::DeclarationCheck d = shogi::check_declaration(record_.position(), options_.entering_king);
      if (d.valid) {
        end(win_for(us), Termination::Declaration,
            who(us) + " declared a win (entering king, rule " + std::string(to_string(options_.entering_king)) + ")");
      } else {
        lose(us, Termination::IllegalDeclaration, who(us) + " declared a win falsely: " + d.reason);
      }
      return false;
    }
    auto move = shogi::parse_usi_move(record_.position(), best.move);
    if (!move) {
      game_.illegal_move_text = best.move;
      lose(us, Termination::IllegalMove, who(us) + " played an illegal move: " + move.error());
      return false;
    }

    record_.play(*move);
    line_ += line_has_moves_ ? " " : " moves ";
    line_has_moves_ = true;
    line_ += shogi::to_usi(*move);  // canonical, whatever spelling the engine's parser accepted
    MoveRecord rec;
    rec.move = *move;
    rec.time_ms = used.count() / 1000;
    rec.info = record_info(std::move(r.info));
    rec.started = t0;
    rec.answered = r.bestmove_time;
    game_.moves.push_back(std::move(rec));
    if (watcher_) watcher_->moved(game_.moves.back(), clock_view());

    if (player.config().ponder && !best.ponder.empty()) {
      if (auto predicted = shogi::parse_usi_move(record_.position(), best.ponder))
        pending_ = PendingPonder{true, us, *predicted, best.ponder};
    }
    return true;
  }

  // Stops what is still searching, tells both engines the result, reaps the dead.
  void finish() {
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

  struct Ponder {
    bool active = false;
    shogi::Move move = shogi::MOVE_NONE;  // the predicted opponent move the engine is pondering on
  };
  struct PendingPonder {
    bool active = false;
    Color side = BLACK;
    shogi::Move move = shogi::MOVE_NONE;
    std::string usi;
  };

  Player* players_[shogi::COLOR_NB];
  const GameOptions& options_;
  const std::atomic<bool>* interrupt_;
  GameWatcher* watcher_;
  Clock clocks_[shogi::COLOR_NB];
  Adjudicator adjudicator_;
  shogi::GameRecord record_;
  std::string line_;  // the position command, grown move by move
  bool line_has_moves_ = false;
  Ponder ponder_[shogi::COLOR_NB];
  PendingPonder pending_;
  PlayedGame game_;
};

}  // namespace

PlayedGame play_game(Player& black, Player& white, const std::string& start_position, const GameOptions& options,
                     const std::atomic<bool>* interrupt, GameWatcher* watcher) {
  GameRun run(black, white, options, interrupt, watcher);
  return run.run(start_position);
}

PlayedGame unstarted_game(const GameOptions& options, const EngineConfig& black, const EngineConfig& white,
                          const std::string& start_position, shogi::Color loser, const std::string& why) {
  PlayedGame g;
  g.event = options.event;
  g.names[shogi::BLACK] = black.name;
  g.names[shogi::WHITE] = white.name;
  g.start_time = g.end_time = std::chrono::system_clock::now();
  g.time_controls[shogi::BLACK] = black.time_control;
  g.time_controls[shogi::WHITE] = white.time_control;
  g.time_control = time_control_text(black.time_control, white.time_control);
  shogi::GameRecord record;
  if (record.start(start_position)) {
    g.start_sfen = record.start_sfen();
    for (shogi::Move m : record.moves()) g.moves.push_back(MoveRecord{m, 0, {}, true});
  } else {
    g.start_sfen = std::string(shogi::START_SFEN);
  }
  g.result.outcome = loser == shogi::BLACK ? Outcome::WhiteWin : Outcome::BlackWin;
  g.result.termination = Termination::Disconnect;
  g.result.detail = (loser == shogi::BLACK ? black.name : white.name) + " could not be started: " + why;
  return g;
}

}  // namespace arena::game
