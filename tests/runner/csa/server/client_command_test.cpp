// Client -> server lines classified as shogi-server's Command.factory does (csa-protocol.md §2, §4, §8, §9), LOGIN
// and game-name rules (login.rb), and the MD5 behind rated player ids.
#include <doctest/doctest.h>

#include "csa/server/command.h"
#include "csa/server/md5.h"

using namespace arena::csa;
using K = ClientCommandKind;

namespace {
ClientCommand parse(std::string_view s) { return parse_client_command(s); }
}  // namespace

TEST_CASE("keep-alives, blanks and line ends") {
  CHECK(parse("").kind == K::KeepAlive);
  CHECK(parse("\n").kind == K::KeepAlive);
  CHECK(parse("\r\n").kind == K::KeepAlive);
  CHECK(parse(" ").kind == K::KeepAliveSilent);
  CHECK(parse(" \r\n").kind == K::KeepAliveSilent);
  CHECK(parse("  ").kind == K::Blank);
  CHECK(parse("\t").kind == K::Blank);
}

TEST_CASE("moves: the first comma field, and the Floodgate comment") {
  auto m = parse("+7776FU");
  CHECK(m.kind == K::Move);
  CHECK(m.text == "+7776FU");
  CHECK_FALSE(m.comment);
  m = parse("-3334FU,T12\r");
  CHECK(m.text == "-3334FU");
  CHECK_FALSE(m.comment);
  m = parse("+7776FU,'* 30 -3334FU +2726FU");
  CHECK(m.text == "+7776FU");
  REQUIRE(m.comment);
  CHECK(*m.comment == "* 30 -3334FU +2726FU");
  // Only the second field may be a comment (shogi-server looks at that one).
  CHECK_FALSE(parse("+7776FU,T1,'* 5").comment);
  // A comment keeps its own commas.
  CHECK(*parse("+7776FU,'* 1 a,b").comment == "* 1 a,b");
  // A space instead of the comma makes the whole token the move (an illegal move in the game).
  CHECK(parse("+7776FU '* 30").text == "+7776FU '* 30");
  CHECK(parse("+xyz").kind == K::Move);
  // A sign followed by '%' or nothing is not a move.
  CHECK(parse("+%TORYO").kind == K::Unknown);
  CHECK(parse("+").kind == K::Unknown);
  CHECK(parse("-").kind == K::Unknown);
}

TEST_CASE("%-commands: %TORYO and %KACHI by prefix, anything else is Other") {
  CHECK(parse("%TORYO").special == SpecialKind::Toryo);
  CHECK(parse("%TORYO,T3").special == SpecialKind::Toryo);
  CHECK(parse("%KACHI").special == SpecialKind::Kachi);
  CHECK(parse("%CHUDAN").kind == K::Special);
  CHECK(parse("%CHUDAN").special == SpecialKind::Other);
  CHECK(parse("%MATTA").special == SpecialKind::Other);
  CHECK(parse("%").kind == K::Unknown);
  CHECK(parse("%%%DOJO x").kind == K::Ignored);
}

TEST_CASE("AGREE / REJECT by prefix, with or without the Game_ID") {
  CHECK(parse("AGREE").kind == K::Agree);
  auto a = parse("AGREE local+g-1-0+a+b+20260101000000");
  CHECK(a.kind == K::Agree);
  CHECK(a.text == "local+g-1-0+a+b+20260101000000");
  CHECK(parse("REJECT").kind == K::Reject);
  CHECK(parse("REJECT id").text == "id");
  CHECK(parse("agree").kind == K::Unknown);
}

TEST_CASE("%%GAME and %%CHALLENGE") {
  auto g = parse("%%GAME test-300-10F +");
  CHECK(g.kind == K::Game);
  CHECK(g.text == "test-300-10F");
  CHECK(g.turn == '+');
  CHECK(parse("%%GAME test-300-10F *  ").turn == '*');
  auto c = parse("%%CHALLENGE x-0-2 -");
  CHECK(c.kind == K::Challenge);
  CHECK(c.turn == '-');
  CHECK(parse("%%GAME").kind == K::GameCancel);
  CHECK(parse("%%GAME   ").kind == K::GameCancel);
  CHECK(parse("%%GAME test-300-10F").kind == K::MissingTurn);
  CHECK(parse("%%GAME test-300-10F x").kind == K::MissingTurn);
  CHECK(parse("%%GAME test-300-10F ++").kind == K::MissingTurn);
  CHECK(parse("%%CHALLENGE").kind == K::Unknown);
  CHECK(parse("%%GAMES").kind == K::Unknown);
}

