// Golden KIF text: Japanese move notation (同, 成, 打, promoted pieces, declined promotion), times, the board
// diagram, and every ending with its summary line.
#include <cstdlib>
#include <ctime>

#include <doctest/doctest.h>

#include "output/kif_record.h"
#include "sample_games.h"

using namespace arena;
using namespace arena::testing;

namespace {

std::string kif(const PlayedGame& g) {
  setenv("TZ", "UTC", 1);
  tzset();
  auto text = to_kif_record(g);
  REQUIRE_MESSAGE(text.has_value(), (text ? "" : text.error()));
  return *text;
}

}  // namespace

TEST_CASE("KIF: a resignation game from the start position") {
  CHECK(kif(resign_game()) ==
        "#KIF version=2.0 encoding=UTF-8\n"
        "開始日時：2024/01/01 10:00:00\n"
        "終了日時：2024/01/01 10:00:31\n"
        "棋戦：Shogi Arena test\n"
        "持ち時間：300+2\n"
        "手合割：平手\n"
        "先手：EngineA\n"
        "後手：EngineB\n"
        "手数----指手---------消費時間--\n"
        "   1 ７六歩(77)   ( 0:01/00:00:01)\n"
        "   2 ３四歩(33)   ( 0:02/00:00:02)\n"
        "*#評価値=35\n"
        "*#読み筋=▲２二角成(88)△同　銀(31)\n"
        "   3 ２二角成(88) ( 0:03/00:00:04)\n"
        "   4 同　銀(31)   ( 0:01/00:00:03)\n"
        "   5 ４五角打     ( 0:05/00:00:09)\n"
        "   6 ８四歩(83)   ( 0:02/00:00:05)\n"
        "   7 ３四角(45)   ( 0:04/00:00:13)\n"
        "*#評価値=30000\n"
        "*#読み筋=△３三銀(22)▲２三角(34)\n"
        "   8 ３三銀(22)   ( 0:06/00:00:11)\n"
        "   9 ２三角(34)   ( 0:01/00:00:14)\n"  // promotion declined: no 不成 (it breaks both viewer libraries)
        "  10 投了         ( 0:00/00:00:11)\n"
        "まで9手で先手の勝ち\n");
}

TEST_CASE("KIF: a board diagram with white to move, promoted pieces and recaptures") {
  CHECK(kif(promoted_pieces_game()) ==
        "#KIF version=2.0 encoding=UTF-8\n"
        "開始日時：2024/01/01 10:00:00\n"
        "終了日時：2024/01/01 10:00:31\n"
        "棋戦：Shogi Arena test\n"
        "持ち時間：300+2\n"
        "先手：EngineA\n"
        "後手：EngineB\n"
        "後手の持駒：金\n"
        "  ９ ８ ７ ６ ５ ４ ３ ２ １\n"
        "+---------------------------+\n"
        "| ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n"
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n"
        "| ・ ・ ・ 全 ・ ・ ・ ・ ・|三\n"
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n"
        "| ・ ・ 桂 ・ ・ ・ ・ ・ ・|五\n"
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n"
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n"
        "| ・ 馬 ・ ・ ・ ・ ・ 龍 ・|八\n"
        "| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九\n"
        "+---------------------------+\n"
        "先手の持駒：なし\n"
        "後手番\n"
        "手数----指手---------消費時間--\n"
        "   1 ４一玉(51)   ( 1:01/00:01:01)\n"
        "   2 ５五馬(88)   ( 0:00/00:00:00)\n"
        "   3 ５二金打     ( 0:01/00:01:02)\n"
        "   4 同　成銀(63) ( 0:02/00:00:02)\n"
        "   5 同　玉(41)   ( 0:00/00:01:02)\n"
        "   6 ６三桂(75)   ( 0:03/00:00:05)\n"
        "   7 ４一玉(52)   ( 0:01/00:01:03)\n"
        "   8 ２一龍(28)   ( 0:01/00:00:06)\n"
        "   9 投了         ( 0:00/00:01:03)\n"
        "まで8手で先手の勝ち\n");
}

TEST_CASE("KIF: hands count in kanji, strongest piece first") {
  PlayedGame g = make_game("4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L12P6p 1", {}, Outcome::None, Termination::None);
  std::string text = kif(g);
  CHECK(text.find("後手の持駒：歩六\n") != std::string::npos);
  CHECK(text.find("先手の持駒：飛二　角二　金四　銀四　桂四　香四　歩十二\n先手番\n") != std::string::npos);
}

