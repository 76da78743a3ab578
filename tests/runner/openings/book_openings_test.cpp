// Openings from a YaneuraOu book (openings/book_openings.h), on a small book written here: the walk to a ply,
// counts and the eval window choosing the moves, the balance bound, duplicates by transposition, and one-line errors.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "openings/book_openings.h"

using namespace arena;
using namespace arena::openings;

namespace {

// From the start: 7g7f (eval 30, count 10), 2g2f (20, 5), 5g5f (-200, 0).
// After 7g7f: 3c3d (-30, 8), 8c8d (-60, 2). After 2g2f: 8c8d (-20, 4), 3c3d (-25, 1).
// After 7g7f 8c8d and after 2g2f 8c8d: one move each; 7g7f 3c3d 2g2f and 2g2f 3c3d 7g7f reach the same position.
const char* BOOK = R"(#YANEURAOU-DB2016 1.00
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1
7g7f 3c3d 30 20 10
2g2f 8c8d 20 20 5
5g5f none -200 18 0
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2
3c3d 2g2f -30 20 8
8c8d none -60 20 2
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/7P1/PPPPPPP1P/1B5R1/LNSGKGSNL w - 2
8c8d 7g7f -20 20 4
3c3d 7g7f -25 20 1
sfen lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3
2g2f 8c8d 35 20 6
sfen lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/7P1/PPPPPPP1P/1B5R1/LNSGKGSNL b - 3
7g7f 8c8d 30 20 1
)";

BookWalk at(int plies, std::optional<int> eval_window = {}, std::optional<int> balance = {}) {
  BookWalk walk;
  walk.plies = plies;
  walk.eval_window = eval_window;
  walk.balance = balance;
  return walk;
}

std::vector<std::string> positions(const std::vector<Opening>& openings) {
  std::vector<std::string> out;
  for (const Opening& o : openings) out.push_back(o.position);
  return out;
}

}  // namespace

TEST_CASE("the walk takes every counted book move to the given ply") {
  auto one = parse_yaneuraou_book(BOOK, "b.db", at(1));
  REQUIRE(one.has_value());
  // 5g5f has count 0 while others are counted: not taken.
  CHECK(positions(*one) == std::vector<std::string>{"startpos moves 7g7f", "startpos moves 2g2f"});
  auto two = parse_yaneuraou_book(BOOK, "b.db", at(2));
  REQUIRE(two.has_value());
  CHECK(positions(*two) == std::vector<std::string>{"startpos moves 7g7f 3c3d", "startpos moves 7g7f 8c8d",
                                                    "startpos moves 2g2f 8c8d", "startpos moves 2g2f 3c3d"});
  // Ply 3: 7g7f 3c3d 2g2f and 2g2f 3c3d 7g7f are one position, kept once (the first line).
  auto three = parse_yaneuraou_book(BOOK, "b.db", at(3));
  REQUIRE(three.has_value());
  CHECK(positions(*three) == std::vector<std::string>{"startpos moves 7g7f 3c3d 2g2f"});
  CHECK((*three)[0].source == "b.db (book line 1)");
}

TEST_CASE("the eval window and the balance bound") {
  // Within 15 of the best at each position: 7g7f and 2g2f (not 5g5f at -200), then 3c3d after 7g7f (-30 vs -60) and
  // 8c8d after 2g2f (-20 vs -25 is within 15: both).
  auto w = parse_yaneuraou_book(BOOK, "b.db", at(2, 15));
  REQUIRE(w.has_value());
  CHECK(positions(*w) ==
        std::vector<std::string>{"startpos moves 7g7f 3c3d", "startpos moves 2g2f 8c8d", "startpos moves 2g2f 3c3d"});
  // The window takes uncounted moves too: 5g5f with a window of 300.
  auto wide = parse_yaneuraou_book(BOOK, "b.db", at(1, 300));
  REQUIRE(wide.has_value());
  CHECK(wide->size() == 3);
  // Balance 25: the last move's eval within 25 either side (-30 and -60 are not).
  auto b = parse_yaneuraou_book(BOOK, "b.db", at(2, {}, 25));
  REQUIRE(b.has_value());
  CHECK(positions(*b) == std::vector<std::string>{"startpos moves 2g2f 8c8d", "startpos moves 2g2f 3c3d"});
}

TEST_CASE("a broken book is a one-line error naming the file and line") {
  CHECK(parse_yaneuraou_book(
            "#YANEURAOU-DB2016 1.00\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n"
            "7g7f 3c3d thirty 20 10\n",
            "x.db", at(1))
            .error() ==
        "x.db:3: expected 'move ponder eval depth count' (a book move) or 'sfen ...', got '7g7f 3c3d "
        "thirty 20 10'");
  CHECK(parse_yaneuraou_book("#YANEURAOU-DB2016 1.00\n7g7f 3c3d 0 20 10\n", "x.db", at(1)).error() ==
        "x.db:2: a book move before any 'sfen' line");
  CHECK(parse_yaneuraou_book(
            "#YANEURAOU-DB2016 1.00\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n"
            "7g7e none 0 20 10\n",
            "x.db", at(1))
            .error()
            .starts_with("x.db:3: 7g7e"));
  CHECK(parse_yaneuraou_book("#YANEURAOU-DB2016 1.00\nsfen lnsgkgsnl/9/9 b - 1\n", "x.db", at(1))
            .error()
            .starts_with("x.db:2: "));
  CHECK(parse_yaneuraou_book(BOOK, "b.db", at(6)).error() == "b.db: no book line reaches ply 6");
  CHECK(parse_yaneuraou_book("#YANEURAOU-DB2016 1.00\n", "e.db", at(1)).error() ==
        "e.db: the book has no entry for the start position");
}

TEST_CASE("a book file through load_openings: found by its header, plies and the book keys from the settings") {
  const auto path = std::filesystem::temp_directory_path() / "arena_book_test.txt";
  std::ofstream(path) << BOOK;
  config::OpeningSettings s;
  s.file = path.string();
  s.plies = 2;
  s.balance = 25;
  auto openings = load_openings(s);
  REQUIRE(openings.has_value());
  CHECK(openings->size() == 2);
  // The book keys on a file that is not a book: an error, not ignored.
  std::ofstream(path) << "startpos moves 7g7f\n";
  auto wrong = load_openings(s);
  REQUIRE_FALSE(wrong.has_value());
  CHECK(wrong.error() == path.string() + ": eval_window= and balance= are for a YaneuraOu book (#YANEURAOU-DB2016)");
  std::filesystem::remove(path);
}

TEST_CASE("a .db file is a book: without its header it loads, and other text is a book error, not an SFEN one") {
  const auto dir = std::filesystem::temp_directory_path();
  const auto path = dir / "arena_book_test.DB";
  config::OpeningSettings s;
  s.file = path.string();
  s.plies = 1;
  // Books written by other tools may start with the first "sfen" line; before, that file was read as SFEN lines.
  std::ofstream(path) << (std::string(BOOK).substr(std::string(BOOK).find('\n') + 1));
  auto headerless = load_openings(s);
  REQUIRE_MESSAGE(headerless.has_value(), (headerless ? "" : headerless.error()));
  CHECK(headerless->size() == 2);
  std::ofstream(path) << "7g7f 3c3d\n";
  auto moves = load_openings(s);
  REQUIRE_FALSE(moves.has_value());
  CHECK(moves.error() == path.string() + ":1: expected 'move ponder eval depth count' (a book move) or 'sfen ...', "
                                         "got '7g7f 3c3d'");
  std::filesystem::remove(path);
}
