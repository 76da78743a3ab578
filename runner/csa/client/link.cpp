#include "csa/client/link.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>
#include <deque>

#include <boost/asio.hpp>

namespace arena::csa {

namespace {

namespace asio = boost::asio;
using asio::ip::tcp;
using boost::system::error_code;

// A server line longer than this is garbage; it is handed over in pieces rather than buffered without limit.
constexpr std::size_t MAX_LINE = 64 * 1024;

class TcpLink final : public ServerLink {
 public:
  TcpLink() : socket_(io_), timer_(io_) {}
  ~TcpLink() override { close(); }

  std::expected<void, std::string> connect(const TcpEndpoint& ep) {
    std::string where = ep.host + ":" + std::to_string(ep.port);
    tcp::resolver resolver(io_);
    error_code ec;
    auto endpoints = resolver.resolve(ep.host, std::to_string(ep.port), ec);
    if (ec) return std::unexpected("cannot resolve " + where + ": " + ec.message());

    bool done = false, expired = false, timer_pending = true;
    error_code connect_error;
    asio::async_connect(socket_, endpoints, [&](const error_code& e, const tcp::endpoint&) {
      done = true;
      connect_error = e;
    });
    timer_.expires_after(ep.connect_timeout);
    timer_.async_wait([&](const error_code& e) {
      timer_pending = false;
      if (!e) expired = true;
    });
    while (!done && !expired) io_.run_one();
    if (!done) socket_.close(ec);  // aborts the connect
    timer_.cancel();
    while (!done || timer_pending) io_.run_one();
    io_.restart();
    if (expired && connect_error == asio::error::operation_aborted)
      return std::unexpected("cannot connect to " + where + ": no answer within " +
                             std::to_string(ep.connect_timeout.count()) + " ms");
    if (connect_error) return std::unexpected("cannot connect to " + where + ": " + connect_error.message());

    // Engines started later (a restart mid-game) must not inherit the connection: closing it must close it.
    ::fcntl(socket_.native_handle(), F_SETFD, FD_CLOEXEC);
    socket_.set_option(tcp::no_delay(true), ec);
    if (ep.tcp_keepalive) {
      socket_.set_option(asio::socket_base::keep_alive(true), ec);
      int fd = socket_.native_handle();
      int idle = 30, interval = 10, count = 6;
      ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
      ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &interval, sizeof interval);
      ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &count, sizeof count);
    }
    start_read();
    return {};
  }

  bool send(std::string_view line) override {
    if (broken_ || !socket_.is_open()) return false;
    out_.assign(line);
    out_.push_back('\n');
    // Straight to the socket: the reading side lives in the event loop, but a send(2) needs none of it and a
    // move must not wait for the loop to be run.
    int fd = socket_.native_handle();
    std::size_t done = 0;
    auto give_up = SteadyClock::now() + std::chrono::seconds(10);
    while (done < out_.size()) {
      ssize_t n = ::send(fd, out_.data() + done, out_.size() - done, MSG_NOSIGNAL);
      if (n >= 0) {
        done += std::size_t(n);
        continue;
      }
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) {
        // The server stopped reading: wait for room, but not forever.
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(give_up - SteadyClock::now()).count();
        pollfd p{fd, POLLOUT, 0};
        if (left > 0 && ::poll(&p, 1, int(left)) >= 0) continue;
        broke("the server stopped reading (a line could not be sent for 10 s)");
        return false;
      }
      broke(std::string("send failed: ") + std::strerror(errno));
      return false;
    }
    return true;
  }

  LinkEvent receive(Deadline deadline) override {
    if (!lines_.empty() || ended_) return take();
    io_.restart();
    io_.poll();
    if (!lines_.empty() || ended_ || SteadyClock::now() >= deadline) return take();

    bool expired = false, timer_pending = true;
    timer_.expires_at(deadline);
    timer_.async_wait([&](const error_code& e) {
      timer_pending = false;
      if (!e) expired = true;
    });
    while (lines_.empty() && !ended_ && !expired) {
      if (io_.stopped()) io_.restart();
      io_.run_one();
    }
    if (timer_pending) {
      timer_.cancel();
      // The cancelled handler refers to this frame: let it run before returning.
      while (timer_pending) {
        if (io_.stopped()) io_.restart();
        io_.run_one();
      }
    }
    return take();
  }

  void close() override {
    if (socket_.is_open()) {
      error_code ec;
      socket_.shutdown(tcp::socket::shutdown_both, ec);
      socket_.close(ec);
      // Let the aborted read complete so no handler outlives the link.
      io_.restart();
      io_.poll();
    }
  }

 private:
  void start_read() {
    if (reading_ || ended_) return;
    reading_ = true;
    asio::async_read_until(socket_, asio::dynamic_buffer(buffer_, MAX_LINE), '\n',
                           [this](const error_code& ec, std::size_t n) { on_read(ec, n); });
  }

  void on_read(const error_code& ec, std::size_t n) {
    reading_ = false;
    auto now = SteadyClock::now();
    if (!ec) {
      // The buffer may hold several lines: each gets the time it was read.
      std::size_t begin = 0, end = n;
      while (true) {
        push(std::string_view(buffer_).substr(begin, end - 1 - begin), now);
        begin = end;
        auto next = buffer_.find('\n', begin);
        if (next == std::string::npos) break;
        end = next + 1;
      }
      buffer_.erase(0, begin);
      start_read();
      return;
    }
    if (ec == asio::error::not_found) {
      push(buffer_, now);
      buffer_.clear();
      start_read();
      return;
    }
    if (!buffer_.empty()) push(buffer_, now);  // a last line without LF still counts
    buffer_.clear();
    if (ec == asio::error::eof)
      fail("the server closed the connection");
    else if (ec == asio::error::operation_aborted)
      fail("connection closed");
    else
      fail("connection lost: " + ec.message());
  }

  void push(std::string_view line, SteadyClock::time_point t) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines_.push_back({LinkEvent::Kind::Line, std::string(line), t});
  }

  // Nothing more can be sent; lines already on their way in are still read until the stream ends.
  void broke(std::string why) {
    if (close_reason_.empty()) close_reason_ = std::move(why);
    broken_ = true;
  }

  void fail(std::string why) {
    broke(std::move(why));
    ended_ = true;
  }

  LinkEvent take() {
    if (!lines_.empty()) {
      LinkEvent e = std::move(lines_.front());
      lines_.pop_front();
      return e;
    }
    if (ended_) return {LinkEvent::Kind::Closed, close_reason_, SteadyClock::now()};
    return {LinkEvent::Kind::Timeout, {}, SteadyClock::now()};
  }

  asio::io_context io_;
  tcp::socket socket_;
  asio::steady_timer timer_;
  std::string buffer_;
  std::string out_;
  std::deque<LinkEvent> lines_;
  bool reading_ = false;
  bool ended_ = false;
  bool broken_ = false;
  std::string close_reason_;
};

}  // namespace

std::expected<std::unique_ptr<ServerLink>, std::string> connect_tcp(const TcpEndpoint& endpoint) {
  auto link = std::make_unique<TcpLink>();
  if (auto ok = link->connect(endpoint); !ok) return std::unexpected(ok.error());
  return link;
}

}  // namespace arena::csa
