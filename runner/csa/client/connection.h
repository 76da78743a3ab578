#pragma once
// One connection to the server as the client session sees it: a ServerLink plus the log of every line and the
// keep-alive rule (csa-protocol.md §8): an empty line only after `keep_alive` of silence on our side — the server
// may count an empty line sent within 30 s of our previous line as a foul.

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include "csa/client/link.h"
#include "csa/client/log.h"

namespace arena::csa {

class ClientConnection {
 public:
  ClientConnection(std::unique_ptr<ServerLink> link, ProtocolLog& log, std::chrono::milliseconds keep_alive);
  ~ClientConnection();
  ClientConnection(const ClientConnection&) = delete;
  ClientConnection& operator=(const ClientConnection&) = delete;

  // Sends and logs a line. `sent_at` receives the time the bytes were handed to the socket.
  bool send(std::string_view line, SteadyClock::time_point* sent_at = nullptr);
  // The next server line (logged), Timeout at `deadline`, or Closed. Sends the keep-alive while it waits.
  LinkEvent receive(Deadline deadline);
  // A line that is already there, without waiting (keep-alive still served).
  LinkEvent poll() { return receive(SteadyClock::now()); }

  bool closed() const { return closed_; }
  const std::string& close_reason() const { return close_reason_; }
  void close();

  int keep_alives_sent() const { return keep_alives_; }
  SteadyClock::time_point last_send() const { return last_send_; }

 private:
  void keep_alive_if_due();

  std::unique_ptr<ServerLink> link_;
  ProtocolLog& log_;
  std::chrono::milliseconds keep_alive_;
  SteadyClock::time_point last_send_;
  bool closed_ = false;
  std::string close_reason_;
  int keep_alives_ = 0;
};

}  // namespace arena::csa
