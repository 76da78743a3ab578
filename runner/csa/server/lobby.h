#pragma once
// The CSA server without sockets: logins, the x1 commands, pairing by game name, and the games' lifecycle
// (csa-protocol.md §2, §9), answering every line as shogi-server does. The socket layer (server.cpp) feeds it
// lines with the time they were read, tells it about closed connections, and arms one timer at next_deadline().
//
// Floodgate groups (config.floodgate_groups) are paired by round at their scheduled times, in on_timer; the
// timer's deadline includes the next round.
//
// Single-threaded: every call must come from the same thread (the server's I/O thread). The one exception is inside:
// the server's own ratings are recomputed from the results list on a worker thread (seconds for a list of 100 k
// games), so that no game's clock waits for them.

#include <cstdint>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "csa/league/players_yaml.h"
#include "csa/server/config.h"
#include "csa/server/game.h"

namespace arena::csa {

// A client connection as the lobby sees it.
class Connection {
 public:
  virtual ~Connection() = default;
  // Queues whole lines ("\n"-terminated) for sending.
  virtual void send(std::string_view text) = 0;
  // Sends what is queued, then closes. Must not call back into the lobby synchronously.
  virtual void close() = 0;
  // "127.0.0.1:54321", for the log.
  virtual std::string peer() const = 0;
};

class Lobby {
 public:
  using PlayerId = uint64_t;
  struct Hooks {
    std::function<void(const std::string&)> log;           // one event, without a newline
    std::function<void(const ServerGame&)> game_finished;  // a game with a result (not a rejected one)
    std::function<void(const ServerGame&)> game_progress;  // a game started, or played a move (before it finished)
    std::function<void(const CsaLeagueView&)> league;      // the Floodgate groups or their ratings changed
  };

  Lobby(const CsaServerConfig& config, Hooks hooks);
  ~Lobby();

  // A new connection, not logged in yet.
  PlayerId connect(std::shared_ptr<Connection> conn, SteadyTime now);
  // One line (without its LF; a CR is still there) read at `now`. Returns false when the line was answered with
  // an error (LOGIN:incorrect, ##[ERROR]), so the caller can drop a client that sends nothing but garbage.
  bool on_line(PlayerId id, std::string_view line, SteadyTime now);
  // The connection is gone: EOF, an error, or dropped by the socket layer. Safe to call for any id, any time.
  void on_disconnect(PlayerId id, SteadyTime now);
  // Flags, agreement timeouts and login timeouts due by `now`.
  void on_timer(SteadyTime now);
  // The next moment on_timer has something to do.
  std::optional<SteadyTime> next_deadline() const;
  // The server stops: running games end with #CHUDAN, pending ones are rejected, every connection is closed.
  void shutdown(SteadyTime now);

  size_t connection_count() const { return players_.size(); }
  size_t game_count() const { return games_.size(); }

 private:
  enum class Status { LoggingIn, Connected, GameWaiting, AgreeWaiting, StartWaiting, InGame, Finished };
  struct Player;
  struct GameEntry;

  bool handle_login(Player& p, std::string_view line, SteadyTime now);
  bool handle_command(Player& p, const ClientCommand& cmd, std::string_view line, SteadyTime now);
  bool agreement_command(Player& p, bool agree, SteadyTime now);
  void x1_info_command(Player& p, const ClientCommand& cmd);
  GameEntry* entry_of(const Player& p);
  bool error(Player& p, const std::string& text);  // "##[ERROR] text" to p; false
  bool game_command(Player& p, bool challenge, const std::string& name, char turn, SteadyTime now);
  void create_game(Player& p1, Player& p2, const std::string& name, const GameName& gn, SteadyTime now,
                   const league::GroupSettings* group = nullptr);
  league::FloodgateGroup* group_of(const std::string& game_name);
  bool wait_for_round(Player& p, bool challenge, league::FloodgateGroup& group);
  void run_round(league::FloodgateGroup& group, SteadyTime now);
  // The Floodgate groups (lobby_league.cpp).
  void open_groups();
  void refresh_rates();             // now, on this thread: at start, and with a players.yaml of another server
  // The server's own ratings on the worker thread (or again after the running one); `beside_games`: the I/O thread
  // goes on meanwhile and may be appending a game to the list.
  void start_rating_job(bool beside_games = true);
  void take_rating_job(bool wait);  // adopts the job's ratings when it is done (or after waiting for it)
  void adopt_ratings(league::LeagueRatings ratings, const std::vector<std::string>& notes);
  void publish_league();
  void restore_groups();
  std::filesystem::path rounds_log(const league::FloodgateGroup& group) const;
  std::string floodgate_lines() const;
  std::string rating_text() const;
  void deliver(GameEntry& entry, Outbox& out);
  void finish_game(uint64_t game_key);
  void after_game_call(uint64_t game_key, Outbox& out);
  void drop(Player& p, SteadyTime now);
  void retire(Player& p);
  void send(Player& p, std::string_view text);
  std::string issue_timestamp();
  std::string who_line(const Player& p) const;
  static const char* status_name(Status s);
  Player* find(PlayerId id);
  void log(const std::string& text) const;

  CsaServerConfig config_;
  Hooks hooks_;
  std::map<PlayerId, std::unique_ptr<Player>> players_;
  std::vector<PlayerId> logged_in_;  // login order: rival search and %%WHO follow it, as on shogi-server
  std::map<std::string, PlayerId> by_name_;
  std::map<uint64_t, std::unique_ptr<GameEntry>> games_;  // creation order, for %%LIST
  PlayerId next_player_ = 1;
  uint64_t next_game_ = 1;
  int64_t last_timestamp_ = 0;  // Game_IDs get strictly increasing seconds
  bool stopping_ = false;
  std::mt19937 rng_;
  std::vector<std::unique_ptr<league::FloodgateGroup>> groups_;
  std::map<std::string, double> rates_;  // player id -> rating, for the pairing and the records
  league::LeagueRatings ratings_;        // the server's own ratings (none with a --players file)
  std::vector<league::PlayersEntry> rating_rows_;                                             // what %%RATING lists
  std::map<std::string, std::pair<league::WallTime, std::vector<std::string>>> last_rounds_;  // by group
  struct RatingJobResult {
    league::LeagueRatings ratings;
    std::vector<std::string> notes;
    bool failed = false;
  };
  std::future<RatingJobResult> rating_job_;  // valid while a refresh runs on the worker thread
  bool rating_job_again_ = false;            // a game ended while it ran: the list it read may miss it
  // When on_timer looks for the job's result next (a job takes from milliseconds to about a second): a fixed time,
  // so that a stream of lines, each re-arming the timer, cannot put it off.
  SteadyTime rating_poll_at_{};
  static constexpr std::chrono::milliseconds RATING_POLL{50};
  std::mt19937_64 league_rng_;
};

}  // namespace arena::csa
