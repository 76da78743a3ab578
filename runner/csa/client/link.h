#pragma once
// The line transport between the CSA client and a server. The session logic talks to ServerLink only, so tests
// can drive it with scripted lines and no sockets; connect_tcp() is the real thing (Boost.Asio, kept in the .cpp).
//
// One thread: receive() runs the socket's event loop until a line arrives or the deadline passes, and send()
// writes straight to the socket from the caller's thread, so a move goes out microseconds after the engine's
// bestmove is read.

#include <chrono>
#include <expected>
#include <memory>
#include <string>
#include <string_view>

namespace arena::csa {

using SteadyClock = std::chrono::steady_clock;
using Deadline = SteadyClock::time_point;

struct LinkEvent {
  enum class Kind {
    Line,     // text = the line without its LF (and without a CR before it)
    Timeout,  // nothing by the deadline
    Closed,   // the server closed the connection or it failed; text = why
  };
  Kind kind = Kind::Timeout;
  std::string text;
  SteadyClock::time_point time{};  // when the line was taken off the socket
};

class ServerLink {
 public:
  virtual ~ServerLink() = default;
  // Writes `line` and LF. False when the connection is gone (receive() then reports Closed with the reason).
  virtual bool send(std::string_view line) = 0;
  // The next line, Timeout at `deadline` (a past deadline only polls), or Closed once the stream has ended and
  // every line before the end was delivered.
  virtual LinkEvent receive(Deadline deadline) = 0;
  virtual void close() = 0;
};

struct TcpEndpoint {
  std::string host;
  int port = 4081;
  std::chrono::milliseconds connect_timeout{10000};
  // SO_KEEPALIVE with probes after 30 s idle, every 10 s, 6 of them: a vanished server is noticed in ~90 s even
  // when neither side has anything to say.
  bool tcp_keepalive = true;
};

// Resolves and connects; the error names the host, port and reason. TCP_NODELAY is set: lines are tiny and
// latency matters more than segments.
std::expected<std::unique_ptr<ServerLink>, std::string> connect_tcp(const TcpEndpoint& endpoint);

}  // namespace arena::csa
