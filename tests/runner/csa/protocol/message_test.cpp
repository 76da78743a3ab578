// Server line classification and the §6 game-end sequences of csa-protocol.md.
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "csa/protocol/message.h"
#include "csa/protocol/game_end.h"

using namespace arena::csa;

namespace {

Message ok(std::string_view line) {
  auto m = parse_server_line(line);
  INFO("line: ", std::string(line));
  REQUIRE(m.has_value());
  return *m;
}

std::string err(std::string_view line) {
  auto m = parse_server_line(line);
  INFO("line: ", std::string(line));
  REQUIRE_FALSE(m.has_value());
  return m.error();
}

GameEnd collect(const std::vector<std::string>& lines) {
  GameEndCollector c;
  for (const auto& l : lines) c.feed(ok(l));
  REQUIRE(c.finished());
  return c.end();
}

}  // namespace

TEST_CASE("session lines") {
  CHECK(ok("").kind == MessageKind::Empty);
  CHECK(ok("\r").kind == MessageKind::Empty);
  auto login = ok("LOGIN:alice OK");
  CHECK(login.kind == MessageKind::LoginOk);
  CHECK(login.text == "alice");
  CHECK(ok("LOGIN:incorrect").kind == MessageKind::LoginIncorrect);
  CHECK(err("LOGIN:alice").find("LOGIN:<name> OK") != std::string::npos);
  CHECK(ok("LOGOUT:completed").kind == MessageKind::LogoutCompleted);
  auto begin = ok("BEGIN Game_Summary\r");
  CHECK(begin.kind == MessageKind::Begin);
  CHECK(begin.text == "Game_Summary");
  auto end = ok("END Time+");
  CHECK(end.kind == MessageKind::End);
  CHECK(end.text == "Time+");
  CHECK_FALSE(parse_server_line("BEGIN ").has_value());
  auto start = ok("START:local+testgame-300-10F+alice+bob+20261121122219");
  CHECK(start.kind == MessageKind::Start);
  CHECK(start.text == "local+testgame-300-10F+alice+bob+20261121122219");
  CHECK_FALSE(parse_server_line("START:").has_value());
  auto reject = ok("REJECT:local+g+alice+bob+1 by bob");
  CHECK(reject.kind == MessageKind::Reject);
  CHECK(reject.text == "local+g+alice+bob+1");
  CHECK(reject.detail == "bob");
  auto timeout = ok("REJECT:gid by the Server (timed out)");
  CHECK(timeout.detail == "the Server (timed out)");
  auto x1 = ok("##[LOGIN] +OK x1");
  CHECK(x1.kind == MessageKind::X1);
  CHECK(x1.text == "LOGIN");
  CHECK(x1.detail == "+OK x1");
  CHECK(ok("##[ERROR] unknown command: foo").detail == "unknown command: foo");
  CHECK_FALSE(parse_server_line("##[LOGIN +OK").has_value());
  auto unknown = ok("CHALLENGE ACCEPTED");
  CHECK(unknown.kind == MessageKind::Unknown);
  CHECK(unknown.text == "CHALLENGE ACCEPTED");
}

