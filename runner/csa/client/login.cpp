#include "csa/client/login.h"

#include <algorithm>

#include "csa/protocol/message.h"

namespace arena::csa {

namespace {

// How often a wait looks at its StopCheck: short enough for Ctrl-C to feel immediate.
constexpr std::chrono::milliseconds STOP_POLL{100};

Deadline next_wake(Deadline deadline) { return std::min(deadline, SteadyClock::now() + STOP_POLL); }

}  // namespace

LoginOutcome login(ClientConnection& conn, const std::string& user, const std::string& password,
                   std::chrono::milliseconds timeout, const StopCheck& stopped) {
  conn.send("LOGIN " + user + " " + password);
  const Deadline deadline = SteadyClock::now() + timeout;
  while (true) {
    if (stopped && stopped()) return {LoginResult::Stopped, "stopped while logging in as " + user};
    LinkEvent e = conn.receive(next_wake(deadline));
    if (e.kind == LinkEvent::Kind::Closed)
      return {LoginResult::Lost, "connection closed during LOGIN as " + user + ": " + e.text};
    if (e.kind == LinkEvent::Kind::Timeout) {
      if (SteadyClock::now() < deadline) continue;
      return {LoginResult::Lost,
              "no answer to LOGIN as " + user + " within " + std::to_string(timeout.count()) + " ms"};
    }
    auto msg = parse_server_line(e.text);
    if (!msg) continue;
    if (msg->kind == MessageKind::LoginOk) return {LoginResult::Ok, {}};
    if (msg->kind == MessageKind::LoginIncorrect) {
      LoginOutcome out{LoginResult::Incorrect, "LOGIN:incorrect for user " + user};
      LinkEvent hint = conn.receive(SteadyClock::now() + std::chrono::milliseconds(200));
      if (hint.kind == LinkEvent::Kind::Line && !hint.text.empty()) out.why += " (" + hint.text + ")";
      return out;
    }
  }
}

SummaryWaitOutcome wait_for_summary(ClientConnection& conn, Deadline deadline, const StopCheck& stopped) {
  while (true) {
    if (stopped && stopped()) return {SummaryWait::Stopped, {}};
    LinkEvent e = conn.receive(next_wake(deadline));
    if (e.kind == LinkEvent::Kind::Closed) return {SummaryWait::Closed, e.text};
    if (e.kind == LinkEvent::Kind::Timeout) {
      if (SteadyClock::now() < deadline) continue;
      return {SummaryWait::TimedOut, {}};
    }
    if (e.text == "BEGIN Game_Summary") return {SummaryWait::Summary, {}};
    if (e.text.starts_with("##[ERROR]")) return {SummaryWait::X1Error, e.text};
  }
}

}  // namespace arena::csa
