// The only file of the web layer that includes Asio (slow to compile); Beast parses requests in request_reader.cpp.
#include "web/server.h"

#include <atomic>
#include <boost/asio.hpp>
#include <deque>
#include <optional>
#include <thread>
#include <vector>

#include "web/live_state.h"
#include "web/request_reader.h"
#include "web/routes.h"

namespace arena::web {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using boost::system::error_code;

namespace {

// Headers every answer carries: nothing is cached (the state changes), nothing is sniffed as another type.
std::string response_head(int status, std::string_view content_type, size_t length, bool keep_alive) {
  std::string h = "HTTP/1.1 ";
  h += std::to_string(status);
  h += ' ';
  h += status_text(status);
  h += "\r\nContent-Type: ";
  h += content_type;
  h += "\r\nContent-Length: ";
  h += std::to_string(length);
  h += "\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: ";
  h += keep_alive ? "keep-alive" : "close";
  h += "\r\n\r\n";
  return h;
}

std::string error_response(int status, std::string_view why) {
  std::string body(status_text(status));
  body += ": ";
  body += why;
  body += '\n';
  return response_head(status, "text/plain; charset=utf-8", body.size(), false) + body;
}

}  // namespace

class EventStream;

struct WebServer::Impl {
  Impl(LiveState& s, ServerLimits l) : state(s), limits(l) {}

  // Declared before the io_context: it destroys the connections still pending, whose destructors count here.
  LiveState& state;
  const ServerLimits limits;
  std::vector<std::weak_ptr<EventStream>> streams;  // only touched on the server's thread
  uint64_t pushed_version = 0;
  std::chrono::steady_clock::time_point last_push{};
  std::atomic<int64_t> open{0};
  std::atomic<int64_t> connections{0}, requests{0}, bad_requests{0}, refused{0}, viewers{0}, dropped_slow{0};
  uint16_t port = 0;
  std::string host;

  asio::io_context io{1};
  tcp::acceptor acceptor{io};
  asio::steady_timer ticker{io};
  asio::steady_timer accept_pause{io};
  std::thread thread;  // joined by ~WebServer

  void accept();
  void tick();
};

// A viewer's event stream: updates queued as shared texts, written one at a time; too many queued and it is gone.
class EventStream : public std::enable_shared_from_this<EventStream> {
 public:
  EventStream(tcp::socket socket, WebServer::Impl& server) : socket_(std::move(socket)), server_(server) {
    ++server_.viewers;
  }
  ~EventStream() {
    --server_.viewers;
    --server_.open;
  }

  void start(std::shared_ptr<const std::string> head) {
    push(std::move(head));
    watch_for_close();
  }

  void push(std::shared_ptr<const std::string> text) {
    if (closed_) return;
    if (queue_.size() >= server_.limits.max_queued_updates) {
      ++server_.dropped_slow;
      close();
      return;
    }
    queue_.push_back(std::move(text));
    if (queue_.size() == 1) write_next();
  }

  bool closed() const { return closed_; }

 private:
  void write_next() {
    auto self = shared_from_this();
    asio::async_write(socket_, asio::buffer(*queue_.front()), [self](error_code ec, size_t) {
      if (ec) return self->close();
      self->queue_.pop_front();
      if (!self->queue_.empty() && !self->closed_) self->write_next();
    });
  }
  // A viewer sends nothing after its request: any byte or the end of the connection closes the stream.
  void watch_for_close() {
    auto self = shared_from_this();
    socket_.async_read_some(asio::buffer(sink_), [self](error_code, size_t) { self->close(); });
  }
  void close() {
    if (closed_) return;
    closed_ = true;
    error_code ignored;
    socket_.shutdown(tcp::socket::shutdown_both, ignored);
    socket_.close(ignored);
  }

  tcp::socket socket_;
  WebServer::Impl& server_;
  std::deque<std::shared_ptr<const std::string>> queue_;
  char sink_[64];
  bool closed_ = false;
};

// One HTTP connection: requests read with limits (request_reader.h), answered from the routes, kept alive while the
// client wants. A timer closes a connection whose request has not arrived in time.
class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(tcp::socket socket, WebServer::Impl& server)
      : socket_(std::move(socket)),
        timer_(socket_.get_executor()),
        server_(server),
        reader_(RequestLimits{server.limits.max_header_bytes, server.limits.max_body_bytes}) {}
  ~HttpSession() {
    if (!handed_over_) --server_.open;
  }

