#pragma once
// One game on a CSA server, from the Game_Summary block to the result line (csa-protocol.md §2-§7), over a
// ClientConnection (no sockets here: tests feed scripted lines) and a ClientEngine.
//
// The loop itself is ClientGame's (client_game.h); the decisions the protocol leaves to the client are parts of
// their own, each tested directly:
// - game_terms.h: what the Game_Summary means (colour, declaration rule, position, clocks) or why we REJECT;
// - turn_time.h: the clocks of our turn (the server's T is the truth), the `go`, when to `stop` the engine and
//   when to play without it (our own flag: a server may notice a time-up a minute late, we never rely on it);
// - answer.h: what is sent for the engine's answer (a false `win` or an illegal move is never sent; a fallback
//   move keeps the game alive).
// Also decided here:
// - An engine that crashes mid-game is restarted and asked again with the time left; if it cannot be started,
//   %TORYO. %CHUDAN or any other % command is never sent.
// - A move echoed by the server that our rules reject: the server is then the judge; we wait for its result
//   until our own budget for the next move has run out and then resign (the position is unknown to us).
// - A stop request during a game: the game is played to its end, or resigned at our next turn when
//   `resign_on_stop` is set.

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "csa/client/connection.h"
#include "csa/client/engine.h"
#include "csa/client/game_report.h"
#include "csa/client/game_settings.h"

namespace arena::csa {

// What the live status line shows.
struct LiveStatus {
  std::string phase;  // "agreeing", "our turn", "their turn", "pondering", "finished"
  std::string opponent;
  shogi::Color us = shogi::BLACK;
  int ply = 0;
  int64_t remaining_ms[shogi::COLOR_NB] = {0, 0};
  std::optional<int> score_black;  // the engine's last score, black's view
};
using StatusSink = std::function<void(const LiveStatus&)>;

// Plays the game whose "BEGIN Game_Summary" line `begin_line` has just been read: the rest of the summary,
// AGREE or REJECT, START, the moves, the end. The engine must be running or startable; it is made ready before
// AGREE. `stop` (may be null) is honoured as described above.
CsaGameReport play_csa_game(ClientConnection& conn, ClientEngine& engine, const GameSettings& settings,
                            ProtocolLog& log, const std::atomic<bool>* stop = nullptr, const StatusSink& status = {});

}  // namespace arena::csa
