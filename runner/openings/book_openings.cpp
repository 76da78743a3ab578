#include "openings/book_openings.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <deque>
#include <map>
#include <set>
#include <sstream>
#include <unordered_map>

#include "rules/notation.h"
#include "rules/position.h"

namespace arena::openings {

namespace {

struct BookMove {
  std::string move;
  int eval = 0;
  int64_t count = 0;
  int line = 0;
};

// "board side hand": the book's key for a position (the ply number is not part of it).
std::string position_key(std::string_view sfen) {
  std::istringstream in{std::string(sfen)};
  std::string board, side, hand;
  in >> board >> side >> hand;
  return board + " " + side + " " + hand;
}

template <typename T>
bool parse_number(std::string_view text, T& out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

struct Walker {
  const std::unordered_map<std::string, std::vector<BookMove>>& book;
  const BookWalk& walk;
  const std::string& name;
  std::vector<Opening> openings;
  std::set<std::string> seen;
  std::vector<std::string> line;
  std::string error;

  // Depth first from `pos` (line holds the moves so far; last_eval the eval of the move that reached it).
  void visit(shogi::Position& pos, int last_eval) {
    if (!error.empty() || openings.size() >= walk.max_openings) return;
    if (int(line.size()) == walk.plies) {
      if (walk.balance && std::abs(last_eval) > *walk.balance) return;
      if (!seen.insert(position_key(pos.sfen())).second) return;
      std::string text = "startpos moves";
      for (const std::string& m : line) text += " " + m;
      openings.push_back({text, name + " (book line " + std::to_string(openings.size() + 1) + ")"});
      return;
    }
    auto found = book.find(position_key(pos.sfen()));
    if (found == book.end() || found->second.empty()) return;
    const std::vector<BookMove>& moves = found->second;
    int best = moves.front().eval;
    bool counted = false;
    for (const BookMove& m : moves) best = std::max(best, m.eval), counted |= m.count > 0;
    for (const BookMove& m : moves) {
      if (walk.eval_window ? m.eval < best - *walk.eval_window : counted && m.count <= 0) continue;
      auto move = shogi::parse_usi_move(pos, m.move);
      if (!move) {
        error = name + ":" + std::to_string(m.line) + ": " + move.error();
        return;
      }
      shogi::StateInfo st;
      pos.do_move(*move, st);
      line.push_back(m.move);
      // The next position's eval is from the other side's view.
      visit(pos, m.eval);
      line.pop_back();
      pos.undo_move(*move);
      if (!error.empty()) return;
    }
  }
};

}  // namespace

bool is_yaneuraou_book(std::string_view path, std::string_view text) {
  // ".db" is the book's own extension: a book without its header (first line "sfen ...") is still one, and any other
  // text in a .db file is a broken book, whose error names the book's line format.
  auto lower = [](char c) { return char(std::tolower(static_cast<unsigned char>(c))); };
  const bool db = path.size() > 3 && path[path.size() - 3] == '.' && lower(path[path.size() - 2]) == 'd' &&
                  lower(path[path.size() - 1]) == 'b';
  return db || text.starts_with("#YANEURAOU-DB2016");
}

std::expected<std::vector<Opening>, std::string> parse_yaneuraou_book(std::string_view text, const std::string& name,
                                                                      const BookWalk& walk) {
  shogi::Position::init();
  std::unordered_map<std::string, std::vector<BookMove>> book;
  std::vector<BookMove>* current = nullptr;
  int number = 0;
  for (size_t at = 0; at < text.size();) {
    size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view raw = text.substr(at, end - at);
    at = end + 1;
    ++number;
    if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
    const std::string where = name + ":" + std::to_string(number);
    if (raw.empty() || raw.front() == '#') continue;
    if (raw.starts_with("sfen ")) {
      shogi::Position pos;
      shogi::StateInfo st;
      if (auto ok = pos.set(raw.substr(5), &st); !ok) return std::unexpected(where + ": " + ok.error());
      current = &book[position_key(raw.substr(5))];
      continue;
    }
    std::istringstream fields{std::string(raw)};
    std::string move, ponder, eval, depth, count, extra;
    fields >> move >> ponder >> eval >> depth >> count;
    BookMove m;
    m.move = move;
    m.line = number;
    int depth_value = 0;
    if (count.empty() || (fields >> extra) || !parse_number(eval, m.eval) || !parse_number(depth, depth_value) ||
        !parse_number(count, m.count))
      return std::unexpected(where + ": expected 'move ponder eval depth count' (a book move) or 'sfen ...', got '" +
                             std::string(raw) + "'");
    if (!current) return std::unexpected(where + ": a book move before any 'sfen' line");
    current->push_back(std::move(m));
  }
  if (walk.plies < 1) return std::unexpected(name + ": a book needs plies= (how deep to walk it), at least 1");
  Walker walker{book, walk, name, {}, {}, {}, {}};
  shogi::Position pos;
  std::deque<shogi::StateInfo> states(1);
  (void)pos.set(shogi::START_SFEN, &states.back());
  if (!book.contains(position_key(shogi::START_SFEN)))
    return std::unexpected(name + ": the book has no entry for the start position");
  walker.visit(pos, 0);
  if (!walker.error.empty()) return std::unexpected(walker.error);
  if (walker.openings.empty())
    return std::unexpected(name + ": no book line reaches ply " + std::to_string(walk.plies) +
                           (walk.balance || walk.eval_window ? " within the eval_window and balance given" : ""));
  return std::move(walker.openings);
}

}  // namespace arena::openings
