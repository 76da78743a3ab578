#pragma once
// The live page's HTTP server: Boost.Beast's request parser over Boost.Asio, on a thread of its own, answering
// from a LiveState (routes.h) and streaming its updates as server-sent events.
//
// Safe by default: it listens where it is told (config::parse_listen_address gives loopback unless a host is
// written), it only reads, and nothing it does can hold up a game. A request with a malformed line or header gets
// 400, one with oversized headers or a body 413, a connection that has not sent its request within the timeout is
// closed without an answer, connections beyond the limit get 503, and an event-stream viewer that falls more than a few
// updates behind is dropped rather than buffered for.

#include <chrono>
#include <cstdint>
#include <expected>
#include <memory>
#include <string>

#include "config/values.h"

namespace arena::web {

class LiveState;

struct ServerLimits {
  size_t max_connections = 256;
  size_t max_header_bytes = 8 * 1024;
  size_t max_body_bytes = 1024;  // GET has none; a body beyond this is refused with 413
  std::chrono::milliseconds request_timeout{10000};
  std::chrono::milliseconds update_interval{250};  // how often a changed state is pushed to event streams
  size_t max_queued_updates = 8;                   // per viewer: one more and it is dropped
};

class WebServer {
 public:
  // Binds and starts serving; the error is one line naming the address.
  static std::expected<std::unique_ptr<WebServer>, std::string> start(const config::ListenAddress& address,
                                                                      LiveState& state, ServerLimits limits = {});
  ~WebServer();  // stops serving and closes every connection
  WebServer(const WebServer&) = delete;
  WebServer& operator=(const WebServer&) = delete;

  uint16_t port() const;    // the bound port (the system's pick for port 0)
  std::string url() const;  // "http://127.0.0.1:8080/"

  struct Counters {
    int64_t connections = 0;   // accepted
    int64_t requests = 0;      // answered, errors included
    int64_t bad_requests = 0;  // 400 and 413
    int64_t refused = 0;       // 503: over the connection limit
    int64_t viewers = 0;       // event streams open now
    int64_t dropped_slow = 0;  // event streams dropped for falling behind
  };
  Counters counters() const;

  struct Impl;

 private:
  explicit WebServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace arena::web
