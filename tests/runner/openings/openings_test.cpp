// Opening lines and files: what loads, what is refused with its file and line, the shipped suites.
#include <doctest/doctest.h>

#include <filesystem>
#include <set>

#include "rules/game_end.h"
#include "rules/position.h"
#include "support/temp_dir.h"
#include "openings/openings.h"

using namespace arena;
using namespace arena::openings;
using test_support::TempDir;
namespace fs = std::filesystem;

TEST_CASE("opening lines") {
  shogi::Position::init();
  auto line = [](std::string_view text, int plies = 0) { return parse_opening_line(text, plies); };
  CHECK(line("startpos")->position == "startpos");
  // A mate problem's position is no game.
  CHECK(line("sfen 4k4/9/9/9/9/9/9/9/9 b 2G 1").error() == "no black king: a game needs both kings");
  CHECK(line("sfen 9/9/9/9/9/9/9/9/4K4 b - 1").error() == "no white king: a game needs both kings");
  CHECK(line("startpos moves 7g7f 3c3d 2g2f")->position == "startpos moves 7g7f 3c3d 2g2f");
  CHECK(line("position startpos moves 7g7f 3c3d 2g2f", 2)->position == "startpos moves 7g7f 3c3d");
  CHECK(line("sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2 moves 3c3d")->position ==
        "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2 moves 3c3d");
  CHECK(line("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2")->position ==
        "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2");
  auto bad = line("startpos moves 7g7f 7g7f");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().find("move 2") != std::string::npos);
  CHECK_FALSE(line("sfen not-a-position b - 1"));
}

