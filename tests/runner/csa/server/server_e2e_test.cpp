// The CSA server over real sockets on 127.0.0.1 with scripted clients: every ending's exact lines for both
// players (csa-protocol.md §6), the clock boundary and the prompt flag, logins and duplicate logins, REJECT and
// its timeout, the x1 commands, keep-alives, and clients that flood or send garbage while a game goes on.
#include <doctest/doctest.h>

#include <deque>
#include <mutex>
#include <thread>

#include "rules/movegen.h"
#include "rules/notation.h"
#include "rules/position.h"
#include "server_fixture.h"

using namespace csa_test;
using namespace std::chrono_literals;
using arena::csa::CsaGameProgress;
using arena::csa::CsaServerConfig;

namespace {

// Plays `moves` alternately from the side to move, checking that both players see each echo with T0.
void play(Pair& p, const std::vector<std::string>& moves, bool black_first = true) {
  bool black = black_first;
  for (const std::string& m : moves) {
    (black ? p.black : p.white)->send_line(m);
    CHECK(p.black->read_line() == m + ",T0");
    CHECK(p.white->read_line() == m + ",T0");
    black = !black;
  }
}

std::string record_of(TestServer& s, size_t index = 0) {
  auto games = s.server().finished_games();
  REQUIRE(games.size() > index);
  REQUIRE_FALSE(games[index].record_path.empty());
  return read_file(games[index].record_path);
}

void position_by_name(CsaServerConfig& c) {
  c.position_for = [](const std::string& name) -> std::optional<std::string> {
    if (name.rfind("kachiok", 0) == 0) return "sfen +L+NSGKGS+N+L/1R5B1/9/9/9/9/9/9/8k b 10P 1";
    if (name.rfind("kaching", 0) == 0) return "sfen +L+NSGKGS+N+L/1R5B1/9/9/9/9/9/9/8k b 9P 1";
    if (name.rfind("uchifu", 0) == 0) return "sfen 8k/9/6NG1/9/9/9/9/9/4K4 b P 1";
    if (name.rfind("perpetual", 0) == 0) return "sfen 8k/9/9/9/7R1/9/9/9/4K4 b - 1";
    return std::nullopt;
  };
}

}  // namespace

TEST_CASE("a CSA-mode game to resignation: lines, closed sockets, record and results list") {
  TestServer s;
  Pair p = start_game(s.port(), "resign-300-10F");
  CHECK(p.id.rfind("local+resign-300-10F+alice+bob+", 0) == 0);
  CHECK(p.id.size() == std::string("local+resign-300-10F+alice+bob+").size() + 14);
  p.black->send_line("+7776FU,'* 30 -3334FU");
  CHECK(p.black->read_line() == "+7776FU,T0");
  CHECK(p.white->read_line() == "+7776FU,T0");  // the comment is not relayed
  p.white->send_line("%TORYO");
  CHECK(p.white->read_until("#LOSE") == Lines{"%TORYO", "#RESIGN", "#LOSE"});
  CHECK(p.black->read_until("#WIN") == Lines{"%TORYO", "#RESIGN", "#WIN"});
  // CSA mode: one game per connection.
  CHECK(p.black->wait_closed());
  CHECK(p.white->wait_closed());
  REQUIRE(s.server().wait_for_finished_games(1, 5s));
  auto g = s.server().finished_games()[0];
  CHECK(g.game_id == p.id);
  CHECK(g.end_type == "toryo");
  CHECK(g.end_reason == "#RESIGN");
  CHECK(g.winner == shogi::BLACK);
  CHECK(g.moves == std::vector<std::string>{"+7776FU"});
  std::string rec = record_of(s);
  CHECK(rec.find("$EVENT:" + p.id + "\n") != std::string::npos);
  CHECK(rec.find("'Increment:10\n") != std::string::npos);
  CHECK(rec.find("+7776FU\nT0\n'** 30 -3334FU\n%TORYO\n") != std::string::npos);
  std::string list = read_file(s.config().output_dir / "00LIST");
  CHECK(list.find("\ttoryo\twin\talice\tbob\tlose\t" + g.record_path.string() + "\t1\n") != std::string::npos);
}

