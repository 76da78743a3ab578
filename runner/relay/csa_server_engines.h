#pragma once
// Tournament games played through this project's CSA server (`via_csa_server`): one CsaServer on 127.0.0.1 for
// the whole run, and per game two CSA clients (the `shogi-arena csa` game logic) driving the two engines over
// real sockets. The server judges the game with shogi-server's clock and rules; the tournament still schedules,
// journals and writes records as for direct USI games. This exercises client and server in every game, and shows
// how an engine behaves behind a CSA bridge (whole-second clocks, margins, network latency).
//
// Each game gets a unique game name "<id>-<total>-<byoyomi>" or "<id>-<total>-<inc>F" carrying the clock, and
// its opening is handed to the server as the game's Position block. Records keep both engines' search info.

#include <expected>
#include <string>
#include <vector>

#include "game/game.h"
#include "run/engines.h"

namespace arena::relay {

struct CsaRelaySettings {
  int64_t margin_ms = 300;  // each client's margin for loopback latency and the engine's stop latency
};

// The game name's clock part ("600-10", "300-5F") for a time control the CSA server can play: whole seconds,
// byoyomi or increment (not both), no movetime/nodes/depth. The error says what cannot be expressed.
std::expected<std::string, std::string> csa_game_clock(const game::TimeControl& tc);

// Starts the server (the error is one line: "cannot listen ..." or why the engines' clocks do not fit) and
// returns the factory of per-worker engines that play through it. The server lives as long as any copy of the
// factory or any engines made by it.
std::expected<run::EngineFactory, std::string> make_csa_server_engines(std::vector<game::EngineConfig> engines,
                                                                  game::GameOptions options, run::EngineLogs logs,
                                                                  CsaRelaySettings relay = {});

}  // namespace arena::relay
