#include "csa/client/connection.h"

#include <algorithm>

namespace arena::csa {

ClientConnection::ClientConnection(std::unique_ptr<ServerLink> link, ProtocolLog& log,
                                   std::chrono::milliseconds keep_alive)
    : link_(std::move(link)), log_(log), keep_alive_(keep_alive), last_send_(SteadyClock::now()) {}

ClientConnection::~ClientConnection() { close(); }

bool ClientConnection::send(std::string_view line, SteadyClock::time_point* sent_at) {
  if (closed_ || !link_) return false;
  bool ok = link_->send(line);
  auto now = SteadyClock::now();
  if (sent_at) *sent_at = now;
  last_send_ = now;
  log_.sent(line);
  if (!ok) log_.note("sending failed; waiting for the connection to report why");
  return ok;
}

void ClientConnection::keep_alive_if_due() {
  if (closed_ || !link_) return;
  if (SteadyClock::now() - last_send_ < keep_alive_) return;
  ++keep_alives_;
  send("");
}

LinkEvent ClientConnection::receive(Deadline deadline) {
  if (closed_ || !link_) return {LinkEvent::Kind::Closed, close_reason_, SteadyClock::now()};
  while (true) {
    keep_alive_if_due();
    // Wake up for the next keep-alive if it falls before the caller's deadline.
    Deadline until = std::min(deadline, last_send_ + keep_alive_);
    LinkEvent e = link_->receive(until);
    if (e.kind == LinkEvent::Kind::Line) {
      log_.received(e.text);
      return e;
    }
    if (e.kind == LinkEvent::Kind::Closed) {
      closed_ = true;
      close_reason_ = e.text.empty() ? "connection closed" : e.text;
      log_.note("connection closed: " + close_reason_);
      e.text = close_reason_;
      return e;
    }
    if (SteadyClock::now() >= deadline) return e;
  }
}

void ClientConnection::close() {
  if (link_) {
    link_->close();
    link_.reset();
  }
  if (!closed_) {
    closed_ = true;
    if (close_reason_.empty()) close_reason_ = "closed by the client";
  }
}

}  // namespace arena::csa
