#pragma once
// The game loop behind play_csa_game (game.h), private to csa/client/: one ClientGame per game. game.cpp has the
// summary and agreement and the end; game_turns.cpp the game itself (the server's lines, our turn, pondering and
// the engine's upkeep).

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "csa/client/game.h"
#include "csa/client/turn_time.h"
#include "csa/protocol/message.h"
#include "rules/game_end.h"

namespace arena::csa {

using shogi::BLACK;
using shogi::Color;
using shogi::WHITE;
using Clock = SteadyClock;

// How long the engine may take to answer `stop` when we no longer care about its move.
inline constexpr auto STOP_WAIT = std::chrono::milliseconds(2000);
// While the engine thinks, the server is served between waits this long (a game end, a keep-alive).
inline constexpr auto SLICE = std::chrono::milliseconds(20);
// "Forever" for waits on the server; keep-alives still go out on time.
inline constexpr auto LONG_WAIT = std::chrono::hours(24);

inline int64_t micros(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration_cast<std::chrono::microseconds>(to - from).count();
}
inline int64_t millis(Clock::duration d) { return std::chrono::duration_cast<std::chrono::milliseconds>(d).count(); }

class ClientGame {
 public:
  ClientGame(ClientConnection& conn, ClientEngine& engine, const GameSettings& settings, ProtocolLog& log,
             const std::atomic<bool>* stop, const StatusSink& status)
      : conn_(conn), engine_(engine), settings_(settings), log_(log), stop_(stop), status_(status) {}

  CsaGameReport run() {
    if (!read_summary()) return finish_without_game();
    if (!agree()) return finish_without_game();
    play();
    return finish();
  }

 private:
  enum class Awaiting { Nothing, Echo, End };

  // ---- summary and agreement (game.cpp) ----
  bool read_summary();
  bool reject(const std::string& why);
  bool agree();

  // ---- the game (game_turns.cpp) ----
  void play();
  void process(const LinkEvent& e);
  void on_move(const Message& m, Clock::time_point time);
  void our_turn();
  usi::SearchResult wait_engine(Deadline until, usi::SearchInfo& info);
  void decide_and_send(const usi::SearchResult& result, const usi::SearchInfo& info, bool answered);
  void resign(const std::string& why);
  void declare();

  // ---- pondering and engine upkeep (game_turns.cpp) ----
  void start_ponder();
  usi::GoParams go_params_for_ponder() const;
  void stop_search();
  bool restart_engine(const std::string& why);
  // Runs something that keeps us away from the socket (an engine restart). A line read afterwards may have come
  // at any time since it began, so it is dated at the beginning: our turn then starts no later than it did.
  template <class F>
  void blocking(F&& f) {
    auto began = Clock::now();
    f();
    while (!end_.finished()) {
      LinkEvent e = conn_.poll();
      if (e.kind != LinkEvent::Kind::Line) break;
      e.time = std::min(e.time, began);
      process(e);
    }
  }

  // ---- the end (game.cpp) ----
  CsaGameReport finish();
  CsaGameReport finish_without_game();
  void publish(const std::string& phase);
  void note(const std::string& text) { log_.note(text); }
  void warn(const std::string& text) {
    log_.note("warning: " + text);
    if (report_.warnings.size() < 200) report_.warnings.push_back(text);
  }

  ClientConnection& conn_;
  ClientEngine& engine_;
  const GameSettings& settings_;
  ProtocolLog& log_;
  const std::atomic<bool>* stop_;
  const StatusSink& status_;

  CsaGameReport report_;
  Color us_ = BLACK, them_ = WHITE;
  shogi::EnteringKingRule declaration_rule_ = shogi::EnteringKingRule::Point27;
  shogi::GameRecord game_;
  CsaClock clock_;
  GameEndCollector end_;
  std::string end_lines_;

  Awaiting awaiting_ = Awaiting::Nothing;
  Clock::time_point turn_start_{};
  Clock::time_point last_move_time_{};
  std::string sent_move_;    // our last move token, until its echo
  SearchInfo sent_info_;     // the engine's info for it
  std::string ponder_move_;  // the engine's guess at the reply (USI)
  bool ponder_pending_ = false;
  bool pondering_ = false;
  bool ponder_hit_ = false;
  std::string pondered_move_;
  bool engine_broken_ = false;
  bool desync_ = false;
  Deadline desync_deadline_{};
  std::optional<int> last_score_black_;
};

}  // namespace arena::csa