TEST_CASE("0 + 2 s byoyomi: a move at 1.9 s is T1; a silent player loses within a second of the flag") {
  TestServer s;
  Pair p = start_game(s.port(), "edge-0-2");
  std::this_thread::sleep_for(1900ms);
  p.black->send_line("+7776FU");
  CHECK(p.black->read_line() == "+7776FU,T1");
  CHECK(p.white->read_line() == "+7776FU,T1");
  auto turn_start = std::chrono::steady_clock::now();
  // White says nothing at all: the server's own timer flags it.
  CHECK(p.white->read_line(6000ms) == "#TIME_UP");
  double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - turn_start).count();
  CHECK(p.white->read_line() == "#LOSE");
  CHECK(p.black->read_until("#WIN") == Lines{"#TIME_UP", "#WIN"});
  CHECK(waited >= 1.95);
  CHECK(waited <= 3.0);
  MESSAGE("silent player flagged " << waited << " s after its turn began (budget 2 s)");
}

TEST_CASE("0 + 2 s byoyomi: a move at 2.05 s is a time-up and is not echoed") {
  TestServer s;
  Pair p = start_game(s.port(), "edge-0-2");
  std::this_thread::sleep_for(2050ms);
  p.black->send_line("+7776FU");
  CHECK(p.black->read_until("#LOSE") == Lines{"#TIME_UP", "#LOSE"});
  CHECK(p.white->read_until("#WIN") == Lines{"#TIME_UP", "#WIN"});
  REQUIRE(s.server().wait_for_finished_games(1, 5s));
  CHECK(s.server().finished_games()[0].moves.empty());
  CHECK(record_of(s).find("%TIME_UP\n'summary:time up:alice lose:bob win\n") != std::string::npos);
}

TEST_CASE("illegal moves lose without an echo") {
  TestServer s([](CsaServerConfig& c) { position_by_name(c); });
  {
    Pair p = start_game(s.port(), "illegal-60-0");
    p.black->send_line("+7775FU");
    CHECK(p.black->read_until("#LOSE") == Lines{"#ILLEGAL_MOVE", "#LOSE"});
    CHECK(p.white->read_until("#WIN") == Lines{"#ILLEGAL_MOVE", "#WIN"});
  }
  {
    Pair p = start_game(s.port(), "chudan-60-0");
    play(p, {"+7776FU"});
    p.white->send_line("%CHUDAN");
    CHECK(p.white->read_until("#LOSE") == Lines{"#ILLEGAL_MOVE", "#LOSE"});
    CHECK(p.black->read_until("#WIN") == Lines{"#ILLEGAL_MOVE", "#WIN"});
  }
  {
    Pair p = start_game(s.port(), "uchifu-60-0");
    p.black->send_line("+0012FU");
    CHECK(p.black->read_until("#LOSE") == Lines{"#ILLEGAL_MOVE", "#LOSE"});
    CHECK(p.white->read_until("#WIN") == Lines{"#ILLEGAL_MOVE", "#WIN"});
  }
  REQUIRE(s.server().wait_for_finished_games(3, 5s));
  auto games = s.server().finished_games();
  CHECK(games[0].end_type == "illegal move");
  CHECK(games[1].end_type == "illegal move");
  CHECK(games[2].end_type == "uchifuzume");
  CHECK(record_of(s, 2).find("'ILLEGAL_MOVE(+0012FU)\n") != std::string::npos);
}

TEST_CASE("%KACHI valid and invalid") {
  TestServer s([](CsaServerConfig& c) { position_by_name(c); });
  {
    Pair p = start_game(s.port(), "kachiok-60-0");
    CHECK(value_of(p.summary[0], "P+") == "00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU");
    p.black->send_line("%KACHI");
    CHECK(p.black->read_until("#WIN") == Lines{"%KACHI,T0", "%KACHI", "#JISHOGI", "#WIN"});
    CHECK(p.white->read_until("#LOSE") == Lines{"%KACHI,T0", "%KACHI", "#JISHOGI", "#LOSE"});
  }
  {
    Pair p = start_game(s.port(), "kaching-60-0");
    p.black->send_line("%KACHI");
    CHECK(p.black->read_until("#LOSE") == Lines{"%KACHI,T0", "%KACHI", "#ILLEGAL_MOVE", "#LOSE"});
    CHECK(p.white->read_until("#WIN") == Lines{"%KACHI,T0", "%KACHI", "#ILLEGAL_MOVE", "#WIN"});
  }
}