  void start() {
    arm_timer(server_.limits.request_timeout);
    read();
  }

 private:
  void arm_timer(std::chrono::milliseconds after) {
    timer_.expires_after(after);
    auto self = shared_from_this();
    timer_.async_wait([self](error_code ec) {
      if (!ec) self->close();  // the request did not come in time, or the refused client did not go
    });
  }

  void read() {
    if (!buffer_.empty() && process()) return;  // a request sent right behind the last one
    auto self = shared_from_this();
    socket_.async_read_some(asio::buffer(chunk_), [self](error_code ec, size_t n) {
      if (ec || self->closed_) return self->close();
      self->buffer_.append(self->chunk_, n);
      if (!self->process()) self->read();
    });
  }

  // Feeds what arrived to the reader; true when it was a whole request (or a refusal) and is being answered.
  bool process() {
    ReadStep step = reader_.feed(buffer_);
    buffer_.erase(0, step.consumed);
    if (step.kind == ReadStep::Kind::NeedMore) return false;
    ++server_.requests;
    if (step.kind == ReadStep::Kind::Refused) {
      ++server_.bad_requests;
      answer_and_close(error_response(step.status, step.why));
      return true;
    }
    const bool head = step.method == "HEAD";
    HttpAnswer a = route(server_.state, step.method, step.target);
    if (a.status == 400) ++server_.bad_requests;
    if (a.event_stream && a.status == 200 && !head) {
      become_event_stream();
      return true;
    }
    const bool keep_alive = step.keep_alive && a.status < 400;
    std::string text = response_head(a.status, a.content_type, a.body.size(), keep_alive);
    if (!head) text += a.body;
    if (!keep_alive) {
      answer_and_close(std::move(text));
      return true;
    }
    auto out = std::make_shared<std::string>(std::move(text));
    auto self = shared_from_this();
    asio::async_write(socket_, asio::buffer(*out), [self, out](error_code ec, size_t) {
      if (ec) return self->close();
      self->reader_.reset();
      self->arm_timer(self->server_.limits.request_timeout);
      self->read();
    });
    return true;
  }

  // Writes the last answer of the connection, then a lingering close: the client may still be sending what was
  // refused, and closing with unread bytes would reset the connection and lose the answer. Our side is shut, the
  // rest is read and dropped for a moment.
  void answer_and_close(std::string text) {
    auto out = std::make_shared<std::string>(std::move(text));
    auto self = shared_from_this();
    arm_timer(std::chrono::seconds(2));
    asio::async_write(socket_, asio::buffer(*out), [self, out](error_code ec, size_t) {
      if (ec) return self->close();
      error_code ignored;
      self->socket_.shutdown(tcp::socket::shutdown_send, ignored);
      self->arm_timer(std::chrono::seconds(1));
      self->drain();
    });
  }

  void drain() {
    auto self = shared_from_this();
    socket_.async_read_some(asio::buffer(chunk_), [self](error_code ec, size_t) {
      if (ec || self->closed_) return self->close();
      self->drain();
    });
  }

  void become_event_stream() {
    timer_.cancel();
    handed_over_ = true;  // the stream counts as the open connection from now on
    auto stream = std::make_shared<EventStream>(std::move(socket_), server_);
    std::string head =
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n"
        "X-Content-Type-Options: nosniff\r\nConnection: keep-alive\r\n\r\n"
        "retry: 1000\n\nevent: update\ndata: ";
    head += server_.state.update_json();
    head += "\n\n";
    stream->start(std::make_shared<const std::string>(std::move(head)));
    server_.streams.push_back(stream);
  }

  void close() {
    if (closed_) return;
    closed_ = true;
    timer_.cancel();
    error_code ignored;
    socket_.shutdown(tcp::socket::shutdown_both, ignored);
    socket_.close(ignored);
  }

  tcp::socket socket_;
  asio::steady_timer timer_;
  WebServer::Impl& server_;
  RequestReader reader_;
  std::string buffer_;  // received and not yet taken by the reader
  char chunk_[4096];
  bool handed_over_ = false;
  bool closed_ = false;
};