TEST_CASE("moves and their T and comment fields") {
  auto m = ok("+7776FU,T12");
  CHECK(m.kind == MessageKind::Move);
  CHECK(m.text == "+7776FU");
  CHECK(m.time_ms == 12000);
  CHECK_FALSE(m.comment.has_value());
  CHECK(ok("-3334FU,T0").time_ms == 0);
  CHECK(ok("-3334FU,T0.5").time_ms == 500);
  CHECK(ok("+2726FU,T1.2345").time_ms == 1234);  // sub-millisecond digits truncated
  CHECK(ok("+2726FU,T7.").time_ms == 7000);
  CHECK_FALSE(ok("-0034KA").time_ms.has_value());
  CHECK(ok("+8822UM,T3").text == "+8822UM");
  auto c = ok("+7776FU,'* 30 -3334FU +2726FU");
  CHECK(c.comment == "* 30 -3334FU +2726FU");
  auto tc = ok("+7776FU,T3,'* -30 -3334FU");
  CHECK(tc.time_ms == 3000);
  CHECK(tc.comment == "* -30 -3334FU");
  CHECK(ok("+7776FU,'a, comment, with commas").comment == "a, comment, with commas");

  CHECK(err("+77FU").find("7 characters") != std::string::npos);
  CHECK(err("+7776XX").find("XX") != std::string::npos);
  CHECK(err("+7776FU,T").find("T<seconds>") != std::string::npos);
  CHECK(err("+7776FU,Tabc").find("T<seconds>") != std::string::npos);
  CHECK(err("+7776FU,T1.5.2").find("T<seconds>") != std::string::npos);
  CHECK(err("+7776FU,T-1").find("T<seconds>") != std::string::npos);
  CHECK(err("+7776FU,T1,T2").find("two ,T") != std::string::npos);
  CHECK(err("+7776FU T3").find("7 characters") != std::string::npos);  // a space instead of the comma
  CHECK(err("+7776FU,X3").find(",T<seconds>") != std::string::npos);
  CHECK(err("+0776FU").find("origin") != std::string::npos);
  CHECK(err("+7706FU").find("destination") != std::string::npos);
  CHECK(err("+").find("7 characters") != std::string::npos);
  CHECK(err("-a776FU").find("digits") != std::string::npos);
}

TEST_CASE("specials") {
  auto toryo = ok("%TORYO");
  CHECK(toryo.kind == MessageKind::Resign);
  CHECK_FALSE(toryo.time_ms.has_value());
  CHECK(ok("%TORYO,T4").time_ms == 4000);
  auto kachi = ok("%KACHI,T8");
  CHECK(kachi.kind == MessageKind::Declare);
  CHECK(kachi.time_ms == 8000);
  auto chudan = ok("%CHUDAN");
  CHECK(chudan.kind == MessageKind::OtherSpecial);
  CHECK(chudan.text == "%CHUDAN");
  CHECK_FALSE(parse_server_line("%").has_value());
  CHECK_FALSE(parse_server_line("%TORYO,Tx").has_value());
}

TEST_CASE("reason and result lines are parsed independently") {
  auto r = ok("#RESIGN");
  CHECK(r.kind == MessageKind::GameEnd);
  CHECK(r.reason == EndReason::Resign);
  CHECK(r.result == EndResult::None);
  auto w = ok("#WIN");
  CHECK(w.reason == EndReason::None);
  CHECK(w.result == EndResult::Win);
  CHECK(ok("#OUTE_SENNICHITE").reason == EndReason::OuteSennichite);
  CHECK(ok("#SENNICHITE").reason == EndReason::Sennichite);
  CHECK(ok("#CENSORED").result == EndResult::Censored);
  CHECK(ok("#CHUDAN").result == EndResult::Chudan);
  CHECK(ok("#LOSE\r").result == EndResult::Lose);
  CHECK(err("#WHATEVER").find("unknown game-end token") != std::string::npos);
  CHECK(err("#").find("unknown game-end token") != std::string::npos);
  CHECK(std::string(to_string(EndReason::TimeUp)) == "TIME_UP");
  CHECK(std::string(to_string(EndResult::Censored)) == "CENSORED");
}