TEST_CASE("KIF: a promotion is written with the piece before it, later moves with the promoted name") {
  PlayedGame g = make_game("4k4/9/9/3S5/9/9/9/9/4K4 b - 1", {{"6d5c+", 0}, {"5a4a", 0}, {"5c4b", 0}},
                           Outcome::None, Termination::None);
  std::string text = kif(g);
  CHECK(text.find("   1 ５三銀成(64) ( 0:00/00:00:00)\n") != std::string::npos);
  CHECK(text.find("   2 ４一玉(51)   ( 0:00/00:00:00)\n") != std::string::npos);
  CHECK(text.find("   3 ４二成銀(53) ( 0:00/00:00:00)\n") != std::string::npos);
}

TEST_CASE("KIF: every ending and its summary line") {
  const std::pair<const char*, const char*> expected[] = {
      {"resign", "   3 投了         ( 0:00/00:00:01)\nまで2手で後手の勝ち\n"},
      {"sennichite", "   3 千日手       ( 0:00/00:00:01)\nまで2手で千日手\n"},
      {"perpetual_check", "   3 反則勝ち     ( 0:00/00:00:01)\nまで2手で先手の反則勝ち\n"},
      {"declaration", "   3 入玉勝ち     ( 0:00/00:00:01)\nまで2手で先手の入玉勝ち\n"},
      {"illegal_declaration",
       "   3 反則負け     ( 0:00/00:00:01)\n*win: the king is not in the enemy camp\nまで2手で先手の反則負け\n"},
      {"illegal_move",
       "   3 反則負け     ( 0:00/00:00:01)\n*illegal move by black: 7g7e\n*7g7e: no piece of the side to move on 7g\n"
       "まで2手で先手の反則負け\n"},
      {"time_forfeit",
       "   3 切れ負け     ( 0:00/00:00:01)\n*used 2150 ms of 2000 ms\nまで2手で時間切れにより後手の勝ち\n"},
      {"stall", "   3 切れ負け     ( 0:00/00:00:01)\nまで2手で時間切れにより後手の勝ち\n"},
      {"disconnect", "   3 投了         ( 0:00/00:00:01)\n*EngineA exited\nまで2手で後手の勝ち\n"},
      {"disconnect_not_to_move",
       "   3 反則勝ち     ( 0:00/00:00:01)\n*EngineB exited while pondering\nまで2手で先手の反則勝ち\n"},
      {"max_moves", "   3 持将棋       ( 0:00/00:00:01)\nまで2手で持将棋\n"},
      {"adjudication_win", "   3 投了         ( 0:00/00:00:01)\nまで2手で後手の勝ち\n"},
      {"adjudication_draw", "   3 持将棋       ( 0:00/00:00:01)\nまで2手で持将棋\n"},
      {"interrupted", "   3 中断         ( 0:00/00:00:01)\nまで2手で中断\n"},
  };
  std::vector<NamedGame> games = ending_games();
  REQUIRE(games.size() == std::size(expected));
  for (size_t i = 0; i < games.size(); ++i) {
    CAPTURE(games[i].name);
    REQUIRE(games[i].name == expected[i].first);
    std::string text = kif(games[i].game);
    std::string moves = "   1 ７六歩(77)   ( 0:01/00:00:01)\n   2 ３四歩(33)   ( 0:02/00:00:02)\n";
    size_t at = text.find(moves);
    REQUIRE(at != std::string::npos);
    CHECK(text.substr(at + moves.size()) == expected[i].second);
  }
}

TEST_CASE("KIF: a game without a result ends after its last move") {
  PlayedGame g = make_game("startpos", {{"7g7f", 0}}, Outcome::None, Termination::None);
  CHECK(kif(g).ends_with("手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:00/00:00:00)\n"));
}

TEST_CASE("KIF: long thinking times") {
  PlayedGame g = make_game("startpos", {{"7g7f", 3723999}, {"3c3d", 100}, {"2g2f", 7200000}}, Outcome::None,
                           Termination::None);
  std::string text = kif(g);
  CHECK(text.find("   1 ７六歩(77)   (62:03/01:02:03)\n") != std::string::npos);
  CHECK(text.find("   3 ２六歩(27)   (120:00/03:02:03)\n") != std::string::npos);
}
