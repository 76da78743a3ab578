#pragma once
// `shogi-arena serve`: a CSA server that behaves like shogi-server (Floodgate, the championships' server) as
// described in csa-protocol.md, so that a client which works here works there, minus its known weak spots:
// a silent player's flag falls on time (not at its next line or 60 s later), flooding or garbage clients are
// dropped without disturbing other games, and line length and connection count are limited.
//
// One I/O thread (Boost.Asio, kept out of this header) serves every connection; a line costs microseconds, so
// hundreds of games fit. The protocol logic is server/lobby.h / server/game.h, without sockets.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <expected>
#include <memory>
#include <string>
#include <vector>

#include "csa/server/config.h"

namespace arena::csa {

class CsaServer {
 public:
  explicit CsaServer(CsaServerConfig config);
  ~CsaServer();  // stops the server
  CsaServer(const CsaServer&) = delete;
  CsaServer& operator=(const CsaServer&) = delete;

  // Creates the output folder, opens the log, binds and listens, and starts the server thread. The error is one
  // line naming what failed ("cannot listen on 127.0.0.1:4081: Address already in use").
  std::expected<void, std::string> start();
  // The port actually bound (the ephemeral one when the configured port is 0); 0 before start().
  uint16_t port() const;
  // Running games end with #CHUDAN, pending ones are rejected, connections are closed (what was queued is sent,
  // for up to about two seconds), and the thread is joined. Idempotent.
  void stop();

  // Thread-safe views for tests and the tournament mode.
  std::vector<CsaFinishedGame> finished_games() const;
  size_t connection_count() const;
  size_t game_count() const;  // games being agreed or played
  // Waits until at least n games have finished; false on timeout.
  bool wait_for_finished_games(size_t n, std::chrono::milliseconds timeout) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Runs a server until *stop becomes true (checked every 100 ms; nullptr: until the process ends). Prints
// "CSA server listening on <address>:<port>" and one line per finished game to stdout. Returns 0, or 1 after
// printing a one-line error to stderr when the server cannot start.
int run_csa_server(const CsaServerConfig& config, const std::atomic<bool>* stop);

}  // namespace arena::csa
