#pragma once
// Starting a USI engine from its EngineConfig: the one way the runner does it, for tournaments (game::Player), the
// CSA client (csa::ClientEngine) and the checker (check::ProbeEngine).
//
// A start spawns the process (a bare command is found on PATH or in /usr/games), sends `usi` and waits for `usiok`,
// checks every configured option against the engine's own `option` lines before any is sent (a configuration error
// leaves the engine untouched), sends them in order, tells the engine whether it will ponder (`USI_Ponder`, unless
// the options set it), and waits for `readyok`; each wait within the startup timeout. A failed start is a value that
// says at which step and why; the process is then gone (killed and reaped).

#include <chrono>
#include <expected>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "game/game.h"
#include "process/engine_process.h"

namespace arena::usi {
class UsiClient;
}

namespace arena::game {

// What differs between the callers, none of it about the engine itself.
struct StartSetup {
  std::shared_ptr<process::EventLoop> loop;  // the game thread's loop; nullptr: a private one
  process::IoLogger io_logger;               // every line to and from the engine (the CSA client's log)
  std::filesystem::path stderr_log;          // replaces config.stderr_log when set (the checker's own file)
};

struct StartedEngine {
  std::unique_ptr<usi::UsiClient> client;  // Idle, with the config's go quirks set
  std::string name;                        // engine_name(config), or the engine's `id name` if none was configured
  std::chrono::milliseconds usiok{0};      // `usi` -> `usiok`
  std::chrono::milliseconds readyok{0};    // the options sent, `isready` -> `readyok`
  // With config.rules: the rule options set from the game (rule_options.h) and the configured ones that contradict
  // it, for the caller to report once.
  std::vector<std::string> rule_notes, rule_warnings;
};

struct StartFailure {
  enum class Step { Spawn, Handshake, Options, Ready };
  Step step = Step::Spawn;
  // What went wrong, without the engine's name: "no usiok within 10000 ms (startup timeout)", "exited during the
  // USI handshake (killed by signal 11 (Segmentation fault); stderr: '...')", "option 'Hash' must be ...".
  std::string what;
  std::string who;  // "engine 'name' (command)"
  // The dead, reaped client when the process had started (its pid and logs stay inspectable); else nullptr.
  std::unique_ptr<usi::UsiClient> client;

  std::string message() const { return who + ": " + what; }
};

// The configured name, else the file name of the command.
std::string engine_name(const EngineConfig& config);

std::expected<StartedEngine, StartFailure> start_engine(const EngineConfig& config, StartSetup setup = {});

using OptionList = std::vector<std::pair<std::string, std::string>>;
// Options for an engine that is running and idle (between games: an SPSA run's next values): every option checked
// against the engine's own option lines before any is sent, then `isready` within `timeout`, so that the engine
// has taken them (a hash it reallocates, a table it rebuilds) before the next `usinewgame`. The error says which
// option and why, or that the engine did not answer.
std::expected<void, std::string> set_options(usi::UsiClient& client, const OptionList& options,
                                             std::chrono::milliseconds timeout);

}  // namespace arena::game