TEST_CASE("the other x1 commands") {
  CHECK(parse("%%WHO").kind == K::Who);
  CHECK(parse("%%LIST").kind == K::List);
  CHECK(parse("%%HELP").kind == K::Help);
  CHECK(parse("%%VERSION").kind == K::Version);
  CHECK(parse("%%RATING").kind == K::Rating);
  CHECK(parse("LOGOUT").kind == K::Logout);
  CHECK(parse("CHALLENGE").kind == K::CsaChallenge);
  auto s = parse("%%SHOW local+g-1-0+a+b+1");
  CHECK(s.kind == K::Show);
  CHECK(s.text == "local+g-1-0+a+b+1");
  CHECK(parse("%%SHOW").kind == K::Unknown);
  auto chat = parse("%%CHAT hello world");
  CHECK(chat.kind == K::Chat);
  CHECK(chat.text == "hello world");
  CHECK(parse("%%CHAT  ").text == " ");  // Ruby's backtracking: \s+ gives one space to (.+)
  CHECK(parse("%%CHAT").kind == K::Unknown);
  CHECK(parse("%%MONITOR2ON id").kind == K::Unsupported);
  CHECK(parse("%%SETBUOY buoy_x-1-0 +7776FU").kind == K::Unsupported);
  CHECK(parse("%%FORK id").kind == K::Unsupported);
  CHECK(parse("hello").kind == K::Unknown);
  CHECK(parse("LOGIN a b").kind == K::Unknown);
}

TEST_CASE("LOGIN: three tokens, or four ending in x1, and a good name") {
  auto l = parse_login("LOGIN alice test-300-10F,trip");
  REQUIRE(l);
  CHECK(l->name == "alice");
  CHECK(l->password == "test-300-10F,trip");
  CHECK_FALSE(l->x1);
  auto x = parse_login("  LOGIN  bob  pw  x1 \r");
  REQUIRE(x);
  CHECK(x->x1);
  CHECK(x->password == "pw");
  CHECK_FALSE(parse_login("LOGIN alice"));
  CHECK_FALSE(parse_login("LOGIN alice pw x2"));
  CHECK_FALSE(parse_login("LOGIN alice pw x1 more"));
  CHECK_FALSE(parse_login("login alice pw"));
  CHECK_FALSE(parse_login("LOGIN al!ce pw"));
  CHECK(parse_login("LOGIN a.b@c-d_e pw"));
  CHECK(parse_login("LOGIN " + std::string(32, 'a') + " pw"));
  CHECK_FALSE(parse_login("LOGIN " + std::string(33, 'a') + " pw"));
  CHECK(parse_login("LOGIN " + std::string(33, 'a') + " pw", 40));
  CHECK(token_count("LOGIN a b c") == 4);
}

TEST_CASE("passwords are masked in error replies and logs") {
  CHECK(mask_login("LOGIN alice secret") == "LOGIN alice...");
  CHECK(mask_login("xx login bob secret x1") == "xx LOGIN bob...");
  CHECK(mask_login("LOGIN alice") == "LOGIN alice");
  CHECK(mask_login("%%WHO") == "%%WHO");
}