TEST_CASE("sennichite and perpetual check") {
  TestServer s([](CsaServerConfig& c) { position_by_name(c); });
  {
    Pair p = start_game(s.port(), "senni-60-0");
    std::vector<std::string> cycle;
    for (int i = 0; i < 3; ++i) cycle.insert(cycle.end(), {"+5958OU", "-5152OU", "+5859OU", "-5251OU"});
    play(p, cycle);
    CHECK(p.black->read_until("#DRAW") == Lines{"#SENNICHITE", "#DRAW"});
    CHECK(p.white->read_until("#DRAW") == Lines{"#SENNICHITE", "#DRAW"});
  }
  {
    Pair p = start_game(s.port(), "perpetual-60-0");
    std::vector<std::string> cycle;
    for (int i = 0; i < 3; ++i) cycle.insert(cycle.end(), {"+2515HI", "-1121OU", "+1525HI", "-2111OU"});
    play(p, cycle);
    CHECK(p.black->read_until("#LOSE") == Lines{"#OUTE_SENNICHITE", "#LOSE"});
    CHECK(p.white->read_until("#WIN") == Lines{"#OUTE_SENNICHITE", "#WIN"});
  }
  REQUIRE(s.server().wait_for_finished_games(2, 5s));
  CHECK(record_of(s, 0).find("%SENNICHITE\n") != std::string::npos);
  CHECK(record_of(s, 1).find("%+ILLEGAL_ACTION\n") != std::string::npos);
}

TEST_CASE("Max_Moves") {
  TestServer s([](CsaServerConfig& c) { c.max_moves = 4; });
  Pair p = start_game(s.port(), "max-60-0");
  CHECK(value_of(p.summary[0], "Max_Moves:") == "4");
  play(p, {"+7776FU", "-3334FU", "+2726FU", "-8384FU"});
  CHECK(p.black->read_until("#CENSORED") == Lines{"#MAX_MOVES", "#CENSORED"});
  CHECK(p.white->read_until("#CENSORED") == Lines{"#MAX_MOVES", "#CENSORED"});
}

TEST_CASE("a player disconnects on its turn: the survivor wins at once") {
  TestServer s;
  Pair p = start_game(s.port(), "disc-60-0");
  play(p, {"+7776FU"});
  p.white->close();
  CHECK(p.black->read_until("#WIN") == Lines{"%TORYO", "#RESIGN", "#WIN"});
  REQUIRE(s.server().wait_for_finished_games(1, 5s));
  CHECK(s.server().finished_games()[0].end_type == "abnormal");
}

TEST_CASE("a player disconnects off turn: the survivor's next move is echoed, then it wins") {
  TestServer s;
  Pair p = start_game(s.port(), "disc-60-0");
  p.white->close();
  CHECK(p.black->read_available(300ms).empty());
  p.black->send_line("+7776FU");
  CHECK(p.black->read_until("#WIN") == Lines{"+7776FU,T0", "%TORYO", "#RESIGN", "#WIN"});
}

TEST_CASE("a client that resigns and half-closes at once still gets the result") {
  TestServer s;
  Pair p = start_game(s.port(), "half-60-0");
  p.black->send_line("%TORYO");
  p.black->shutdown_write();
  CHECK(p.black->read_until("#LOSE") == Lines{"%TORYO", "#RESIGN", "#LOSE"});
  CHECK(p.white->read_until("#WIN") == Lines{"%TORYO", "#RESIGN", "#WIN"});
  CHECK(p.black->wait_closed());
}

TEST_CASE("LOGIN: wrong lines are refused and the connection stays usable") {
  TestServer s;
  TestClient c(s.port());
  c.send_line("HELLO");
  CHECK(c.read_line() == "LOGIN:incorrect");
  c.send_line("LOGIN a b c d");
  CHECK(c.read_line() == "LOGIN:incorrect");
  CHECK(c.read_line() == "type 'LOGIN name password' or 'LOGIN name password x1'");
  c.send_line("LOGIN bad!name pw");
  CHECK(c.read_line() == "LOGIN:incorrect");
  c.send_line("LOGIN carol pw x1");
  CHECK(c.read_line() == "LOGIN:carol OK");
  CHECK(c.read_line() == "##[LOGIN] +OK x1");
}

