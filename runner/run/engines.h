#pragma once
// The engines one worker thread plays with. Every kind of run (run/run_core.h) only sees this interface, so its
// scheduling, journal and replay logic can be tested with scripted fakes; make_usi_engines() is the real thing
// (game::Player and game::play_game over engine processes), relay/csa_server_engines.h plays through the CSA
// server.

#include <atomic>
#include <expected>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "config/config.h"
#include "game/engine_start.h"
#include "game/game.h"
#include "game/game_result.h"
#include "game/game_watch.h"
#include "journal/shard.h"
#include "usi/usi_option.h"

namespace arena::run {

class WorkerEngines {
 public:
  virtual ~WorkerEngines() = default;
  // Makes engine `engine` ready, starting its process if it is not running. The error says what went wrong.
  virtual std::expected<void, std::string> prepare(int engine) = 0;
  // New values for options of the prepared engine, sent before its next game: an SPSA side's values, sent again
  // before each game, as a restarted process starts with the configured ones. Each is checked against the
  // engine's own option lines first; the error names the engine.
  virtual std::expected<void, std::string> set_options(int engine, const game::OptionList& options) = 0;
  // The options the prepared engine declared (its `option` lines).
  virtual std::vector<usi::OptionSpec> declared_options(int engine) = 0;
  // Plays one game; both engines prepared. Never throws for anything an engine does.
  virtual PlayedGame play(int black, int white, const std::string& start_position,
                          const std::atomic<bool>* interrupt) = 0;
  // Whether the engine's process is still usable after a game (a crashed or killed engine is restarted by the
  // next prepare()).
  virtual bool alive(int engine) = 0;
  // Stops the engine's process (quit, grace, kill; reaped).
  virtual void release(int engine) = 0;
  // What the starts and games since the last call showed of the engines (game::Player::take_notices). The CSA
  // relay's engines (csa_server_engines) tell none: they are the CSA client's (csa/client/engine), not Players.
  virtual game::Player::Notices take_notices() { return {}; }

  // The watcher of the games played from now on (nullptr: none), owned by the caller; play() calls it no more once
  // it has returned. The CSA relay calls it from the server's thread (its moves and clocks, no search info).
  void watch_with(game::GameWatcher* watcher) { watcher_ = watcher; }

 protected:
  game::GameWatcher* watcher_ = nullptr;
};

// Says each line of `notices` once per run through `note` and `warning`; `said` holds what was said (guarded by the
// caller's lock).
void say_once(const game::Player::Notices& notices, std::set<std::string>& said,
              const std::function<void(const std::string&)>& note,
              const std::function<void(const std::string&)>& warning);

// Makes the engines of worker `worker` (0-based).
using EngineFactory = std::function<std::unique_ptr<WorkerEngines>(int worker)>;

struct EngineLogs {
  std::string dir;         // empty: no logs
  bool stderr_log = true;  // <dir>/<engine>-w<worker>.stderr
  bool io_log = false;     // <dir>/<engine>-w<worker>.io

  // "<dir>/<engine>-w<worker>" (worker 0-based, named from 1), the files' common stem; empty without logs.
  std::string stem(const std::string& engine, int worker) const;
  // Sets the engine's log files as the run asks.
  void configure(game::EngineConfig& engine, int worker) const;
};

// The engine logs a run asks for (--engine-logs, --io-logs) under OUT/logs, the folder made. Shards share OUT from
// many nodes: each process logs into a folder of its own, as appends from several NFS clients to one file
// interleave. The error names the folder that cannot be made.
std::expected<EngineLogs, std::string> engine_logs_of(const config::Config& config,
                                                      const std::optional<journal::Shard>& shard);

// Whether `external_stop` (the runner told to stop by a signal) is raised within 200 ms: asked when an engine
// died. A batch system stops a job by signalling all its processes at once (scancel, a requeue, a time limit), and
// the engines may die a moment before the runner sees its own SIGTERM: such deaths are not crashes.
bool signalled_soon(const std::atomic<bool>* external_stop);

// Real engines: one game::Player per engine, created and started on demand.
EngineFactory make_usi_engines(std::vector<game::EngineConfig> engines, game::GameOptions options, EngineLogs logs);

// A file-name-safe form of an engine name (letters, digits, '-', '_', '.'; others become '_').
std::string safe_file_name(const std::string& name);

}  // namespace arena::run