TEST_CASE("opening files") {
  TempDir dir("openings");
  SUBCASE("one per line, comments and blank lines skipped, errors with the line number") {
    auto ok = load_openings(dir.file("a.sfen", "# header\n\nstartpos moves 7g7f 3c3d\r\nsfen " +
                                                   std::string(shogi::START_SFEN) + " moves 2g2f\n"),
                            0);
    REQUIRE(ok);
    REQUIRE(ok->size() == 2);
    CHECK((*ok)[1].position == "sfen " + std::string(shogi::START_SFEN) + " moves 2g2f");
    CHECK((*ok)[1].source.ends_with("a.sfen:4"));
    auto bad =
        load_openings(dir.file("b.sfen", "startpos moves 7g7f\nstartpos moves 7g7f 3c3d 7f7e 3d3e 7e7d 3e3e\n"), 0);
    REQUIRE_FALSE(bad);
    CHECK(bad.error().find("b.sfen:2: ") != std::string::npos);
    CHECK(bad.error().find("move 6") != std::string::npos);
    CHECK_FALSE(load_openings(dir.file("c.sfen", "# nothing\n"), 0));
    CHECK_FALSE(load_openings((dir.path / "missing.sfen").string(), 0));
  }
  SUBCASE("CSA records, several games in one file") {
    const std::string csa =
        "V2.2\nN+sente\nN-gote\n$EVENT:test\nPI\n+\n+7776FU\nT3\n-3334FU,T1\n+8822UM\n-3122GI\n%TORYO\n/\n"
        "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI *  *  *  *  * -KA * \nP3-FU-FU-FU-FU-FU-FU-FU-FU-FU\n"
        "P4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  * +FU *  *  *  *  *  * \n"
        "P7+FU+FU * +FU+FU+FU+FU+FU * \nP8 * +KA *  *  *  *  * +HI * \nP9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n"
        "P+00FU\n-\n-3334FU\n";
    auto r = load_openings(dir.file("g.csa", csa), 3);
    REQUIRE(r);
    REQUIRE(r->size() == 2);
    CHECK((*r)[0].position ==
          "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f 3c3d 8h2b+");
    CHECK((*r)[1].position == "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPP1/1B5R1/LNSGKGSNL w P 1 moves 3c3d");
    auto bad = load_openings(dir.file("bad.csa", "PI\n+\n+7776FU\n-7776FU\n"), 0);
    REQUIRE_FALSE(bad);
    CHECK(bad.error().find("bad.csa:4: ") != std::string::npos);
  }
  SUBCASE("KIF records, UTF-8 and Shift_JIS") {
    const std::string kif =
        "# ---- Kifu for Windows ----\n手合割：平手\n先手：a\n後手：b\n手数----指手---------消費時間--\n"
        "   1 ７六歩(77)   ( 0:01/00:00:01)\n   2 ３四歩(33)   ( 0:01/00:00:01)\n"
        "   3 ２二角成(88)   ( 0:01/00:00:02)\n   4 同　銀(31)   ( 0:01/00:00:02)\n"
        "   5 ４五角打   ( 0:01/00:00:03)\n   6 ６二銀(71)   ( 0:01/00:00:03)\n"
        "   7 ６三角不成(45)   ( 0:01/00:00:04)\n   8 投了\nまで7手で先手の勝ち\n";
    auto r = load_openings(dir.file("g.kif", kif), 0);
    REQUIRE(r);
    CHECK(r->front().position == "startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e 7a6b 4e6c");
    auto cut = load_openings(dir.file("g2.kif", kif), 4);
    CHECK(cut->front().position == "startpos moves 7g7f 3c3d 8h2b+ 3a2b");
    // The first two moves in Shift_JIS (CP932): "１" = 82 50, "七" = 8E B5 ... built from bytes.
    const std::string sjis =
        "\x8e\xe8\x8d\x87\x8a\x84\x81\x46\x95\xbd\x8e\xe8\n"  // 手合割：平手
        "   1 \x82\x56\x98\x5a\x95\xe0(77)\n"                 // ７六歩(77)
        "   2 \x82\x52\x8e\x6c\x95\xe0(33)\n";                // ３四歩(33)
    auto s = load_openings(dir.file("s.kif", sjis), 0);
    REQUIRE(s);
    CHECK(s->front().position == "startpos moves 7g7f 3c3d");
    // A garbled move is an error at its line, not the end of the record.
    auto garbled = load_openings(dir.file("x.kif", "手合割：平手\n   1 ７六歩(77)\n   2 ＸＸ歩(33)\n   3 ２六歩(27)\n"), 0);
    REQUIRE_FALSE(garbled);
    CHECK(garbled.error().find("x.kif:3: not a move: '   2 ＸＸ歩(33)'") != std::string::npos);
    for (const char* ending : {"中断", "千日手", "詰み", "持将棋", "切れ負け", "反則勝ち", "入玉勝ち"}) {
      auto ended = load_openings(dir.file("e.kif", std::string("   1 ７六歩(77)\n   2 ") + ending + "\n"), 0);
      REQUIRE_MESSAGE(ended, ending);
      CHECK(ended->front().position == "startpos moves 7g7f");
    }
    auto handicap = load_openings(dir.file("h.kif", "手合割：香落ち\n   1 ３四歩(33)\n"), 0);
    REQUIRE_FALSE(handicap);
    CHECK(handicap.error().find("h.kif:1: only even games") != std::string::npos);
  }
  SUBCASE("the shared GPS suite, when present") {
    const std::string path = std::string(SHOGI_ARENA_SHARED_DIR) + "/openings/gps24.sfen";
    if (!fs::exists(path)) return;
    auto r = load_openings(path, 16);
    REQUIRE(r);
    CHECK(r->size() == 85);
    for (const Opening& o : *r) CHECK(o.position.starts_with("startpos moves "));
  }
}

TEST_CASE("the shipped suites load; wide-24 has 10,000 distinct positions") {
  shogi::Position::init();
  auto balanced = load_openings(std::string(SHOGI_ARENA_SOURCE_DIR) + "/openings/balanced-24.sfen", 0);
  REQUIRE(balanced);
  CHECK(balanced->size() == 100);
  auto wide = load_openings(std::string(SHOGI_ARENA_SOURCE_DIR) + "/openings/wide-24.sfen", 0);
  REQUIRE_MESSAGE(wide, (wide ? "" : wide.error()));
  CHECK(wide->size() >= 10000);
  std::set<std::string> positions;
  for (const Opening& o : *wide) {
    shogi::GameRecord record;
    REQUIRE(record.start(o.position));
    CHECK(record.moves().size() == 24);
    // The final position without its move number: transpositions count once.
    std::string sfen = record.position().sfen();
    positions.insert(sfen.substr(0, sfen.rfind(' ')));
  }
  CHECK(positions.size() == wide->size());
}
