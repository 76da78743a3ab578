#include "sfen.h"

#include <charconv>
#include <vector>

namespace shogi {

namespace {

constexpr std::string_view PIECE_LETTERS = " PLNSBRGK";  // indexed by raw PieceType
// Hand order in SFEN output: rook, bishop, gold, silver, knight, lance, pawn.
constexpr PieceType HAND_ORDER[] = {ROOK, BISHOP, GOLD, SILVER, KNIGHT, LANCE, PAWN};

std::string_view color_name(Color c) { return c == BLACK ? "black" : "white"; }

std::string_view type_name(PieceType pt) {
  constexpr std::string_view names[] = {
      "",     "pawn",          "lance",          "knight",          "silver",          "bishop", "rook",  "gold",
      "king", "promoted pawn", "promoted lance", "promoted knight", "promoted silver", "horse",  "dragon"};
  return names[pt];
}

std::vector<std::string_view> split_fields(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    size_t j = i;
    while (j < s.size() && s[j] != ' ' && s[j] != '\t') ++j;
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

// Raw type of an uppercase letter, or NO_PIECE_TYPE.
PieceType letter_type(char upper) {
  size_t i = PIECE_LETTERS.find(upper);
  return i == std::string_view::npos || i == 0 ? NO_PIECE_TYPE : PieceType(i);
}

std::expected<void, std::string> parse_board(std::string_view text, BoardSetup& setup) {
  std::vector<std::string_view> ranks;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i)
    if (i == text.size() || text[i] == '/') {
      ranks.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  if (ranks.size() != 9)
    return std::unexpected("SFEN board: expected 9 ranks separated by '/', got " + std::to_string(ranks.size()));

  for (int r = 0; r < 9; ++r) {
    std::string_view row = ranks[r];
    int file = 8;  // SFEN lists each rank from file 9 down to file 1
    int width = 0;
    auto rank_error = [&](const std::string& what) {
      return std::unexpected("SFEN board: rank " + std::to_string(r + 1) + " ('" + std::string(row) + "'): " + what);
    };
    for (size_t i = 0; i < row.size(); ++i) {
      char ch = row[i];
      if (ch >= '1' && ch <= '9') {
        width += ch - '0';
        file -= ch - '0';
        continue;
      }
      bool promoted = false;
      if (ch == '+') {
        if (i + 1 == row.size()) return rank_error("'+' must be followed by a piece letter");
        promoted = true;
        ch = row[++i];
      }
      bool white = ch >= 'a' && ch <= 'z';
      PieceType pt = letter_type(white ? char(ch - 'a' + 'A') : ch);
      if (pt == NO_PIECE_TYPE) return rank_error(std::string("unknown piece letter '") + ch + "'");
      if (promoted && !can_promote(pt)) return rank_error(std::string("'+") + ch + "' cannot be promoted");
      width += 1;
      if (width > 9) return rank_error("more than 9 squares");
      Square s = make_square(File(file), Rank(r));
      setup.board[s] = make_piece(white ? WHITE : BLACK, promoted ? promote(pt) : pt);
      --file;
    }
    if (width != 9) return rank_error(std::to_string(width) + " squares, expected 9");
  }
  return {};
}

std::expected<void, std::string> parse_hands(std::string_view text, BoardSetup& setup, PieceLimits limits) {
  if (text == "-") return {};
  bool seen[COLOR_NB][HAND_TYPE_END] = {};
  size_t i = 0;
  while (i < text.size()) {
    size_t digits_start = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    int count = 1;
    if (i > digits_start) {
      std::string_view digits = text.substr(digits_start, i - digits_start);
      auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), count);
      if (ec != std::errc() || count <= 0 || digits[0] == '0')
        return std::unexpected("SFEN hands ('" + std::string(text) + "'): bad count '" + std::string(digits) + "'");
    }
    if (i == text.size())
      return std::unexpected("SFEN hands ('" + std::string(text) + "'): a count must be followed by a piece letter");
    char ch = text[i++];
    bool white = ch >= 'a' && ch <= 'z';
    PieceType pt = letter_type(white ? char(ch - 'a' + 'A') : ch);
    if (pt == NO_PIECE_TYPE || pt == KING)
      return std::unexpected("SFEN hands ('" + std::string(text) + "'): '" + std::string(1, ch) +
                             "' is not a piece that can be held in hand");
    Color c = white ? WHITE : BLACK;
    if (seen[c][pt])
      return std::unexpected("SFEN hands ('" + std::string(text) + "'): '" + std::string(1, ch) + "' appears twice");
    seen[c][pt] = true;
    int limit = limits == PieceLimits::Strict ? piece_count_limit(pt) : int(HAND_MASK[pt]);
    if (count > limit)
      return std::unexpected("SFEN hands ('" + std::string(text) + "'): " + std::to_string(count) + " " +
                             std::string(type_name(pt)) + "s is more than exist");
    setup.hand[c] = hand_add(setup.hand[c], pt, count);
  }
  return {};
}

std::expected<void, std::string> validate(const BoardSetup& setup, PieceLimits limits) {
  int counts[KING + 1] = {};
  int kings[COLOR_NB] = {};
  for (int s = 0; s < SQ_NB; ++s) {
    Piece pc = setup.board[s];
    if (pc == NO_PIECE) continue;
    PieceType pt = type_of(pc);
    Color c = color_of(pc);
    counts[raw_type(pt)]++;
    if (pt == KING) kings[c]++;
    Rank rr = relative_rank(c, rank_of(Square(s)));
    bool dead = ((pt == PAWN || pt == LANCE) && rr == RANK_1) || (pt == KNIGHT && rr <= RANK_2);
    if (dead)
      return std::unexpected("SFEN board: " + std::string(color_name(c)) + " " + std::string(type_name(pt)) + " on " +
                             to_string(Square(s)) + " can never move");
  }
  for (Color c : {BLACK, WHITE}) {
    if (kings[c] > 1) return std::unexpected("SFEN board: more than one " + std::string(color_name(c)) + " king");
    for (int pt = PAWN; pt < HAND_TYPE_END; ++pt) counts[pt] += hand_count(setup.hand[c], PieceType(pt));
  }
  // Relaxed positions may have extra pieces, but never more of a kind than one hand field holds: every piece of
  // that kind could end up in one hand by captures, and a field that overflows corrupts its neighbour.
  for (int pt = PAWN; pt < KING; ++pt) {
    const int limit = limits == PieceLimits::Strict ? piece_count_limit(PieceType(pt)) : int(HAND_MASK[pt]);
    if (counts[pt] > limit)
      return std::unexpected("SFEN: too many " + std::string(type_name(PieceType(pt))) + "s (" +
                             std::to_string(counts[pt]) + ", at most " + std::to_string(limit) + ")");
  }
  for (Color c : {BLACK, WHITE})
    for (int f = 0; f < 9; ++f) {
      int pawns = 0;
      for (int r = 0; r < 9; ++r) pawns += setup.board[make_square(File(f), Rank(r))] == make_piece(c, PAWN);
      if (pawns > 1)
        return std::unexpected("SFEN board: two unpromoted " + std::string(color_name(c)) + " pawns on file " +
                               std::to_string(f + 1) + " (nifu)");
    }
  return {};
}

}  // namespace

