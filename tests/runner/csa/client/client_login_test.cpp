// LOGIN and the wait for a Game_Summary, shared by the CSA client session and the tournament relay, over an
// in-memory link: the server's answers, a banner before them, a closed connection, silence, and a stop request.
#include <algorithm>
#include <deque>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

#include "csa/client/login.h"

using namespace std::chrono_literals;
using namespace arena::csa;

namespace {

// Hands out queued lines, then Closed if `close_after` or Timeout at the deadline; records what was sent.
class QueueLink final : public ServerLink {
 public:
  QueueLink(std::deque<std::string> lines, bool close_after, std::vector<std::string>& sent)
      : lines_(std::move(lines)), close_after_(close_after), sent_(sent) {}
  bool send(std::string_view line) override {
    sent_.emplace_back(line);
    return true;
  }
  LinkEvent receive(Deadline deadline) override {
    if (!lines_.empty()) {
      LinkEvent e{LinkEvent::Kind::Line, lines_.front(), SteadyClock::now()};
      lines_.pop_front();
      return e;
    }
    if (close_after_) return {LinkEvent::Kind::Closed, "end of stream", SteadyClock::now()};
    std::this_thread::sleep_until(std::min(deadline, SteadyClock::now() + 1s));
    return {LinkEvent::Kind::Timeout, "", SteadyClock::now()};
  }
  void close() override {}

 private:
  std::deque<std::string> lines_;
  bool close_after_;
  std::vector<std::string>& sent_;
};

struct Connection {
  std::vector<std::string> sent;
  ProtocolLog log;
  ClientConnection conn;
  Connection(std::deque<std::string> lines, bool close_after)
      : conn(std::make_unique<QueueLink>(std::move(lines), close_after, sent), log, 30s) {}
};

}  // namespace

TEST_CASE("login: the answer after a banner, LOGIN:incorrect with shogi-server's reason, closed, silent") {
  SUBCASE("ok after a banner line") {
    Connection c({"Welcome to the test server", "LOGIN:alice OK"}, false);
    LoginOutcome o = login(c.conn, "alice", "game-600-10,trip", 5s);
    CHECK(o.result == LoginResult::Ok);
    REQUIRE(c.sent.size() == 1);
    CHECK(c.sent[0] == "LOGIN alice game-600-10,trip");
  }
  SUBCASE("incorrect, with the next line as the reason") {
    Connection c({"LOGIN:incorrect", "username alice is already connected"}, false);
    LoginOutcome o = login(c.conn, "alice", "pw x1", 5s);
    CHECK(o.result == LoginResult::Incorrect);
    CHECK(o.why == "LOGIN:incorrect for user alice (username alice is already connected)");
  }
  SUBCASE("incorrect, and nothing more") {
    Connection c({"LOGIN:incorrect"}, false);
    LoginOutcome o = login(c.conn, "alice", "pw", 5s);
    CHECK(o.result == LoginResult::Incorrect);
    CHECK(o.why == "LOGIN:incorrect for user alice");
  }
  SUBCASE("the server closes the connection") {
    Connection c({}, true);
    LoginOutcome o = login(c.conn, "alice", "pw", 5s);
    CHECK(o.result == LoginResult::Lost);
    CHECK(o.why == "connection closed during LOGIN as alice: end of stream");
  }
  SUBCASE("no answer") {
    Connection c({"a banner, then silence"}, false);
    LoginOutcome o = login(c.conn, "alice", "pw", 300ms);
    CHECK(o.result == LoginResult::Lost);
    CHECK(o.why == "no answer to LOGIN as alice within 300 ms");
  }
}

TEST_CASE("login and the wait for a game give up when the stop check says so, long before their deadlines") {
  // Without the check both would wait out their full minute and report Lost / TimedOut instead.
  int polls = 0;
  auto stop_on_third_poll = [&] { return ++polls >= 3; };
  Connection c({}, false);
  CHECK(login(c.conn, "alice", "pw", 60s, stop_on_third_poll).result == LoginResult::Stopped);
  CHECK(polls == 3);
  polls = 0;
  CHECK(wait_for_summary(c.conn, SteadyClock::now() + 60s, stop_on_third_poll).result == SummaryWait::Stopped);
  CHECK(polls == 3);
}

TEST_CASE("wait_for_summary: skips other lines; reports a Game_Summary, an x1 error, a close or the deadline") {
  SUBCASE("summary after chatter") {
    Connection c({"##[LOGIN] +OK x1", "", "##[GAME] waiting", "BEGIN Game_Summary", "Protocol_Version:1.2"}, false);
    SummaryWaitOutcome w = wait_for_summary(c.conn, SteadyClock::now() + 5s);
    CHECK(w.result == SummaryWait::Summary);
    // The summary's own lines are left on the connection for the game to read.
    CHECK(c.conn.poll().text == "Protocol_Version:1.2");
  }
  SUBCASE("x1 error") {
    Connection c({"##[ERROR] can't find rival for test-600-10"}, false);
    SummaryWaitOutcome w = wait_for_summary(c.conn, SteadyClock::now() + 5s);
    CHECK(w.result == SummaryWait::X1Error);
    CHECK(w.detail == "##[ERROR] can't find rival for test-600-10");
  }
  SUBCASE("closed") {
    Connection c({"LOGOUT:completed"}, true);
    SummaryWaitOutcome w = wait_for_summary(c.conn, SteadyClock::now() + 5s);
    CHECK(w.result == SummaryWait::Closed);
    CHECK(w.detail == "end of stream");
  }
  SUBCASE("deadline") {
    Connection c({}, false);
    CHECK(wait_for_summary(c.conn, SteadyClock::now() + 250ms).result == SummaryWait::TimedOut);
  }
}