TEST_CASE("duplicate login: same password takes over an idle session, otherwise LOGIN:incorrect and closed") {
  TestServer s;
  auto first = login(s.port(), "alice", "wait-300-10,trip1");
  {
    // Another trip: refused, and this connection is closed.
    TestClient c(s.port());
    c.send_line("LOGIN alice wait-300-10,trip2");
    CHECK(c.read_line() == "LOGIN:incorrect");
    CHECK(c.wait_closed());
  }
  {
    // x1 with a 4-token LOGIN gets the reason too.
    TestClient c(s.port());
    c.send_line("LOGIN alice other x1");
    CHECK(c.read_line() == "LOGIN:incorrect");
    CHECK(c.read_line() == "username alice is already connected");
    CHECK(c.wait_closed());
  }
  // The same trip while the first session only waits: the new login wins, the old connection is closed.
  auto second = login(s.port(), "alice", "wait-300-10,trip1");
  CHECK(first->wait_closed());
  // A player in a game cannot be replaced, even with the same password.
  auto bob = login(s.port(), "bob", "wait-300-10,tripb");
  CHECK(second->read_until("END Game_Summary").size() > 20);
  CHECK(bob->read_until("END Game_Summary").size() > 20);
  second->send_line("AGREE");
  bob->send_line("AGREE");
  CHECK(second->read_line()->rfind("START:", 0) == 0);
  CHECK(bob->read_line()->rfind("START:", 0) == 0);
  TestClient third(s.port());
  third.send_line("LOGIN alice wait-300-10,trip1");
  CHECK(third.read_line() == "LOGIN:incorrect");
  CHECK(third.wait_closed());
}

TEST_CASE("REJECT, and the agreement timeout") {
  TestServer s([](CsaServerConfig& c) { c.agree_timeout_s = 1; });
  {
    auto a = login(s.port(), "alice", "rej-60-0-B");
    auto b = login(s.port(), "bob", "rej-60-0-W");
    Lines sa = a->read_until("END Game_Summary");
    b->read_until("END Game_Summary");
    std::string id = value_of(sa, "Game_ID:");
    a->send_line("AGREE");
    b->send_line("REJECT");
    CHECK(a->read_line() == "REJECT:" + id + " by bob");
    CHECK(b->read_line() == "REJECT:" + id + " by bob");
    CHECK(a->wait_closed());
    CHECK(b->wait_closed());
  }
  {
    auto a = login(s.port(), "alice", "late-60-0-B");
    auto b = login(s.port(), "bob", "late-60-0-W");
    Lines sa = a->read_until("END Game_Summary");
    b->read_until("END Game_Summary");
    a->send_line("AGREE");
    a->send_line("AGREE");  // not valid twice
    CHECK(a->read_line() == "##[ERROR] you are in start_waiting status. AGREE is valid in agree_waiting status");
    std::string id = value_of(sa, "Game_ID:");
    CHECK(a->read_line(4000ms) == "REJECT:" + id + " by the Server (timed out)");
    CHECK(b->read_line() == "REJECT:" + id + " by the Server (timed out)");
  }
  CHECK(s.server().finished_games().empty());  // rejected games have no result
}

