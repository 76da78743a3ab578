#include <doctest/doctest.h>

#include "test_util.h"

using namespace shogi;
using shogi::test::Board;

TEST_CASE("USI and CSA strings both ways") {
  Board b;
  Move m = parse_usi_move(b.pos, "7g7f").value();
  CHECK(to_usi(m) == "7g7f");
  CHECK(to_csa(m) == "+7776FU");
  b.play("7g7f");
  b.play("3c3d");
  Move promo = parse_usi_move(b.pos, "8h2b+").value();
  CHECK(to_csa(promo) == "+8822UM");
  CHECK(parse_csa_move(b.pos, "+8822UM").value() == promo);
  CHECK(to_usi(parse_csa_move(b.pos, "+8822KA").value()) == "8h2b");
  b.play("8h2b+");
  b.play("3a2b");
  Move drop = parse_usi_move(b.pos, "B*4e").value();
  CHECK(to_csa(drop) == "+0045KA");
  CHECK(parse_csa_move(b.pos, "+0045KA").value() == drop);
  b.play("B*4e");
  CHECK(to_csa(parse_usi_move(b.pos, "B*3c").value()) == "-0033KA");
  CHECK(to_usi(MOVE_RESIGN) == "resign");
  CHECK(to_usi(MOVE_WIN) == "win");
}

TEST_CASE("USI parse errors explain themselves") {
  Board b;
  auto why = [&](std::string_view s) {
    auto r = parse_usi_move(b.pos, s);
    return r ? std::string() : r.error();
  };
  CHECK(why("7g7f") == "");
  CHECK(why("").find("not a USI move") != std::string::npos);
  CHECK(why("7g7").find("not a USI move") != std::string::npos);
  CHECK(why("7g7f++").find("not a USI move") != std::string::npos);
  CHECK(why("0g7f").find("not a USI move") != std::string::npos);
  CHECK(why("7j7f").find("not a USI move") != std::string::npos);
  CHECK(why("K*5e").find("not a USI move") != std::string::npos);
  CHECK(why("7c7d").find("no piece of the side to move on 7c") != std::string::npos);
  CHECK(why("5e5d").find("no piece of the side to move") != std::string::npos);
  CHECK(why("7g7e").find("cannot move to 7e") != std::string::npos);
  CHECK(why("7i8h").find("own piece") != std::string::npos);
  CHECK(why("P*5e").find("no pawn in hand") != std::string::npos);
  CHECK(why("7g7f+").find("promotion zone") != std::string::npos);
  CHECK(why("5i5h+").find("cannot promote") != std::string::npos);
  Board p("4k4/P8/9/9/9/9/9/9/4K4 b - 1");
  CHECK(parse_usi_move(p.pos, "9b9a").error().find("must promote") != std::string::npos);
}

TEST_CASE("CSA parse errors explain themselves") {
  Board b;
  auto why = [&](std::string_view s) {
    auto r = parse_csa_move(b.pos, s);
    return r ? std::string() : r.error();
  };
  CHECK(why("+7776FU") == "");
  CHECK(why("-3334FU").find("black's (+) turn") != std::string::npos);
  CHECK(why("+7776XX").find("unknown CSA piece") != std::string::npos);
  CHECK(why("+7776").find("not a CSA move") != std::string::npos);
  CHECK(why("+7776KA").find("is FU, not KA") != std::string::npos);
  CHECK(why("+0055FU").find("no pawn in hand") != std::string::npos);
  CHECK(why("+0055OU").find("cannot be dropped") != std::string::npos);
  CHECK(why("+7775FU").find("cannot move") != std::string::npos);
}