void WebServer::Impl::accept() {
  acceptor.async_accept([this](error_code ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted) return;
    if (ec) {
      // Out of file descriptors (a connection flood) or a transient error: try again shortly, never spin.
      accept_pause.expires_after(std::chrono::milliseconds(100));
      accept_pause.async_wait([this](error_code wec) {
        if (!wec) accept();
      });
      return;
    }
    ++connections;
    if (open.load() >= int64_t(limits.max_connections)) {
      ++refused;
      auto text = std::make_shared<std::string>(error_response(503, "too many connections to the live page"));
      auto s = std::make_shared<tcp::socket>(std::move(socket));
      asio::async_write(*s, asio::buffer(*text), [s, text](error_code, size_t) {
        error_code ignored;
        s->close(ignored);
      });
    } else {
      ++open;
      std::make_shared<HttpSession>(std::move(socket), *this)->start();
    }
    accept();
  });
}

void WebServer::Impl::tick() {
  ticker.expires_after(limits.update_interval);
  ticker.async_wait([this](error_code ec) {
    if (ec) return;
    std::erase_if(streams, [](const std::weak_ptr<EventStream>& w) {
      auto s = w.lock();
      return !s || s->closed();
    });
    const auto now = std::chrono::steady_clock::now();
    const uint64_t version = state.version();
    if (!streams.empty() && version != pushed_version) {
      // One text for every viewer: the JSON is built once per update, not once per connection.
      auto text = std::make_shared<const std::string>("event: update\ndata: " + state.update_json() + "\n\n");
      pushed_version = version;
      last_push = now;
      for (auto& w : streams)
        if (auto s = w.lock()) s->push(text);
    } else if (!streams.empty() && now - last_push > std::chrono::seconds(15)) {
      // A comment now and then: a viewer that went away without closing is found by the failing write.
      static const auto keepalive = std::make_shared<const std::string>(": keep-alive\n\n");
      last_push = now;
      for (auto& w : streams)
        if (auto s = w.lock()) s->push(keepalive);
    }
    tick();
  });
}

std::expected<std::unique_ptr<WebServer>, std::string> WebServer::start(const config::ListenAddress& address,
                                                                        LiveState& state, ServerLimits limits) {
  auto impl = std::make_unique<Impl>(state, limits);
  const std::string where = address.host + ":" + std::to_string(address.port);
  error_code ec;
  auto ip = asio::ip::make_address(address.host, ec);
  if (ec) return std::unexpected("--web " + where + ": '" + address.host + "' is not an IP address");
  tcp::endpoint endpoint(ip, address.port);
  impl->acceptor.open(endpoint.protocol(), ec);
  if (!ec) impl->acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) impl->acceptor.bind(endpoint, ec);
  if (!ec) impl->acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) return std::unexpected("--web " + where + ": cannot listen: " + ec.message());
  impl->port = impl->acceptor.local_endpoint().port();
  impl->host = ip.is_v6() ? "[" + address.host + "]" : address.host;
  impl->accept();
  impl->tick();
  Impl* raw = impl.get();
  impl->thread = std::thread([raw] { raw->io.run(); });
  return std::unique_ptr<WebServer>(new WebServer(std::move(impl)));
}

WebServer::WebServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

WebServer::~WebServer() {
  asio::post(impl_->io, [impl = impl_.get()] {
    error_code ignored;
    impl->acceptor.close(ignored);
    impl->ticker.cancel();
    impl->accept_pause.cancel();
    impl->io.stop();
  });
  if (impl_->thread.joinable()) impl_->thread.join();
}

uint16_t WebServer::port() const { return impl_->port; }

std::string WebServer::url() const { return "http://" + impl_->host + ":" + std::to_string(impl_->port) + "/"; }

WebServer::Counters WebServer::counters() const {
  Counters c;
  c.connections = impl_->connections.load();
  c.requests = impl_->requests.load();
  c.bad_requests = impl_->bad_requests.load();
  c.refused = impl_->refused.load();
  c.viewers = impl_->viewers.load();
  c.dropped_slow = impl_->dropped_slow.load();
  return c;
}

}  // namespace arena::web
