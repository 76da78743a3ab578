#pragma once
// The time of one of our turns on a CSA server: when the engine must be stopped, when the client plays a move
// itself, and the `go` the engine gets. The server's clock (protocol/clock.h) is the truth; our turn starts when
// the line that gave it to us was read.
//
// - The engine is told the server budget minus the margin and minus the time already spent since the turn began,
//   taken off the main time first, then off byoyomi, then off the increment (usi/go_builder.h applies the USI time
//   rule: btime without this move's increment, binc apart).
// - It gets `stop` `margin_ms` before the server budget ends; if it is still silent at half the margin before the
//   end, the client plays a move of its own (client/answer.h).
// - Without any clock (an untimed game) the engine gets `btime 0 wtime 0 byoyomi <untimed_move_ms>`, is stopped
//   after that plus max(1 s, margin), and the client plays its own move 5 s later.

#include <cstdint>

#include "csa/client/game_settings.h"
#include "csa/client/link.h"
#include "csa/protocol/clock.h"
#include "usi/usi_client.h"

namespace arena::csa {

struct TurnDeadlines {
  Deadline stop_at;    // the engine gets `stop`
  Deadline emergency;  // the client plays without the engine
};
TurnDeadlines turn_deadlines(const CsaClock& clock, shogi::Color us, const GameSettings& settings, Deadline turn_start);

// The `go` for our turn when `elapsed_ms` of it are already gone.
usi::GoParams turn_go(const CsaClock& clock, shogi::Color us, const GameSettings& settings, int64_t elapsed_ms);

// How long we wait for the server's verdict after it relayed a move our rules reject: our own budget for the next
// move minus the margin (the untimed think time without a clock), from `at`.
Deadline desync_deadline(const CsaClock& clock, shogi::Color us, const GameSettings& settings, Deadline at);

}  // namespace arena::csa
