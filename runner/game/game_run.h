#pragma once
// The game loop behind play_game (game.h), private to game/: one GameRun per game, holding the two players, their
// clocks, the record and the position line that grows move by move. game_run.cpp has the game (begin, the loop,
// the rules' and the adjudicator's verdicts, the end); engine_move.cpp one engine's move, from go to the move
// judged and recorded.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "game/adjudication.h"
#include "game/clock.h"
#include "game/game.h"
#include "game/game_watch.h"
#include "rules/game_end.h"
#include "usi/usi_client.h"

namespace arena::game {

using process::Deadline;
using process::SteadyClock;
using Micros = std::chrono::microseconds;
using shogi::BLACK;
using shogi::Color;
using shogi::WHITE;

// While an interrupt flag is given, waits are cut into slices so that Ctrl-C ends a long think promptly.
inline constexpr auto kInterruptSlice = std::chrono::milliseconds(50);

inline Micros ms(int64_t v) { return Micros(v * 1000); }
std::string ms_text(Micros t);  // "12.3 ms"
inline Outcome win_for(Color c) { return c == BLACK ? Outcome::BlackWin : Outcome::WhiteWin; }

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

  PlayedGame run(const std::string& start_position);

 private:
  // ---- the game (game_run.cpp) ----
  ClockView clock_view() const;
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
  void io_failure(Color c, const usi::Result& r, std::string_view doing);
  bool begin();
  bool judge_position();
  bool adjudicate(Color mover);
  void finish();

  // ---- one engine move (engine_move.cpp) ----
  usi::SearchResult wait(usi::UsiClient& client, Deadline deadline);
  void start_pending_ponder();
  bool play_move(Color us);
  bool start_search(Color us, bool* hit, SteadyClock::time_point* start);
  void no_move_in_time(Color us, std::optional<Micros> allowed, Micros margin,
                       std::optional<SteadyClock::time_point> ponderhit);
  std::optional<shogi::Move> judge_bestmove(Color us, const usi::SearchResult& r);
  void record_move(Color us, shogi::Move move, usi::SearchResult&& r, SteadyClock::time_point started, Micros used);

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

}  // namespace arena::game
