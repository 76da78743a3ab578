#pragma once
// A move the server relays during the game (ours echoed, or the opponent's), checked against our position and
// mirrored on our clocks (csa-protocol.md §4-§5). Pure: no connection, no engine.
//
// - A move out of turn is ignored with a warning.
// - Our own move is expected to be the echo of the token we sent; another one is warned about and still played
//   (the server is the judge of what was played).
// - A move our rules reject is not played: the caller then waits for the server's verdict.
// - The server's ,T is charged; without one, what the server would charge for the time we saw pass.

#include <cstdint>
#include <string>
#include <vector>

#include "csa/protocol/clock.h"
#include "csa/protocol/message.h"
#include "rules/game_end.h"

namespace arena::csa {

struct RelayedMove {
  enum class Kind { Played, Ignored, Rejected };
  Kind kind = Kind::Ignored;
  shogi::Color mover = shogi::BLACK;
  shogi::Move move = shogi::MOVE_NONE;  // Played
  int64_t time_ms = 0;                  // Played: the time charged
  std::string rejection;                // Rejected: why our rules reject it
  std::vector<std::string> warnings;
};

// `m` is a Move message. `awaited_echo`: the token of our move that the server has yet to echo (empty when we sent
// none). `seen_ms`: the time we saw pass since the previous move. Plays the move on `game` and charges `clock`
// when it is Played; changes nothing otherwise.
RelayedMove take_relayed_move(const Message& m, shogi::Color us, const std::string& awaited_echo,
                              shogi::GameRecord& game, CsaClock& clock, int64_t seen_ms);

}  // namespace arena::csa