TEST_CASE("x1 mode: %%WHO, %%GAME, %%CHALLENGE, %%LIST, back to the lobby after a game, LOGOUT") {
  TestServer s;
  auto carol = login(s.port(), "carol", "pw", true);
  auto dave = login(s.port(), "dave", "p", true);
  carol->send_line("%%CHALLENGE x1game-60-0 +");
  CHECK(carol->read_line() == "##[ERROR] can't find rival for x1game-60-0");
  carol->send_line("%%GAME x1game-60-0");
  CHECK(carol->read_line() == "##[ERROR] A turn identifier is required: %%GAME x1game-60-0");
  carol->send_line("%%GAME bad!-60-0 +");
  CHECK(carol->read_line() == "##[ERROR] bad game name: bad!-60-0.");
  CHECK(carol->read_line() == "##[ERROR] invalid identifiers are found or too many characters are used.");
  carol->send_line("%%GAME x1game-60-0 +");
  CHECK(carol->read_available(200ms).empty());  // waiting is silent
  dave->send_line("%%WHO");
  Lines who = dave->read_until("##[WHO] +OK");
  CHECK(who ==
        Lines{"##[WHO] carol+" + std::string("8fe4c11451281c094a6578e6ddbf5eed") + " x1 game_waiting x1game-60-0 +",
              "##[WHO] dave+83878c91171338902e0fe0fb97a8c47a x1 connected", "##[WHO] +OK"});
  dave->send_line("%%CHALLENGE x1game-60-0 *");
  Lines sc = carol->read_until("END Game_Summary");
  Lines sd = dave->read_until("END Game_Summary");
  CHECK(value_of(sc, "Your_Turn:") == "+");
  CHECK(value_of(sd, "Your_Turn:") == "-");
  std::string id = value_of(sc, "Game_ID:");
  dave->send_line("%%LIST");
  CHECK(dave->read_until("##[LIST] +OK") == Lines{"##[LIST] " + id, "##[LIST] +OK"});
  carol->send_line("AGREE");
  dave->send_line("AGREE");
  CHECK(carol->read_line() == "START:" + id);
  CHECK(dave->read_line() == "START:" + id);
  carol->send_line("+7776FU");
  CHECK(carol->read_line() == "+7776FU,T0");
  CHECK(dave->read_line() == "+7776FU,T0");
  dave->send_line("%%SHOW " + id);
  Lines show = dave->read_until("##[SHOW] +OK");
  CHECK(show.front() == "##[SHOW] BEGIN Game_Summary");
  CHECK(value_of(show, "##[SHOW] Last_Move:") == "+7776FU,T0");
  CHECK(value_of(show, "##[SHOW] Remaining_Time+:") == "60");
  CHECK(value_of(show, "##[SHOW] P7") == "+FU+FU * +FU+FU+FU+FU+FU+FU");
  CHECK(show.back() == "##[SHOW] +OK");
  dave->send_line("-3334FU");
  CHECK(carol->read_line() == "-3334FU,T0");
  CHECK(dave->read_line() == "-3334FU,T0");
  carol->send_line("%TORYO");
  CHECK(carol->read_until("#LOSE") == Lines{"%TORYO", "#RESIGN", "#LOSE"});
  CHECK(dave->read_until("#WIN") == Lines{"%TORYO", "#RESIGN", "#WIN"});
  // x1 connections survive the game.
  dave->send_line("%%WHO");
  CHECK(dave->read_until("##[WHO] +OK") == Lines{"##[WHO] carol+8fe4c11451281c094a6578e6ddbf5eed x1 connected",
                                                 "##[WHO] dave+83878c91171338902e0fe0fb97a8c47a x1 connected",
                                                 "##[WHO] +OK"});
  dave->send_line("%%LIST");
  CHECK(dave->read_until("##[LIST] +OK") == Lines{"##[LIST] +OK"});
  dave->send_line("hello there");
  CHECK(dave->read_line() == "##[ERROR] unknown command: hello there");
  dave->send_line("%%MONITORON " + id);
  CHECK(dave->read_line()->rfind("##[ERROR] ", 0) == 0);
  dave->send_line("%%GAME");  // cancel while connected: no reply
  dave->send_line("%%VERSION");
  CHECK(dave->read_until("##[VERSION] +OK").size() == 2);
  dave->send_line("LOGOUT");
  CHECK(dave->read_line() == "LOGOUT:completed");
  CHECK(dave->wait_closed());
  carol->send_line("%%WHO");
  CHECK(carol->read_until("##[WHO] +OK").size() == 2);
}

TEST_CASE("keep-alive: an empty line is answered with an empty line, a single space is not answered") {
  TestServer s;
  Pair p = start_game(s.port(), "ka-60-0");
  p.white->send_line("");
  CHECK(p.white->read_line() == "");
  p.black->send_line(" ");
  CHECK(p.black->read_available(300ms).empty());
  play(p, {"+7776FU"});
}

