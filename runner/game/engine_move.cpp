// One engine's move (game_run.h): the search started (or the ponder search converted), waited for against the
// clock, the bestmove judged and recorded.
//
// The path from one engine's bestmove to the other's `go` is the runner's overhead on every move, so it stays
// lean: one parse_usi_move to judge the move, one do_move, the end-of-game check, and the position line grows
// by appending the move instead of being rebuilt.

#include <algorithm>

#include "game/game_run.h"
#include "game/record_info.h"
#include "rules/notation.h"

namespace arena::game {

// wait_bestmove, in slices when an interrupt flag or a watcher is given; the info of all slices is merged, and
// the watcher sees it every kThinkingIntervalMs.
usi::SearchResult GameRun::wait(usi::UsiClient& client, Deadline deadline) {
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
void GameRun::start_pending_ponder() {
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
bool GameRun::play_move(Color us) {
  Player& player = *players_[us];
  const Micros margin = ms(player.config().margin_ms.value_or(options_.margin_ms));
  bool hit = false;
  SteadyClock::time_point start{};
  if (!start_search(us, &hit, &start)) return false;
  start_pending_ponder();
  if (watcher_) watcher_->search_started(clock_view());

  const std::optional<Micros> allowed = clocks_[us].allowed();
  // Deadline is absolute: an info flood must not buy thinking time.
  Deadline deadline = start + (allowed ? *allowed + margin : ms(options_.untimed_move_limit_ms));
  usi::SearchResult r = wait(player.client(), deadline);
  if (r.status == usi::Status::Timeout) {
    no_move_in_time(us, allowed, margin, hit ? std::optional(start) : std::nullopt);
    return false;
  }
  if (r.status == usi::Status::Disconnected) {
    io_failure(us, {usi::Status::Disconnected, {}}, "thinking");
    return false;
  }

  // A bestmove line (well-formed or not): time first, a move after the flag loses whatever it is.
  const SteadyClock::time_point t0 = hit ? start : r.go_time;
  const Micros used = std::max(Micros(0), std::chrono::duration_cast<Micros>(r.bestmove_time - t0));
  if (clocks_[us].charge(used, margin) == Clock::Verdict::Flag) {
    lose(us, Termination::TimeForfeit,
         who(us) + " used " + ms_text(used) + ", allowed " + ms_text(*allowed) + " + " + ms_text(margin) + " margin");
    game_.forfeit_used_ms = used.count() / 1000;
    return false;
  }
  std::optional<shogi::Move> move = judge_bestmove(us, r);
  if (!move) return false;
  record_move(us, *move, std::move(r), t0, used);
  return true;
}

// The search of `us` under way: a ponderhit when the engine pondered on the move played (its clock runs from the
// ponderhit), else a fresh go (after a ponder miss, the ponder search stopped and its move discarded). `start` is
// when its clock started. False if the game ended.
bool GameRun::start_search(Color us, bool* hit, SteadyClock::time_point* start) {
  Player& player = *players_[us];
  usi::UsiClient& client = player.client();
  if (ponder_[us].active) {
    ponder_[us].active = false;
    if (!record_.moves().empty() && record_.moves().back() == ponder_[us].move) {
      if (usi::Result r = client.ponder_hit(); !r.ok()) {
        io_failure(us, r, "pondering");
        return false;
      }
      *hit = true;
      *start = client.ponderhit_time();
      return true;
    }
    if (usi::Result r = client.stop(); !r.ok()) {
      io_failure(us, r, "pondering");
      return false;
    }
    const Micros stall = ms(options_.stall_timeout_ms);
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
  if (usi::Result r = client.position_and_go(line_, go_params(clocks_[BLACK], clocks_[WHITE], us)); !r.ok()) {
    io_failure(us, r, "starting a search");
    return false;
  }
  *start = SteadyClock::now();  // just after go_time; the verdict uses the search's own go_time
  return true;
}

// No bestmove by the deadline: stop, and the verdict from the answer to stop (a time loss, with the time it
// took when it came; a stall when it never came). `ponderhit`: when the clock started after a ponderhit.
void GameRun::no_move_in_time(Color us, std::optional<Micros> allowed, Micros margin,
                              std::optional<SteadyClock::time_point> ponderhit) {
  if (interrupted()) {
    end(Outcome::None, Termination::Interrupted, "interrupted by the runner");
    return;  // finish() stops the search
  }
  Player& player = *players_[us];
  usi::UsiClient& client = player.client();
  const Micros stall = ms(options_.stall_timeout_ms);
  std::string limit = allowed ? ms_text(*allowed) + " + " + ms_text(margin) + " margin"
                              : ms_text(ms(options_.untimed_move_limit_ms)) + " (limit for untimed moves)";
  usi::Result s = client.stop();
  usi::SearchResult late = s.ok() ? client.wait_bestmove(SteadyClock::now() + stall) : usi::SearchResult{};
  if (!s.ok()) late.status = usi::Status::Disconnected;
  if (late.status == usi::Status::Timeout) {
    player.kill();
    lose(us, Termination::Stall,
         who(us) + " did not move within " + limit + " and did not answer stop within " + ms_text(stall) + ": killed");
  } else if (late.status == usi::Status::Disconnected) {
    player.stop();
    lose(us, Termination::TimeForfeit, who(us) + " did not move within " + limit + " and then exited");
  } else {
    Micros used = std::chrono::duration_cast<Micros>(late.bestmove_time - ponderhit.value_or(late.go_time));
    lose(us, Termination::TimeForfeit,
         who(us) + " did not move within " + limit + "; it answered stop after " + ms_text(used));
    game_.forfeit_used_ms = used.count() / 1000;
  }
}

// The move of a bestmove line in time, or nullopt when the line ends the game: malformed, resign, a declaration
// (valid or not), an illegal move.
std::optional<shogi::Move> GameRun::judge_bestmove(Color us, const usi::SearchResult& r) {
  if (r.status != usi::Status::Ok) {
    game_.illegal_move_text = r.text;
    lose(us, Termination::IllegalMove, who(us) + " sent a malformed bestmove line '" + r.text + "'");
    return std::nullopt;
  }
  const usi::BestMove& best = r.bestmove;
  if (best.is_resign()) {
    lose(us, Termination::Resign, who(us) + " resigned");
    return std::nullopt;
  }
  if (best.is_win()) {
    shogi::DeclarationCheck d = shogi::check_declaration(record_.position(), options_.entering_king);
    if (d.valid) {
      end(win_for(us), Termination::Declaration,
          who(us) + " declared a win (entering king, rule " + std::string(to_string(options_.entering_king)) + ")");
    } else {
      lose(us, Termination::IllegalDeclaration, who(us) + " declared a win falsely: " + d.reason);
    }
    return std::nullopt;
  }
  auto move = shogi::parse_usi_move(record_.position(), best.move);
  if (!move) {
    game_.illegal_move_text = best.move;
    lose(us, Termination::IllegalMove, who(us) + " played an illegal move: " + move.error());
    return std::nullopt;
  }
  return *move;
}

// A legal move played: the position line grows by it, the record and the watcher get it, and the engine's
// predicted reply becomes the ponder search to start once the opponent's clock runs.
void GameRun::record_move(Color us, shogi::Move move, usi::SearchResult&& r, SteadyClock::time_point started,
                          Micros used) {
  record_.play(move);
  line_ += line_has_moves_ ? " " : " moves ";
  line_has_moves_ = true;
  line_ += shogi::to_usi(move);  // canonical, whatever spelling the engine's parser accepted
  MoveRecord rec;
  rec.move = move;
  rec.time_ms = used.count() / 1000;
  rec.info = record_info(std::move(r.info));
  rec.started = started;
  rec.answered = r.bestmove_time;
  game_.moves.push_back(std::move(rec));
  if (watcher_) watcher_->moved(game_.moves.back(), clock_view());

  const std::string& ponder = r.bestmove.ponder;
  if (players_[us]->config().ponder && !ponder.empty()) {
    if (auto predicted = shogi::parse_usi_move(record_.position(), ponder))
      pending_ = PendingPonder{true, us, *predicted, ponder};
  }
}

}  // namespace arena::game
