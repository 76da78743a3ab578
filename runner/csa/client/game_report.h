#pragma once
// What one game on a CSA server came to (client/game.h plays it): how it ended, the record, the engine's troubles
// and the latency the client added; and the server's result in the runner's terms.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "csa/protocol/game_end.h"
#include "csa/protocol/game_summary.h"
#include "game/game_result.h"

namespace arena::csa {

enum class GameStatus {
  Finished,        // the server sent a result line
  Rejected,        // REJECT by us (unplayable conditions, engine not ready) or by the opponent / server
  ConnectionLost,  // the connection ended before a result
};
std::string_view to_string(GameStatus s);

struct CsaGameReport {
  GameStatus status = GameStatus::ConnectionLost;
  std::string detail;  // the rejection reason, the connection error, or the server's end lines
  std::string game_id;
  std::optional<GameSummary> summary;
  bool started = false;  // START was received
  shogi::Color us = shogi::BLACK;
  GameEnd end;
  PlayedGame record;           // moves with the server's times and our engine's info, result, for the CSA record
  bool engine_failed = false;  // the engine could not be (re)started: the session should not go on with it
  int engine_restarts = 0;
  int fallback_moves = 0;  // moves the client chose itself because the engine's answer was unusable
  std::vector<std::string> warnings;
  // Latency the client adds, in microseconds: server line read -> `go`/`ponderhit` written, and engine
  // `bestmove` read -> move written to the socket.
  std::vector<int64_t> line_to_go_us;
  std::vector<int64_t> bestmove_to_send_us;
};

// The CSA server's result mapped onto the runner's result types (from our colour's point of view for
// #WIN / #LOSE).
GameResult to_game_result(const GameEnd& end, shogi::Color us);

}  // namespace arena::csa
