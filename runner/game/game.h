#pragma once
// One game between two USI engines, judged by the rules library and timed by the runner.
//
// A Player owns one engine process across many games (usinewgame between them) and is restarted by the caller
// after a crash. play_game() never throws for anything an engine does: crashes, stalls, illegal moves and time
// losses all end the game with a Termination. Configuration problems surface earlier, from Player::start().

#include <atomic>
#include <chrono>
#include <cstdint>
#include <expected>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "game/game_result.h"
#include "game/rule_options.h"
#include "game/time_control.h"
#include "rules/game_end.h"

namespace arena::usi {
class UsiClient;
}
namespace arena::process {
class EventLoop;
}

namespace arena::game {

class GameWatcher;

struct EngineConfig {
  std::string name;     // display name; defaults to the engine's `id name`
  std::string command;  // executable (never run through a shell)
  std::vector<std::string> args;
  std::string working_dir;                                   // empty: the runner's working directory
  std::vector<std::pair<std::string, std::string>> options;  // setoption name/value, in order
  TimeControl time_control;
  bool ponder = false;
  // false for engines that reject binc/winc (gpsusi aborts on them): increments are folded into btime/wtime
  // instead (usi::fold_increments). The clock the runner keeps is the same either way.
  bool send_increments = true;
  // true for engines that read btime as gote's time (Fairy-Stockfish 11.1): usi::swap_sides.
  bool swap_btime_wtime = false;
  std::chrono::milliseconds startup_timeout{10000};  // usi -> usiok, isready -> readyok (also before each game)
  // This engine's time tolerance per move; unset: the game's GameOptions::margin_ms.
  std::optional<int64_t> margin_ms;
  std::chrono::milliseconds quit_grace{1000};  // after `quit`, how long it may take to exit before a kill
  std::string stderr_log;                      // file for the engine's stderr (appended); empty discards it
  std::string io_log;                          // file for every line in and out with timestamps; empty: none
  // Kill the engine when the thread that starts it ends (process::ProcessSpec::die_with_starting_thread):
  // set by a tournament's workers, which start, play and stop their engines on one thread.
  bool die_with_starting_thread = false;
  // The game's rules, told to an engine that advertises options for them (game/rule_options.h); unset: nothing
  // is told (the checker, which plays no game).
  std::optional<GameRules> rules;
  // The command's stop flag (Ctrl-C, SIGTERM): set, the start's waits for usiok and readyok end within about a
  // tenth of a second instead of at the startup timeout. nullptr: the waits run to the timeout.
  const std::atomic<bool>* interrupt = nullptr;
};

// Score-based adjudication, off unless enabled.
struct Adjudication {
  bool resign_enabled = false;
  int resign_score_cp = 3000;  // both engines agree one side is worse than this ...
  int resign_moves = 4;        // ... for this many consecutive moves each
  bool draw_enabled = false;
  int draw_score_cp = 20;  // both engines within +-this ...
  int draw_moves = 8;      // ... for this many consecutive moves each ...
  int draw_min_ply = 120;  // ... after this ply
};

struct GameOptions {
  std::string event = "shogi-arena";
  int max_plies = 512;              // counted from SFEN move number 1; 0 = no limit
  int64_t margin_ms = 100;          // the only timing tolerance; 0 allowed
  int64_t stall_timeout_ms = 3000;  // after the flag and `stop`, an engine silent this long is killed
  // A search with no clock and no movetime (nodes/depth only) cannot be flagged by a clock; one that has not
  // answered after this long is treated like a flag (stop, then the stall timeout).
  int64_t untimed_move_limit_ms = 600000;
  shogi::EnteringKingRule entering_king = shogi::EnteringKingRule::Point27;
  Adjudication adjudication;
};

class Player {
 public:
  // The process runs on `loop` if given. The two players of a game should share one loop (and the thread that
  // uses it): then a pondering engine's output is drained while the game waits for the other engine.
  explicit Player(EngineConfig config, std::shared_ptr<process::EventLoop> loop = nullptr);
  ~Player();
  Player(const Player&) = delete;
  Player& operator=(const Player&) = delete;

  // Starts the process, handshakes, validates and sends the options, waits for readyok. A bad option or an
  // engine that does not answer is an error naming the engine and what went wrong. Restarts if already running.
  // The client (and its process id) stays available after a failed start, for logs and tests.
  std::expected<void, std::string> start();
  // Started and not known to be dead (a crash is noticed at the next I/O; play_game reaps what it finds dead).
  bool running() const;
  // quit, config().quit_grace, then kill; always reaped. True if the engine exited by itself (or was not running).
  bool stop();
  // Kills at once (a stalled engine): no grace. Always reaped.
  void kill();
  // New values for options of the running engine, between games (game/engine_start.h set_options); the error
  // names the engine.
  std::expected<void, std::string> set_options(const std::vector<std::pair<std::string, std::string>>& options);

  const EngineConfig& config() const { return config_; }
  const std::string& name() const { return name_; }
  // What the user should hear of the engine, each line naming it; taken (cleared) by the call: what its last
  // start() told it of the game's rules and why not (game/rule_options.h), the malformed lines of its handshake,
  // and, once a start, that it answers a go with two bestmoves (the second is read off before the next go and
  // ignored, usi/usi_client.h). The run says each line once: its engines are started once per worker and again
  // after a crash, and tell the same every time.
  struct Notices {
    std::vector<std::string> notes, warnings;
    void add(const Notices& more) {
      notes.insert(notes.end(), more.notes.begin(), more.notes.end());
      warnings.insert(warnings.end(), more.warnings.begin(), more.warnings.end());
    }
  };
  Notices take_notices();
  // Valid once start() has been called.
  usi::UsiClient& client() { return *client_; }
  bool has_client() const { return client_ != nullptr; }

 private:
  EngineConfig config_;
  std::shared_ptr<process::EventLoop> loop_;
  std::string name_;
  std::unique_ptr<usi::UsiClient> client_;
  Notices notices_;
  bool told_double_bestmove_ = false;  // since the last start()
};

// Plays one game from `start_position` ("startpos", "startpos moves ...", "sfen ... [moves ...]"); the moves
// given with it are recorded as opening moves. Both players must be started. If `interrupt` becomes true the
// game ends as Interrupted. After the game each engine has been sent `gameover` (unless it died; an Interrupted
// game sends `gameover draw` so the engine leaves its game state), engines found dead are reaped, and an engine
// killed for a stall is no longer running(): the caller restarts it. A player that is not running when the game
// starts loses it by Disconnect. A `start_position` the rules reject (a caller error: openings are checked when
// loaded) is not played: the game ends Interrupted (not scored) with the reason, and the engines hear nothing.
// A `watcher` (game_watch.h) follows the game move by move.
PlayedGame play_game(Player& black, Player& white, const std::string& start_position, const GameOptions& options,
                     const std::atomic<bool>* interrupt = nullptr, GameWatcher* watcher = nullptr);

// The game a side lost without a move because its engine could not be started (`why`), scored as a crash
// (Disconnect) and recorded like a played game: the event, both clocks, the opening's moves. `loser` is BLACK or
// WHITE. A `start_position` the rules reject is recorded as the standard start.
PlayedGame unstarted_game(const GameOptions& options, const EngineConfig& black, const EngineConfig& white,
                          const std::string& start_position, shogi::Color loser, const std::string& why);

}  // namespace arena::game