std::expected<BoardSetup, std::string> parse_sfen(std::string_view sfen, PieceLimits limits) {
  std::vector<std::string_view> fields = split_fields(sfen);
  if (fields.size() < 3 || fields.size() > 4)
    return std::unexpected("SFEN: expected 3 or 4 fields (board, side to move, hands[, move number]), got " +
                           std::to_string(fields.size()));
  BoardSetup setup;
  if (auto r = parse_board(fields[0], setup); !r) return std::unexpected(r.error());
  if (fields[1] == "b")
    setup.side_to_move = BLACK;
  else if (fields[1] == "w")
    setup.side_to_move = WHITE;
  else
    return std::unexpected("SFEN side to move: expected 'b' or 'w', got '" + std::string(fields[1]) + "'");
  if (auto r = parse_hands(fields[2], setup, limits); !r) return std::unexpected(r.error());
  if (fields.size() == 4) {
    std::string_view n = fields[3];
    auto [ptr, ec] = std::from_chars(n.data(), n.data() + n.size(), setup.move_number);
    if (ec != std::errc() || ptr != n.data() + n.size() || setup.move_number <= 0)
      return std::unexpected("SFEN move number: expected a positive integer, got '" + std::string(n) + "'");
  }
  if (auto r = validate(setup, limits); !r) return std::unexpected(r.error());
  return setup;
}

std::string piece_to_sfen(Piece pc) {
  if (pc == NO_PIECE) return "";
  PieceType pt = type_of(pc);
  char letter = PIECE_LETTERS[raw_type(pt)];
  if (color_of(pc) == WHITE) letter = char(letter - 'A' + 'a');
  return is_promoted(pt) ? std::string{'+', letter} : std::string{letter};
}

std::string hands_to_sfen(const Hand hands[COLOR_NB]) {
  std::string out;
  for (Color c : {BLACK, WHITE})
    for (PieceType pt : HAND_ORDER) {
      int n = hand_count(hands[c], pt);
      if (n == 0) continue;
      if (n > 1) out += std::to_string(n);
      out += piece_to_sfen(make_piece(c, pt));
    }
  return out.empty() ? "-" : out;
}

std::string to_sfen(const BoardSetup& setup) {
  std::string out;
  for (int r = 0; r < 9; ++r) {
    int empty = 0;
    for (int f = 8; f >= 0; --f) {
      Piece pc = setup.board[make_square(File(f), Rank(r))];
      if (pc == NO_PIECE) {
        ++empty;
        continue;
      }
      if (empty) out += char('0' + empty);
      empty = 0;
      out += piece_to_sfen(pc);
    }
    if (empty) out += char('0' + empty);
    if (r < 8) out += '/';
  }
  out += setup.side_to_move == BLACK ? " b " : " w ";
  out += hands_to_sfen(setup.hand);
  out += ' ';
  out += std::to_string(setup.move_number);
  return out;
}

}  // namespace shogi