TEST_CASE("garbage, over-long lines, floods and error streams are dropped while another game goes on") {
  TestServer s([](CsaServerConfig& c) {
    c.max_line_length = 1024;
    c.max_line_burst = 50;
    c.max_lines_per_second = 20;
    c.max_consecutive_errors = 8;
  });
  Pair p = start_game(s.port(), "busy-60-0");
  play(p, {"+7776FU", "-3334FU"});

  TestClient binary(s.port());
  binary.send_raw(std::string("LOGIN x y\x01\x02\x03\n", 13));
  CHECK(binary.wait_closed());

  TestClient longline(s.port());
  longline.send_raw(std::string(5000, 'A'));  // no LF needed: the partial line alone is too long
  CHECK(longline.wait_closed());

  auto flood = login(s.port(), "flood", "pw", true);
  std::string many;
  for (int i = 0; i < 200; ++i) many += "%%VERSION\n";
  flood->send_raw(many);
  CHECK(flood->wait_closed());

  TestClient errors(s.port());
  for (int i = 0; i < 10; ++i) errors.send_line("nonsense");
  CHECK(errors.wait_closed());

  // The game was not disturbed.
  play(p, {"+2726FU", "-8384FU"});
  p.black->send_line("%TORYO");
  CHECK(p.black->read_until("#LOSE") == Lines{"%TORYO", "#RESIGN", "#LOSE"});
  CHECK(p.white->read_until("#WIN") == Lines{"%TORYO", "#RESIGN", "#WIN"});
  REQUIRE(s.server().wait_for_finished_games(1, 5s));
  CHECK(s.server().finished_games()[0].moves.size() == 4);
  std::string log = s.log();
  CHECK(log.find("a control character (0x01)") != std::string::npos);
  CHECK(log.find("a line longer than 1024 bytes") != std::string::npos);
  CHECK(log.find("lines per second") != std::string::npos);
  CHECK(log.find("erroneous lines in a row") != std::string::npos);
}

TEST_CASE("a fast player's legal moves are not a flood: the game paces them, so they cost no line budget") {
  // Regression: instant-move engines in x1 mode were dropped as flooders in their fourth 256-ply game, because
  // every move line spent the same budget as garbage does.
  TestServer s([](CsaServerConfig& c) {
    c.max_line_burst = 20;
    c.max_lines_per_second = 5;
  });
  Pair p = start_game(s.port(), "fast-600-0");
  // 100 plies of seeded random legal moves, sent as fast as the echoes come: 50 lines a player in well under a
  // second, far over a 20-line burst at 5 lines/s.
  shogi::Position pos;
  std::deque<shogi::StateInfo> states(1);
  REQUIRE(pos.set(std::string(shogi::START_SFEN), &states.back()));
  std::vector<std::string> moves;
  uint64_t seed = 12345;
  for (int ply = 0; ply < 100; ++ply) {
    shogi::MoveList<shogi::LEGAL> legal(pos);
    if (legal.size() == 0) break;
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    const shogi::Move m = legal.begin()[(seed >> 33) % legal.size()].move;
    moves.push_back(shogi::to_csa(m));
    states.emplace_back();
    pos.do_move(m, states.back());
  }
  REQUIRE(moves.size() >= 60);
  play(p, moves);
  auto& loser = moves.size() % 2 == 0 ? p.black : p.white;
  loser->send_line("%TORYO");
  CHECK(loser->read_until("#LOSE") == Lines{"%TORYO", "#RESIGN", "#LOSE"});
  REQUIRE(s.server().wait_for_finished_games(1, 5s));
  const auto game = s.server().finished_games()[0];
  CHECK(game.end_type == "toryo");
  CHECK(game.moves.size() == moves.size());
  CHECK(s.log().find("lines per second") == std::string::npos);
}

TEST_CASE("the connection limit") {
  TestServer s([](CsaServerConfig& c) { c.max_connections = 2; });
  TestClient a(s.port()), b(s.port());
  a.send_line("LOGIN a p x1");
  CHECK(a.read_line() == "LOGIN:a OK");
  b.send_line("LOGIN b p x1");
  CHECK(b.read_line() == "LOGIN:b OK");
  TestClient c(s.port());
  CHECK(c.wait_closed());
  a.close();
  // A slot frees up once the server has seen the close.
  for (int i = 0; i < 100 && s.server().connection_count() > 1; ++i) std::this_thread::sleep_for(10ms);
  TestClient d(s.port());
  d.send_line("LOGIN d p x1");
  CHECK(d.read_line() == "LOGIN:d OK");
}

