#pragma once
// The referee: one USI engine asked for its score and best move in position after position at a fixed budget (a
// node count, which makes a deterministic engine's answers repeatable, or a movetime, which does not). A referee
// that dies or stalls is a value the caller restarts it after; one that answers without a score cannot referee and
// is an error of its own.

#include <chrono>
#include <cstdint>
#include <expected>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "analysis/game_analysis.h"
#include "game/game.h"

namespace arena::usi {
class UsiClient;
}

namespace arena::analysis {

struct RefereeBudget {
  std::optional<std::int64_t> nodes;
  std::optional<std::int64_t> movetime_ms;
  // `usinewgame` before every position, not only before every game: each answer then depends on its position
  // alone (not on the positions asked before it), at the cost of a cleared hash per position.
  bool fresh_positions = false;
};

struct RefereeError {
  enum class Kind {
    Lost,     // it died, or gave no bestmove even after stop (killed): restart it and ask again
    NoScore,  // a bestmove without any `info ... score`: this engine cannot referee
    Start,    // it did not start (command, options, handshake)
  };
  Kind kind = Kind::Lost;
  std::string what;  // names the referee
};

class Referee {
 public:
  Referee(game::EngineConfig config, RefereeBudget budget);
  ~Referee();
  Referee(const Referee&) = delete;
  Referee& operator=(const Referee&) = delete;

  // Starts the engine (again after a loss): handshake, options, isready.
  std::expected<void, RefereeError> start();
  bool running() const;
  // The engine's name: the configured one, or its `id name`.
  const std::string& name() const { return name_; }
  // `usinewgame` and `isready`: every game starts from the same state (a cleared hash), so that a node budget gives
  // the same answers whatever was analysed before.
  std::expected<void, RefereeError> new_game();
  // `position_line` is a whole "position ..." command.
  std::expected<Evaluation, RefereeError> evaluate(std::string_view position_line);
  void quit();
  // Times the engine was started; 1 for a referee that never died.
  int starts() const { return starts_; }

 private:
  RefereeError lost(std::string what);

  game::EngineConfig config_;
  RefereeBudget budget_;
  std::unique_ptr<usi::UsiClient> client_;
  std::string name_;
  int starts_ = 0;
};

}  // namespace arena::analysis
