#pragma once
// Openings from a YaneuraOu book (the text "DB2016" format that YaneuraOu writes and ShogiHome reads):
//   #YANEURAOU-DB2016 1.00
//   sfen <board> <side> <hand> <ply>
//   <move> <ponder|none> <eval> <depth> <count>      one line per book move of that position
// The book is walked from the start position, every book move that passes the filter taken at each position, to
// `plies` moves; the positions reached there are the openings, each once (the first line that reached it), as
// "startpos moves ...". A book move is taken when its count is positive (all of them if the position has no
// counts), or with eval_window when its eval is within that many centipawns of the position's best. With balance,
// an opening is kept only if the book's eval of the move that reached it is within that bound, either side.

#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "openings/openings.h"

namespace arena::openings {

struct BookWalk {
  int plies = 8;
  std::optional<int> eval_window;  // centipawns below the best move of a position
  std::optional<int> balance;      // |eval| of the last move, centipawns
  size_t max_openings = 100000;    // the walk stops there: a book of millions of lines has more than any run needs
};

// True for a file named .db (any case) or one that starts with the DB2016 header.
bool is_yaneuraou_book(std::string_view path, std::string_view text);

// A malformed line is an error naming `name`:line and what was expected; a book move that is illegal in its position
// too. No opening at `plies` (the book is shallower, or every line was filtered out) is an error.
std::expected<std::vector<Opening>, std::string> parse_yaneuraou_book(std::string_view text, const std::string& name,
                                                                      const BookWalk& walk);

}  // namespace arena::openings