TEST_CASE("stopping the server ends running games with #CHUDAN") {
  auto s = std::make_unique<TestServer>();
  Pair p = start_game(s->port(), "stop-60-0");
  s->server().stop();
  CHECK(p.black->read_line() == "#CHUDAN");
  CHECK(p.white->read_line() == "#CHUDAN");
  CHECK(p.black->wait_closed());
  auto games = s->server().finished_games();
  REQUIRE(games.size() == 1);
  CHECK(games[0].end_reason == "#CHUDAN");
  CHECK_FALSE(games[0].winner);
}

TEST_CASE("settings are checked at start") {
  CsaServerConfig c;
  c.port = 0;
  c.event = "my+event";
  arena::csa::CsaServer a(c);
  auto ok = a.start();
  REQUIRE_FALSE(ok);
  CHECK(ok.error().find("event") != std::string::npos);
  c.event = "local";
  c.max_line_length = 10;
  arena::csa::CsaServer b(c);
  CHECK_FALSE(b.start());
}

TEST_CASE("a port in use is a clear start-up error") {
  TestServer s;
  CsaServerConfig c;
  c.port = s.port();
  arena::csa::CsaServer second(c);
  auto ok = second.start();
  REQUIRE_FALSE(ok);
  CHECK(ok.error().find("cannot listen on 127.0.0.1:" + std::to_string(s.port())) != std::string::npos);
}

TEST_CASE("the listen address is checked at start") {
  CsaServerConfig c;
  c.listen_address = "not-an-address";
  c.port = 0;
  arena::csa::CsaServer server(c);
  auto ok = server.start();
  REQUIRE_FALSE(ok);
  CHECK(ok.error().find("not-an-address") != std::string::npos);
}

TEST_CASE("on_game_progress: the start and each move, in order, before the end; never for a rejected game") {
  std::mutex mutex;
  std::vector<CsaGameProgress> seen;
  TestServer s([&](CsaServerConfig& c) {
    c.on_game_progress = [&](const CsaGameProgress& p) {
      std::lock_guard lock(mutex);
      seen.push_back(p);
    };
  });
  {
    auto a = login(s.port(), "alice", "rej-60-0-B");
    auto b = login(s.port(), "bob", "rej-60-0-W");
    a->read_until("END Game_Summary");
    b->read_until("END Game_Summary");
    b->send_line("REJECT");
    a->read_line();
  }
  Pair p = start_game(s.port(), "progress-300-10F");
  p.black->send_line("+7776FU");
  CHECK(p.black->read_line() == "+7776FU,T0");
  CHECK(p.white->read_line() == "+7776FU,T0");
  p.white->send_line("-3334FU");
  CHECK(p.white->read_line() == "-3334FU,T0");
  CHECK(p.black->read_line() == "-3334FU,T0");
  p.black->send_line("%TORYO");
  p.black->read_until("#LOSE");
  REQUIRE(s.server().wait_for_finished_games(1, 5s));
  std::lock_guard lock(mutex);
  REQUIRE(seen.size() == 3);
  for (size_t i = 0; i < 3; ++i) {
    CHECK(seen[i].game_id == p.id);
    CHECK(seen[i].game_name == "progress-300-10F");
    CHECK(seen[i].moves.size() == i);
    CHECK(seen[i].times_s.size() == i);
    CHECK(seen[i].to_move == (i % 2 == 0 ? shogi::BLACK : shogi::WHITE));
    CHECK(seen[i].names[shogi::BLACK] == "alice");
    CHECK(seen[i].total_s == 300);
    CHECK(seen[i].increment_s == 10);
  }
  CHECK(shogi::to_usi(seen[2].moves[1]) == "3c3d");
  CHECK(seen[0].remaining_ms[shogi::BLACK] == 300000);
  CHECK(seen[1].remaining_ms[shogi::BLACK] == 310000);  // T0 and the increment
}
