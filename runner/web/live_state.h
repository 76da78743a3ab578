#pragma once
// What the live page shows, kept up to date by the tournament's threads and read by the web server's thread: the
// standings, every game on a board with its clocks and the engines' latest thinking, and the finished games.
//
// Writers (a game's thread, the tournament's observer) take one short lock and copy; the JSON the page reads is
// built by the server's thread from a copy, so a game never waits for a viewer. Every change bumps version(), which
// the server polls to push updates.

#include <boost/json/value.hpp>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "game/game_watch.h"
#include "journal/journal.h"

namespace arena::web {

class LiveState {
 public:
  // The finished games whose whole record stays in memory for replay (the list keeps every game).
  static constexpr size_t kKeptRecords = 2000;
  // The finished games each update carries (the page asks /api/games for the rest).
  static constexpr size_t kRecentInUpdate = 50;

  explicit LiveState(std::string title);

  // The standings: the run's summary (standings/summary.h summary_value; null: none) and its one-line status. Kept
  // as a value, embedded in every update as it is.
  void set_standings(boost::json::value summary, std::string status_line);
  // An SPSA run's charts (web/spsa_chart.h), shown above the games.
  void set_spsa(boost::json::value chart);
  // The CSA server's Floodgate groups and ratings (web/league_view.h), shown above the games.
  void set_league(boost::json::value league);
  // A game put on a board until the returned watcher is destroyed.
  std::unique_ptr<game::GameWatcher> watch(int64_t game, int round, int attempt);
  // A finished game: its summary for the list, its journal line for /api/game/N.
  void add_finished(journal::JournaledGame game);

  uint64_t version() const { return version_.load(std::memory_order_acquire); }
  // {"title","version","status","standings":{...}|null,"boards":[...],"finished":[newest kRecentInUpdate],
  //  "finished_total":N, "spsa":{...}|null, "league":{...}|null}. Clocks carry "elapsed_ms" of the running side at the
  //  time of the call.
  std::string update_json() const;
  // The finished games [from, from + count) of the list, oldest first, as a JSON array.
  std::string finished_json(int64_t from, int64_t count) const;
  // The journal line of finished game `game` (its last attempt), if still kept.
  std::optional<std::string> journal_line(int64_t game) const;

 private:
  struct Side {
    std::optional<SearchInfo> info;  // latest of the current or last search
    bool info_is_current = false;    // from the search running now (else from the side's last move)
    std::chrono::steady_clock::time_point search_started{};
    int64_t last_search_ms = 0;  // the runner's measure of the search that gave the last move
  };
  struct Board {
    int64_t game = 0;
    int round = 0;
    int attempt = 0;
    std::string black, white, time_control, start_sfen;
    int64_t byoyomi_ms[shogi::COLOR_NB] = {0, 0};  // each side's, for the clocks' "byo" countdown
    std::vector<std::string> moves;                // USI, the opening's included
    int opening_plies = 0;
    game::ClockView clocks;
    std::chrono::steady_clock::time_point clock_started{};  // when the running side's clock started
    Side sides[shogi::COLOR_NB];
    bool started = false;
  };
  class Watcher;
  friend class Watcher;
  void changed() { version_.fetch_add(1, std::memory_order_acq_rel); }

  const std::string title_;
  std::atomic<uint64_t> version_{1};
  mutable std::mutex mutex_;
  boost::json::value standings_;  // null until the first set_standings
  boost::json::value spsa_;       // null: not an SPSA run
  boost::json::value league_;     // null: not a server with Floodgate groups
  std::string status_;
  std::map<uint64_t, Board> boards_;  // by a serial number: one game number may be on two boards (a replay)
  uint64_t next_board_ = 0;
  std::vector<journal::JournalGame> finished_;
  std::deque<std::pair<int64_t, std::string>> records_;  // the newest kKeptRecords journal lines, by game
};

}  // namespace arena::web