TEST_CASE("game names") {
  auto g = parse_game_name("testgame-300-10F");
  REQUIRE(g);
  CHECK(g->id == "testgame");
  CHECK(g->total_s == 300);
  CHECK(g->increment_s == 10);
  CHECK(g->byoyomi_s == 0);
  CHECK(g->fischer);
  g = parse_game_name("a-b-600-10");
  REQUIRE(g);
  CHECK(g->id == "a-b");
  CHECK(g->byoyomi_s == 10);
  CHECK_FALSE(g->stop_watch);
  CHECK(parse_game_name("x-600-060")->stop_watch);
  CHECK(parse_game_name("edge-0-2"));
  CHECK_FALSE(parse_game_name("-300-10"));
  CHECK_FALSE(parse_game_name("test-300"));
  CHECK_FALSE(parse_game_name("test-300-10FF"));
  CHECK_FALSE(parse_game_name("te st-300-10"));
  CHECK_FALSE(parse_game_name("te!st-300-10"));
  CHECK(has_game_name_shape("te!st-300-10"));
  CHECK_FALSE(parse_game_name("test-9999999999-0"));
  CHECK(is_floodgate_game_name("floodgate-600-10F"));
  CHECK_FALSE(is_floodgate_game_name("floodgatex-600-10F"));
  CHECK_FALSE(is_floodgate_game_name("floodgate-x-600-10F"));
}

TEST_CASE("handicap names start from shogi-server's boards (black's pieces removed, black to move)") {
  CHECK_FALSE(handicap_sfen("test-300-10"));
  CHECK(*handicap_sfen("hclance_x-300-10") == "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/1NSGKGSNL b - 1");
  CHECK(*handicap_sfen("hcrook_x-300-10") == "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B7/LNSGKGSNL b - 1");
  CHECK(*handicap_sfen("hcrooklance_x-300-10") == "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B7/1NSGKGSNL b - 1");
  CHECK(*handicap_sfen("hc10p_x-300-10") == "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/9/4K4 b - 1");
}

TEST_CASE("CSA-mode passwords select the game (login.rb LoginCSA)") {
  auto p = parse_csa_password("testgame-300-10F");
  CHECK(p.game_name == "testgame-300-10F");
  CHECK(p.turn == '*');
  CHECK(p.trip.empty());
  p = parse_csa_password("testgame-300-10F,mytrip");
  CHECK(p.game_name == "testgame-300-10F");
  CHECK(p.trip == "mytrip");
  p = parse_csa_password("testgame-300-10F-B,mytrip");
  CHECK(p.game_name == "testgame-300-10F");
  CHECK(p.turn == '+');
  p = parse_csa_password("testgame-300-10-w");
  CHECK(p.game_name == "testgame-300-10");
  CHECK(p.turn == '-');
  CHECK(p.trip.empty());
  p = parse_csa_password("secret");
  CHECK(p.game_name == DEFAULT_GAME_NAME);
  CHECK(p.trip == "secret");
  p = parse_csa_password("g-1-0,a,b");
  CHECK(p.trip == "a,b");
  // Ruby's split drops the empty last field: "game," is a plain password.
  p = parse_csa_password("g-1-0,");
  CHECK(p.game_name == DEFAULT_GAME_NAME);
  CHECK(p.trip == "g-1-0,");
  // A game name whose id is not an identifier falls back to the default game.
  p = parse_csa_password("b@d!-300-10-B");
  CHECK(p.game_name == DEFAULT_GAME_NAME);
  CHECK(p.turn == '+');
  p = parse_csa_password("b@d!-300-10");
  CHECK(p.game_name == DEFAULT_GAME_NAME);
  CHECK(p.trip == "b@d!-300-10");
}

TEST_CASE("MD5 (RFC 1321 test suite)") {
  CHECK(md5_hex("") == "d41d8cd98f00b204e9800998ecf8427e");
  CHECK(md5_hex("a") == "0cc175b9c0f1b6a831c399e269772661");
  CHECK(md5_hex("abc") == "900150983cd24fb0d6963f7d28e17f72");
  CHECK(md5_hex("message digest") == "f96b697d7cb7938d525a2f31aaf161d0");
  CHECK(md5_hex("abcdefghijklmnopqrstuvwxyz") == "c3fcd3d76192e4007dfb496cca67e13b");
  CHECK(md5_hex("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") ==
        "d174ab98d277d9f5a5611c2c9f419d9f");
  CHECK(md5_hex("12345678901234567890123456789012345678901234567890123456789012345678901234567890") ==
        "57edf4a22be3c955ac49da2e2107b67a");
}
