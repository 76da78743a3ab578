#pragma once
// `shogi-arena csa`: one engine on a CSA server for a session of games (csa-protocol.md §2, §9, §10).
//
// The session: start the engine (a broken engine never logs in), connect, LOGIN, and per game: wait for the
// Game_Summary, play it (client/game.h), save its CSA record. CSA mode reconnects and logs in again after every
// game (the server closes the connection); x1 mode asks for the next game with %%GAME / %%CHALLENGE on the same
// connection. A failed connect, a dropped connection or a refused login after an earlier success is retried
// with a doubling delay; the very first LOGIN:incorrect is fatal (wrong credentials do not get better).
// A stop request: while waiting for a game, LOGOUT and return; in a game, see client/game.h.
//
// Output: <output_dir>/<Game_ID>.csa per game that started (the server's times, our engine's '** comments), the
// session log (client/log.h), notes on stdout and a live status line on stderr when it is a terminal.

#include <atomic>
#include <expected>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "csa/client/config.h"
#include "csa/client/game.h"
#include "csa/client/link.h"

namespace arena::csa {

struct LatencyFigures {
  std::size_t count = 0;
  int64_t median_us = 0;
  int64_t p99_us = 0;
  int64_t max_us = 0;
};
LatencyFigures latency_figures(std::vector<int64_t> samples_us);

struct CsaSessionReport {
  int exit_code = 0;  // 0: the games were played (or a stop was requested); 1: gave up; 2: bad configuration
  std::string error;  // why it gave up
  std::vector<CsaGameReport> games;  // every Game_Summary received, rejected ones included
  int games_started = 0;
  int wins = 0, losses = 0, draws = 0;
  int logins = 0;
  int connect_failures = 0;
  std::vector<std::string> record_files;
  LatencyFigures line_to_go, bestmove_to_send;
};

// Opens a fresh connection to the server (tests substitute scripted links).
using LinkFactory = std::function<std::expected<std::unique_ptr<ServerLink>, std::string>()>;

CsaSessionReport run_csa_session(const CsaClientConfig& config, const LinkFactory& connect,
                                 const std::atomic<bool>* stop = nullptr);

// The subcommand: a TCP session to config.host:config.port. Returns the exit code; every failure has been
// reported on stderr in one line and in the log.
int run_csa_client(const CsaClientConfig& config, const std::atomic<bool>* stop);

}  // namespace arena::csa
