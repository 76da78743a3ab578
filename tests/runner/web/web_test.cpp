// The live page: LiveState and the routes without a network, then the server over real loopback sockets.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include <boost/json/object.hpp>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "rules/notation.h"
#include "rules/position.h"
#include "web/live_reporter.h"
#include "web/live_state.h"
#include "web/page.h"
#include "web/request_reader.h"
#include "web/routes.h"
#include "web/server.h"

using namespace arena;
using namespace arena::web;

namespace {

using Clock = std::chrono::steady_clock;

MoveRecord move_record(const std::string& usi_text, const shogi::Position& pos) {
  MoveRecord m;
  m.move = *shogi::parse_usi_move(pos, usi_text);
  m.time_ms = 12;
  m.info.depth = 7;
  m.info.score_cp = 35;
  m.info.nodes = 1000;
  m.info.pv = {usi_text};
  return m;
}

PlayedGame started_game() {
  PlayedGame g;
  g.names[shogi::BLACK] = "dev";
  g.names[shogi::WHITE] = "base";
  g.start_sfen = std::string(shogi::START_SFEN);
  g.time_control = "10+0.1";
  return g;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A connection to the server on 127.0.0.1.
class Client {
 public:
  explicit Client(uint16_t port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  }
  ~Client() {
    if (fd_ >= 0) ::close(fd_);
  }
  bool connected() const { return connected_; }
  bool send(const std::string& text) {
    size_t done = 0;
    while (done < text.size()) {
      ssize_t n = ::send(fd_, text.data() + done, text.size() - done, MSG_NOSIGNAL);
      if (n <= 0) return false;
      done += size_t(n);
    }
    return true;
  }
  // Reads until `until` appears, the peer closes, or the timeout passes; returns everything read so far.
  std::string read(const std::string& until, std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
    const auto end = Clock::now() + timeout;
    while (!contains(received_, until)) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - Clock::now()).count();
      if (left <= 0) break;
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, int(left)) <= 0) break;
      char buf[65536];
      ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
      if (n <= 0) {
        closed_ = true;
        break;
      }
      received_.append(buf, size_t(n));
    }
    return received_;
  }
  // True once the server has closed the connection (within the timeout).
  bool closed_by_peer(std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
    read("\x01never", timeout);
    return closed_;
  }

 private:
  int fd_ = -1;
  bool connected_ = false;
  bool closed_ = false;
  std::string received_;
};