TEST_CASE("every game-end sequence of §6") {
  SUBCASE("resign") {
    auto e = collect({"%TORYO", "#RESIGN", "#LOSE"});
    CHECK(e.reason == EndReason::Resign);
    CHECK(e.result == EndResult::Lose);
    CHECK(e.resign_seen);
  }
  SUBCASE("resign with a time (1.2.1 spec form)") {
    auto e = collect({"%TORYO,T4", "#RESIGN", "#WIN"});
    CHECK(e.reason == EndReason::Resign);
    CHECK(e.result == EndResult::Win);
  }
  SUBCASE("opponent disconnected on our turn: our move echoed, then the resignation") {
    auto e = collect({"+7776FU,T3", "%TORYO", "#RESIGN", "#WIN"});
    CHECK(e.reason == EndReason::Resign);
    CHECK(e.result == EndResult::Win);
  }
  SUBCASE("time up") {
    auto e = collect({"#TIME_UP", "#LOSE"});
    CHECK(e.reason == EndReason::TimeUp);
    CHECK(e.result == EndResult::Lose);
    CHECK_FALSE(e.resign_seen);
  }
  SUBCASE("illegal move") {
    auto e = collect({"#ILLEGAL_MOVE", "#WIN"});
    CHECK(e.reason == EndReason::IllegalMove);
    CHECK(e.result == EndResult::Win);
  }
  SUBCASE("valid declaration") {
    auto e = collect({"%KACHI,T8", "%KACHI", "#JISHOGI", "#WIN"});
    CHECK(e.reason == EndReason::Jishogi);
    CHECK(e.result == EndResult::Win);
    CHECK(e.declare_seen);
  }
  SUBCASE("invalid declaration") {
    auto e = collect({"%KACHI,T8", "%KACHI", "#ILLEGAL_MOVE", "#LOSE"});
    CHECK(e.reason == EndReason::IllegalMove);
    CHECK(e.result == EndResult::Lose);
    CHECK(e.declare_seen);
  }
  SUBCASE("sennichite") {
    auto e = collect({"-3334FU,T2", "#SENNICHITE", "#DRAW"});
    CHECK(e.reason == EndReason::Sennichite);
    CHECK(e.result == EndResult::Draw);
  }
  SUBCASE("perpetual check") {
    auto e = collect({"+5243KI,T1", "#OUTE_SENNICHITE", "#LOSE"});
    CHECK(e.reason == EndReason::OuteSennichite);
    CHECK(e.result == EndResult::Lose);
  }
  SUBCASE("max moves") {
    auto e = collect({"+1918KY,T1", "#MAX_MOVES", "#CENSORED"});
    CHECK(e.reason == EndReason::MaxMoves);
    CHECK(e.result == EndResult::Censored);
  }
  SUBCASE("illegal action") {
    auto e = collect({"#ILLEGAL_ACTION", "#LOSE"});
    CHECK(e.reason == EndReason::IllegalAction);
  }
  SUBCASE("#CHUDAN alone") {
    auto e = collect({"#CHUDAN"});
    CHECK(e.reason == EndReason::None);
    CHECK(e.result == EndResult::Chudan);
  }
  SUBCASE("a result without a reason") {
    auto e = collect({"#WIN"});
    CHECK(e.reason == EndReason::None);
    CHECK(e.result == EndResult::Win);
  }
  SUBCASE("extra % lines before the reason, keep-alives in between") {
    auto e = collect({"%CHUDAN", "", "%TORYO", "#RESIGN", "", "#WIN"});
    CHECK(e.reason == EndReason::Resign);
    CHECK(e.result == EndResult::Win);
    REQUIRE(e.other_specials.size() == 1);
    CHECK(e.other_specials[0] == "%CHUDAN");
  }
  SUBCASE("lines after the result change nothing") {
    GameEndCollector c;
    CHECK_FALSE(c.feed(ok("#TIME_UP")));
    CHECK_FALSE(c.finished());
    CHECK(c.feed(ok("#WIN")));
    CHECK(c.feed(ok("#LOSE")));
    CHECK(c.feed(ok("#RESIGN")));
    CHECK(c.end().result == EndResult::Win);
    CHECK(c.end().reason == EndReason::TimeUp);
  }
  SUBCASE("a reason alone does not end the game") {
    GameEndCollector c;
    c.feed(ok("#SENNICHITE"));
    CHECK_FALSE(c.finished());
  }
}

TEST_CASE("garbage never crashes the parser") {
  const std::vector<std::string> seeds = {"+7776FU,T12,'* 30 -3334FU", "LOGIN:alice OK", "REJECT:g by b",
                                          "%KACHI,T8",                 "##[MONITOR2][id] T3", "#OUTE_SENNICHITE"};
  for (const auto& s : seeds)
    for (size_t n = 0; n <= s.size(); ++n) (void)parse_server_line(std::string_view(s).substr(0, n));
  std::mt19937 rng(12345);
  const std::string alphabet = "+-%#,'T.0123456789FUKAHIOULOGIN: []\r";
  for (int i = 0; i < 20000; ++i) {
    std::string line(rng() % 16, ' ');
    for (char& ch : line) ch = alphabet[rng() % alphabet.size()];
    auto m = parse_server_line(line);
    if (m && m->kind == MessageKind::Move) CHECK(m->text.size() == 7);
    if (!m) CHECK_FALSE(m.error().empty());
  }
}