std::string get(uint16_t port, const std::string& target) {
  Client c(port);
  c.send("GET " + target + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  c.closed_by_peer();
  return c.read("");
}

template <class Pred>
bool eventually(Pred pred, std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
  const auto end = Clock::now() + timeout;
  while (Clock::now() < end) {
    if (pred()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return pred();
}

}  // namespace

TEST_CASE("a watched game is on a board from its start to its end, with moves, clocks and thinking") {
  shogi::Position::init();
  LiveState state("sprt: dev vs base");
  const uint64_t v0 = state.version();
  auto watcher = state.watch(12, 6, 1);
  CHECK(state.version() > v0);
  // Not shown before the game has started.
  CHECK(contains(state.update_json(), "\"boards\":[]"));

  PlayedGame g = started_game();
  game::ClockView clocks;
  clocks.remaining_ms[shogi::BLACK] = 10000;
  clocks.remaining_ms[shogi::WHITE] = 10000;
  watcher->started(g, clocks);
  std::string j = state.update_json();
  CHECK(contains(j, "\"title\":\"sprt: dev vs base\""));
  CHECK(contains(j, "\"game\":12,\"round\":6,\"attempt\":1,\"black\":\"dev\",\"white\":\"base\""));
  CHECK(contains(j, "\"moves\":[]"));
  CHECK(contains(j, "\"running\":\"black\""));

  watcher->search_started(clocks);
  SearchInfo thinking;
  thinking.depth = 5;
  thinking.score_cp = -20;
  thinking.nodes = 5000;
  thinking.pv = {"7g7f", "3c3d"};
  watcher->thinking(clocks, thinking);
  j = state.update_json();
  CHECK(contains(j, "\"black\":{\"depth\":5,\"seldepth\":null,\"score_cp\":-20"));
  CHECK(contains(j, "\"pv\":[\"7g7f\",\"3c3d\"]"));

  shogi::Position pos;
  shogi::StateInfo si;
  REQUIRE(pos.set(shogi::START_SFEN, &si));
  clocks.remaining_ms[shogi::BLACK] = 9100;
  clocks.running = shogi::WHITE;
  watcher->moved(move_record("7g7f", pos), clocks);
  j = state.update_json();
  CHECK(contains(j, "\"moves\":[\"7g7f\"]"));
  CHECK(contains(j, "\"black_ms\":9100,\"white_ms\":10000,\"running\":\"white\""));
  // The mover's final info replaces what it sent while thinking.
  CHECK(contains(j, "\"black\":{\"depth\":7,\"seldepth\":null,\"score_cp\":35"));
  CHECK(contains(j, "\"white\":null"));
  // The speed of a finished search is its nodes over the runner's measure of its time (1,000 nodes in 12 ms); when
  // the side thinks again, its last search stays on show with that speed until the new one sends a line.
  CHECK(contains(j, "\"nodes\":1000,\"nps\":83333"));
  clocks.running = shogi::BLACK;
  watcher->search_started(clocks);
  CHECK(contains(state.update_json(), "\"nodes\":1000,\"nps\":83333"));

  const uint64_t before_end = state.version();
  watcher.reset();
  CHECK(state.version() > before_end);
  CHECK(contains(state.update_json(), "\"boards\":[]"));
}

TEST_CASE("finished games: every one listed, the newest in each update, journal lines kept up to a limit") {
  LiveState state("gauntlet");
  for (int64_t i = 0; i < int64_t(LiveState::kKeptRecords) + 5; ++i) {
    journal::JournaledGame f;
    f.summary.game = i;
    f.summary.black.assign(1, 'a');
    f.summary.white.assign(1, 'b');
    f.summary.outcome = Outcome::BlackWin;
    f.summary.termination = Termination::Checkmate;
    f.summary.plies = 90;
    f.line = "{\"game\":" + std::to_string(i) + "}";
    state.add_finished(f);
  }
  const std::string j = state.update_json();
  CHECK(contains(j, "\"finished_total\":2005"));
  CHECK(contains(j, "{\"game\":2004,"));
  CHECK_FALSE(contains(j, "{\"game\":1954,"));  // only the newest kRecentInUpdate
  CHECK(contains(j, "{\"game\":1955,"));
  CHECK(state.journal_line(2004) == std::optional<std::string>("{\"game\":2004}"));
  CHECK(state.journal_line(5) == std::optional<std::string>("{\"game\":5}"));
  CHECK_FALSE(state.journal_line(4).has_value());  // the oldest beyond kKeptRecords are gone
  CHECK(contains(j, R"("result":"black","termination":"checkmate","detail":"","plies":90)"));
  const std::string slice = state.finished_json(3, 2);
  CHECK(contains(slice, "\"game\":3,"));
  CHECK(contains(slice, "\"game\":4,"));
  CHECK_FALSE(contains(slice, "\"game\":5,"));
  CHECK(state.finished_json(5000, 10) == "[]");
}

TEST_CASE("routes: the page, the state, games, and every bad request answered with its status") {
  LiveState state("t");
  CHECK(route(state, "GET", "/").status == 200);
  CHECK(contains(route(state, "GET", "/").body, "EventSource"));
  CHECK(route(state, "GET", "/").content_type == "text/html; charset=utf-8");
  CHECK(route(state, "HEAD", "/index.html").status == 200);
  CHECK(route(state, "GET", "/api/state").body == state.update_json());
  CHECK(route(state, "GET", "/api/events").event_stream);
  CHECK(route(state, "POST", "/").status == 405);
  CHECK(route(state, "DELETE", "/api/state").status == 405);
  CHECK(route(state, "GET", "nope").status == 400);
  CHECK(route(state, "GET", "").status == 400);
  CHECK(route(state, "GET", "/etc/passwd").status == 404);
  CHECK(route(state, "GET", "/../api/state").status == 404);
  CHECK(route(state, "GET", "/api/games?from=0&count=5").body == "[]");
  CHECK(route(state, "GET", "/api/games?from=-1").status == 400);
  CHECK(route(state, "GET", "/api/games?count=1001").status == 400);
  CHECK(route(state, "GET", "/api/games?count=x").status == 400);
  CHECK(route(state, "GET", "/api/game/abc").status == 400);
  CHECK(route(state, "GET", "/api/game/99999999999999999999999").status == 400);
  CHECK(route(state, "GET", "/api/game/3").status == 404);
  journal::JournaledGame f;
  f.summary.game = 3;
  f.line = "{\"game\":3,\"moves\":[]}";
  state.add_finished(f);
  HttpAnswer a = route(state, "GET", "/api/game/3");
  CHECK(a.status == 200);
  CHECK(a.body == "{\"game\":3,\"moves\":[]}");
}

TEST_CASE("the page carries the state of the moment, and no engine's text can end its script") {
  LiveState state("</script><script>alert(1)</script><!--");
  const std::string page = live_page_with(state.update_json());
  CHECK(page.size() > live_page().size());
  CHECK(contains(
      page, "const INITIAL_STATE = {\"title\":\"\\u003c/script>\\u003cscript>alert(1)\\u003c/script>\\u003c!--\""));
  CHECK_FALSE(contains(page, "alert(1)</script>"));
  CHECK(route(state, "GET", "/").body == page);
}

TEST_CASE("the request reader: byte by byte, two requests back to back, and the limits") {
  RequestReader reader;
  const std::string two = "GET /api/state HTTP/1.1\r\nHost: x\r\n\r\nHEAD / HTTP/1.0\r\n\r\n";
  std::string buffer;
  ReadStep step;
  size_t fed = 0;
  while (step.kind == ReadStep::Kind::NeedMore && fed < two.size()) {
    buffer += two[fed++];
    step = reader.feed(buffer);
    buffer.erase(0, step.consumed);
  }
  REQUIRE(step.kind == ReadStep::Kind::Request);
  CHECK(step.method == "GET");
  CHECK(step.target == "/api/state");
  CHECK(step.keep_alive);
  reader.reset();
  buffer += two.substr(fed);
  step = reader.feed(buffer);
  REQUIRE(step.kind == ReadStep::Kind::Request);
  CHECK(step.method == "HEAD");
  CHECK_FALSE(step.keep_alive);  // HTTP/1.0 without keep-alive

  RequestReader small(RequestLimits{64, 8});
  step = small.feed("GET / HTTP/1.1\r\nX: " + std::string(100, 'a'));
  CHECK(step.kind == ReadStep::Kind::Refused);
  CHECK(step.status == 413);
  small.reset();
  step = small.feed("GET / HTTP/1.1\r\nContent-Length: 9\r\n\r\n123456789");
  CHECK(step.kind == ReadStep::Kind::Refused);
  CHECK(step.status == 413);
  small.reset();
  CHECK_FALSE(small.got_some());
  step = small.feed("GET / HTTP/1.1\r\nContent-Length: 4\r\n\r\n12");
  CHECK(step.kind == ReadStep::Kind::NeedMore);
  CHECK(small.got_some());
  small.reset();
  step = small.feed("\x01\x02 nonsense\r\n\r\n");
  CHECK(step.kind == ReadStep::Kind::Refused);
  CHECK(step.status == 400);
  CHECK(step.why.starts_with("malformed HTTP request"));
}

TEST_CASE("server: answers, keeps a connection alive, refuses malformed and oversized requests") {
  LiveState state("server test");
  auto server = WebServer::start({"127.0.0.1", 0}, state);
  REQUIRE(server.has_value());
  const uint16_t port = (*server)->port();
  CHECK(port != 0);
  CHECK((*server)->url() == "http://127.0.0.1:" + std::to_string(port) + "/");

  std::string page = get(port, "/");
  CHECK(contains(page, "HTTP/1.1 200 OK"));
  CHECK(contains(page, "Content-Type: text/html; charset=utf-8"));
  CHECK(contains(page, "</html>"));

  SUBCASE("two requests on one connection") {
    Client c(port);
    c.send("GET /api/state HTTP/1.1\r\nHost: x\r\n\r\n");
    CHECK(contains(c.read("\"finished_total\":0}"), "200 OK"));
    c.send("GET /nothing HTTP/1.1\r\nHost: x\r\n\r\n");
    CHECK(contains(c.read("404 Not Found"), "404 Not Found"));
  }
  SUBCASE("HEAD has the length but no body") {
    Client c(port);
    c.send("HEAD / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    c.closed_by_peer();
    std::string r = c.read("");
    CHECK(contains(r, "200 OK"));
    CHECK(contains(r, "Content-Length: "));
    CHECK_FALSE(contains(r, "<html"));
  }
  SUBCASE("garbage is 400 and the connection is closed") {
    Client c(port);
    c.send("GARBAGE\r\n\r\n");
    CHECK(c.closed_by_peer());
    CHECK(contains(c.read(""), "HTTP/1.1 400 Bad Request"));
  }
  SUBCASE("a binary flood is 400") {
    Client c(port);
    std::string junk(3000, '\0');
    for (size_t i = 0; i < junk.size(); ++i) junk[i] = char((i * 131 + 7) % 256);
    c.send(junk);
    CHECK(c.closed_by_peer());
    CHECK(contains(c.read(""), "400 Bad Request"));
  }
  SUBCASE("oversized headers are 413") {
    Client c(port);
    c.send("GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(20000, 'a') + "\r\n\r\n");
    CHECK(c.closed_by_peer());
    CHECK(contains(c.read(""), "HTTP/1.1 413 Payload Too Large"));
  }
  SUBCASE("a body beyond the limit is 413") {
    Client c(port);
    c.send("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n" + std::string(100000, 'b'));
    CHECK(contains(c.read("413"), "HTTP/1.1 413 Payload Too Large"));
  }
  SUBCASE("a write method is 405") {
    Client c(port);
    c.send("POST /api/state HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}");
    CHECK(contains(c.read("405"), "HTTP/1.1 405 Method Not Allowed"));
  }
  (*server).reset();
}

TEST_CASE("server: an event stream gets the state at once and every change after it") {
  LiveState state("events");
  ServerLimits limits;
  limits.update_interval = std::chrono::milliseconds(20);
  auto server = WebServer::start({"127.0.0.1", 0}, state, limits);
  REQUIRE(server.has_value());
  Client c((*server)->port());
  c.send("GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n");
  std::string r = c.read("\"finished_total\":0}\n\n");
  CHECK(contains(r, "Content-Type: text/event-stream"));
  CHECK(contains(r, "event: update\ndata: {\"title\":\"events\""));
  CHECK(eventually([&] { return (*server)->counters().viewers == 1; }));
  state.set_standings(boost::json::object{{"games", boost::json::object{{"scheduled", 4}}}}, "Games 1/4");
  r = c.read("\"status\":\"Games 1/4\"");
  CHECK(contains(r, "\"status\":\"Games 1/4\""));
  CHECK(contains(r, "\"standings\":{\"games\":{\"scheduled\":4}}"));
}

TEST_CASE("server: games publish from their threads while viewers read (a TSan target)") {
  shogi::Position::init();
  LiveState state("threads");
  ServerLimits limits;
  limits.update_interval = std::chrono::milliseconds(1);
  auto server = WebServer::start({"127.0.0.1", 0}, state, limits);
  REQUIRE(server.has_value());
  Client viewer((*server)->port());
  viewer.send("GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n");
  REQUIRE(eventually([&] { return (*server)->counters().viewers == 1; }));
  std::vector<std::thread> games;
  for (int t = 0; t < 2; ++t) {
    games.emplace_back([&state, t] {
      for (int g = 0; g < 20; ++g) {
        auto watcher = state.watch(t * 100 + g, g, 0);
        game::ClockView clocks;
        watcher->started(started_game(), clocks);
        shogi::Position pos;
        shogi::StateInfo si;
        (void)pos.set(shogi::START_SFEN, &si);
        for (int i = 0; i < 20; ++i) {
          watcher->search_started(clocks);
          SearchInfo info;
          info.depth = i;
          info.nodes = uint64_t(i) * 100;
          watcher->thinking(clocks, info);
          watcher->moved(move_record("7g7f", pos), clocks);
        }
        journal::JournaledGame f;
        f.summary.game = t * 100 + g;
        f.line = "{}";
        state.add_finished(f);
      }
    });
  }
  for (std::thread& t : games) t.join();
  CHECK(contains(viewer.read("\"finished_total\":40"), "\"finished_total\":40"));
  CHECK(contains(state.update_json(), "\"boards\":[]"));
}

TEST_CASE("server: a viewer that stops reading is dropped, the others go on") {
  LiveState state("slow");
  ServerLimits limits;
  limits.update_interval = std::chrono::milliseconds(5);
  limits.max_queued_updates = 2;
  auto server = WebServer::start({"127.0.0.1", 0}, state, limits);
  REQUIRE(server.has_value());
  Client slow((*server)->port());
  slow.send("GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n");
  REQUIRE(eventually([&] { return (*server)->counters().viewers == 1; }));
  // Big updates, changed every few milliseconds, that the slow viewer never reads: the socket buffers fill, the
  // queue grows past its limit, and the server lets the viewer go instead of buffering for it.
  const std::string big(512 * 1024, 'x');
  int n = 0;
  CHECK(eventually(
      [&] {
        state.set_standings(boost::json::object{{"pad", big + std::to_string(n++)}}, "s");
        return (*server)->counters().dropped_slow == 1;
      },
      std::chrono::seconds(30)));
  CHECK(eventually([&] { return (*server)->counters().viewers == 0; }));
  // Still serving.
  CHECK(contains(get((*server)->port(), "/api/state"), "200 OK"));
}

TEST_CASE("server: connections over the limit get 503, silent and half-sent requests are closed at the timeout") {
  LiveState state("limits");
  ServerLimits limits;
  limits.max_connections = 2;
  limits.request_timeout = std::chrono::milliseconds(300);
  auto server = WebServer::start({"127.0.0.1", 0}, state, limits);
  REQUIRE(server.has_value());
  const uint16_t port = (*server)->port();
  {
    Client a(port), b(port);
    REQUIRE(eventually([&] { return (*server)->counters().connections == 2; }));
    Client c(port);
    CHECK(c.closed_by_peer());
    CHECK(contains(c.read(""), "503 Service Unavailable"));
    CHECK((*server)->counters().refused == 1);
    // The two silent ones are closed after the request timeout.
    CHECK(a.closed_by_peer(std::chrono::seconds(3)));
    CHECK(b.closed_by_peer(std::chrono::seconds(3)));
    CHECK(a.read("").empty());
  }
  Client half(port);
  half.send("GET /api/st");
  CHECK(half.closed_by_peer(std::chrono::seconds(3)));
  CHECK(half.read("").empty());
  CHECK(contains(get(port, "/api/state"), "200 OK"));
}

TEST_CASE("server: a port in use or a host that is not an address is a one-line error") {
  LiveState state("errors");
  auto first = WebServer::start({"127.0.0.1", 0}, state);
  REQUIRE(first.has_value());
  auto second = WebServer::start({"127.0.0.1", (*first)->port()}, state);
  REQUIRE_FALSE(second.has_value());
  CHECK(contains(second.error(), "cannot listen"));
  auto bad = WebServer::start({"not-an-address", 8080}, state);
  REQUIRE_FALSE(bad.has_value());
  CHECK(contains(bad.error(), "'not-an-address' is not an IP address"));
}
