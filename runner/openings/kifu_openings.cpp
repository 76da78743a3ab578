// Openings from game records: CSA (V2.2 and older; the start position from PI, P1..P9 and P+/P- lines) and KIF
// (even games; the move lines). Only what an opening needs is read: the position and the moves, not times or names.
#include <array>
#include <deque>
#include <sstream>

#include "rules/notation.h"
#include "rules/position.h"
#include "openings/opening_text.h"
#include "openings/openings.h"

namespace arena::openings {

namespace {

// ---- CSA ----

struct CsaBoard {
  std::array<std::array<std::string, 9>, 9> cells;  // [rank 0..8][file 9..1 as column 0..8], "+FU" or ""
  std::array<std::array<int, 8>, 2> hand{};         // [colour][FU KY KE GI KI KA HI]
  char side = 0;                                    // '+' or '-' once known
  bool set = false;                                 // a position line was seen
};

constexpr std::array<const char*, 7> HAND_NAMES = {"FU", "KY", "KE", "GI", "KI", "KA", "HI"};
constexpr std::array<int, 7> PIECE_TOTALS = {18, 4, 4, 4, 4, 2, 2};

int hand_index(std::string_view name) {
  for (size_t i = 0; i < HAND_NAMES.size(); ++i)
    if (name == HAND_NAMES[i]) return int(i);
  return -1;
}

// The raw (unpromoted) hand index of a board piece name, -1 for the king or an unknown name.
int raw_index(std::string_view name) {
  static constexpr std::array<std::pair<const char*, int>, 6> promoted = {
      {{"TO", 0}, {"NY", 1}, {"NK", 2}, {"NG", 3}, {"UM", 5}, {"RY", 6}}};
  if (int i = hand_index(name); i >= 0) return i;
  for (auto [n, i] : promoted)
    if (name == n) return i;
  return -1;
}

std::string sfen_letter(std::string_view csa) {
  static constexpr std::array<std::pair<const char*, const char*>, 14> letters = {{{"FU", "P"},
                                                                                   {"KY", "L"},
                                                                                   {"KE", "N"},
                                                                                   {"GI", "S"},
                                                                                   {"KI", "G"},
                                                                                   {"KA", "B"},
                                                                                   {"HI", "R"},
                                                                                   {"OU", "K"},
                                                                                   {"TO", "+P"},
                                                                                   {"NY", "+L"},
                                                                                   {"NK", "+N"},
                                                                                   {"NG", "+S"},
                                                                                   {"UM", "+B"},
                                                                                   {"RY", "+R"}}};
  for (auto [c, l] : letters)
    if (csa == c) return l;
  return {};
}

void set_hirate(CsaBoard& b) {
  const char* rows[9] = {"-KY-KE-GI-KI-OU-KI-GI-KE-KY", " * -HI *  *  *  *  * -KA * ", "-FU-FU-FU-FU-FU-FU-FU-FU-FU",
                         " *  *  *  *  *  *  *  *  * ", " *  *  *  *  *  *  *  *  * ", " *  *  *  *  *  *  *  *  * ",
                         "+FU+FU+FU+FU+FU+FU+FU+FU+FU", " * +KA *  *  *  *  * +HI * ", "+KY+KE+GI+KI+OU+KI+GI+KE+KY"};
  for (int r = 0; r < 9; ++r)
    for (int c = 0; c < 9; ++c) {
      std::string cell(rows[r] + 3 * c, 3);
      b.cells[r][c] = cell[0] == ' ' ? "" : cell;
    }
  b.set = true;
}

std::string csa_sfen(const CsaBoard& b) {
  std::string s;
  for (int r = 0; r < 9; ++r) {
    int empty = 0;
    for (int c = 0; c < 9; ++c) {
      const std::string& cell = b.cells[r][c];
      if (cell.empty()) {
        ++empty;
        continue;
      }
      if (empty) s += std::to_string(empty), empty = 0;
      std::string letter = sfen_letter(std::string_view(cell).substr(1));
      if (cell[0] == '-')
        for (char& ch : letter) ch = char(std::tolower(static_cast<unsigned char>(ch)));
      s += letter;
    }
    if (empty) s += std::to_string(empty);
    if (r < 8) s += '/';
  }
  s += b.side == '-' ? " w " : " b ";
  std::string hands;
  static constexpr const char* order = "RBGSNLP";  // SFEN lists hands rook first
  static constexpr int index_of[] = {6, 5, 4, 3, 2, 1, 0};
  for (int colour = 0; colour < 2; ++colour)
    for (int k = 0; k < 7; ++k) {
      int n = b.hand[colour][size_t(index_of[k])];
      if (n == 0) continue;
      if (n > 1) hands += std::to_string(n);
      char ch = order[k];
      hands += colour == 0 ? ch : char(std::tolower(static_cast<unsigned char>(ch)));
    }
  s += hands.empty() ? "-" : hands;
  s += " 1";
  return s;
}

// One game of a CSA text; `lines` are its statements (already split at commas), with line numbers.
std::expected<Opening, std::string> csa_game(const std::vector<std::pair<int, std::string>>& lines,
                                             const std::string& name, int plies) {
  CsaBoard b;
  std::vector<std::string> csa_moves;
  std::vector<int> move_lines;
  auto err = [&](int line, const std::string& what) {
    return std::unexpected(name + ":" + std::to_string(line) + ": " + what);
  };
  for (const auto& [number, text] : lines) {
    if (text.empty() || text[0] == '\'' || text[0] == 'V' || text[0] == 'N' || text[0] == '$' || text[0] == 'T')
      continue;
    if (text[0] == '%') break;  // the end of the game
    if (text.starts_with("PI")) {
      set_hirate(b);
      for (size_t i = 2; i + 4 <= text.size(); i += 4) {  // PI82HI22KA: pieces removed for a handicap
        int file = text[i] - '0', rank = text[i + 1] - '0';
        if (file < 1 || file > 9 || rank < 1 || rank > 9) return err(number, "bad square in '" + text + "'");
        b.cells[size_t(rank - 1)][size_t(9 - file)].clear();
      }
    } else if (text.size() >= 2 && text[0] == 'P' && text[1] >= '1' && text[1] <= '9') {
      int r = text[1] - '1';
      for (int c = 0; c < 9; ++c) {
        size_t at = 2 + 3 * size_t(c);
        std::string cell = at + 3 <= text.size() ? text.substr(at, 3) : std::string(" * ");
        if (cell == " * " || cell == " *" || cell.find_first_not_of(' ') == std::string::npos) {
          b.cells[size_t(r)][size_t(c)].clear();
        } else if ((cell[0] == '+' || cell[0] == '-') && !sfen_letter(cell.substr(1)).empty()) {
          b.cells[size_t(r)][size_t(c)] = cell;
        } else {
          return err(number, "bad piece '" + cell + "' in '" + text + "'");
        }
      }
      b.set = true;
    } else if (text.starts_with("P+") || text.starts_with("P-")) {
      const int colour = text[1] == '+' ? 0 : 1;
      for (size_t i = 2; i + 4 <= text.size(); i += 4) {
        std::string sq = text.substr(i, 2), piece = text.substr(i + 2, 2);
        if (sq == "00" && piece == "AL") {  // every piece not yet placed goes to this hand
          for (size_t k = 0; k < 7; ++k) {
            int used = b.hand[0][k] + b.hand[1][k];
            for (const auto& row : b.cells)
              for (const std::string& cell : row)
                if (!cell.empty() && raw_index(cell.substr(1)) == int(k)) ++used;
            b.hand[size_t(colour)][k] += std::max(0, PIECE_TOTALS[k] - used);
          }
        } else if (sq == "00") {
          int k = hand_index(piece);
          if (k < 0) return err(number, "bad piece in hand '" + piece + "'");
          ++b.hand[size_t(colour)][size_t(k)];
        } else {
          int file = sq[0] - '0', rank = sq[1] - '0';
          if (file < 1 || file > 9 || rank < 1 || rank > 9 || sfen_letter(piece).empty())
            return err(number, "bad placement '" + sq + piece + "'");
          b.cells[size_t(rank - 1)][size_t(9 - file)] = std::string(1, text[1]) + piece;
        }
      }
      b.set = true;
    } else if (text == "+" || text == "-") {
      b.side = text[0];
    } else if ((text[0] == '+' || text[0] == '-') && text.size() >= 7) {
      csa_moves.push_back(text.substr(0, 7));
      move_lines.push_back(number);
    } else {
      return err(number, "unexpected line '" + text + "'");
    }
  }
  if (!b.set) return std::unexpected(name + ": a game without a start position (PI or P1..P9)");
  if (b.side == 0) b.side = csa_moves.empty() ? '+' : csa_moves[0][0];
  shogi::Position::init();
  shogi::Position pos;
  std::deque<shogi::StateInfo> states(1);
  std::string sfen = csa_sfen(b);
  if (auto r = pos.set(sfen, &states.back()); !r) return std::unexpected(name + ": bad start position: " + r.error());
  std::vector<std::string> usi;
  for (size_t i = 0; i < csa_moves.size(); ++i) {
    if (plies > 0 && int(i) >= plies) break;
    auto m = shogi::parse_csa_move(pos, csa_moves[i]);
    if (!m) return err(move_lines[i], m.error());
    usi.push_back(shogi::to_usi(*m));
    states.emplace_back();
    pos.do_move(*m, states.back());
  }
  auto position = opening_position("sfen " + sfen, usi, plies);
  if (!position) return std::unexpected(name + ": " + position.error());
  return Opening{*position, name + ":" + std::to_string(lines.empty() ? 1 : lines.front().first)};
}

// ---- KIF ----

// The 1-based value of a full-width digit or a kanji numeral at the front of `s`, consuming it.
int take_number(std::string_view& s, bool kanji) {
  static constexpr std::array<const char*, 9> wide = {"１", "２", "３", "４", "５", "６", "７", "８", "９"};
  static constexpr std::array<const char*, 9> kan = {"一", "二", "三", "四", "五", "六", "七", "八", "九"};
  const auto& table = kanji ? kan : wide;
  for (size_t i = 0; i < 9; ++i)
    if (s.starts_with(table[i])) {
      s.remove_prefix(std::string_view(table[i]).size());
      return int(i) + 1;
    }
  return 0;
}

// The words a KIF move line ends a game with instead of a move.
bool is_kif_ending(std::string_view s) {
  static constexpr std::array<std::string_view, 15> endings = {
      "投了", "中断", "千日手", "詰み", "不詰", "持将棋", "切れ負け", "時間切れ", "反則勝ち",
      "反則負け", "入玉勝ち", "宣言勝ち", "不戦勝", "不戦敗", "封じ手"};
  for (std::string_view e : endings)
    if (s.starts_with(e)) return true;
  return false;
}

bool take(std::string_view& s, std::string_view prefix) {
  if (!s.starts_with(prefix)) return false;
  s.remove_prefix(prefix.size());
  return true;
}

// The USI drop letter of a KIF piece name at the front of `s` (consumed); 0 when it cannot be dropped, '?' when
// it is not a piece name at all.
char take_piece(std::string_view& s) {
  static constexpr std::array<std::pair<const char*, char>, 19> names = {{{"成香", 0},
                                                                          {"成桂", 0},
                                                                          {"成銀", 0},
                                                                          {"杏", 0},
                                                                          {"圭", 0},
                                                                          {"全", 0},
                                                                          {"歩", 'P'},
                                                                          {"香", 'L'},
                                                                          {"桂", 'N'},
                                                                          {"銀", 'S'},
                                                                          {"金", 'G'},
                                                                          {"角", 'B'},
                                                                          {"飛", 'R'},
                                                                          {"玉", 0},
                                                                          {"王", 0},
                                                                          {"と", 0},
                                                                          {"馬", 0},
                                                                          {"龍", 0},
                                                                          {"竜", 0}}};
  for (auto [name, letter] : names)
    if (take(s, name)) return letter;
  return '?';
}

}  // namespace

std::expected<std::vector<Opening>, std::string> parse_csa_openings(std::string_view text, const std::string& name,
                                                                    int plies) {
  std::vector<Opening> openings;
  std::vector<std::pair<int, std::string>> game;
  std::istringstream in{std::string(text)};
  std::string line;
  int number = 0;
  auto flush = [&]() -> std::expected<void, std::string> {
    bool any = false;
    for (const auto& [n, t] : game) any = any || (!t.empty() && t[0] != '\'');
    if (any) {
      auto o = csa_game(game, name, plies);
      if (!o) return std::unexpected(o.error());
      openings.push_back(std::move(*o));
    }
    game.clear();
    return {};
  };
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line == "/") {
      if (auto r = flush(); !r) return std::unexpected(r.error());
      continue;
    }
    // Several statements may share a line, separated by commas (but not inside comments).
    if (!line.empty() && line[0] != '\'') {
      size_t start = 0;
      while (start <= line.size()) {
        size_t comma = line.find(',', start);
        game.emplace_back(number, line.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
    } else {
      game.emplace_back(number, line);
    }
  }
  if (auto r = flush(); !r) return std::unexpected(r.error());
  if (openings.empty()) return std::unexpected(name + ": no game in the CSA file");
  return openings;
}

std::expected<Opening, std::string> parse_kif_opening(std::string_view text, const std::string& name, int plies) {
  std::istringstream in{std::string(text)};
  std::string line;
  int number = 0;
  std::vector<std::string> usi;
  std::string last_to;
  auto err = [&](const std::string& what) {
    return std::unexpected(name + ":" + std::to_string(number) + ": " + what);
  };
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::string_view s = line;
    if (number == 1 && s.starts_with("\xEF\xBB\xBF")) s.remove_prefix(3);  // BOM
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    if (s.empty() || s[0] == '#' || s[0] == '*' || s[0] == '&') continue;
    if (s.starts_with("変化")) break;  // variations follow the main line
    if (s.starts_with("手合割")) {
      if (s.find("平手") == std::string_view::npos)
        return err("only even games (手合割：平手) can be read as openings from KIF; use CSA or SFEN for others");
      continue;
    }
    if (s.starts_with("|") || s.starts_with("後手の持駒") || s.starts_with("先手の持駒") ||
        s.starts_with("上手の持駒") || s.starts_with("下手の持駒"))
      return err("KIF board diagrams are not supported for openings; use CSA or SFEN for this position");
    if (s[0] < '0' || s[0] > '9') continue;  // headers (key：value) and the "手数----指手" line
    while (!s.empty() && s[0] >= '0' && s[0] <= '9') s.remove_prefix(1);
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    // A move: destination (or 同), piece, 成/不成/打, (from).
    std::string to;
    if (take(s, "同")) {
      take(s, "　");
      if (last_to.empty()) return err("同 without a previous move");
      to = last_to;
    } else {
      if (is_kif_ending(s)) break;
      int file = take_number(s, false);
      int rank = take_number(s, true);
      if (file == 0 || rank == 0)
        return err("not a move: '" + line + "' (expected a square such as ７六 or 同, or an ending such as 投了)");
      to = std::string(1, char('0' + file)) + char('a' + rank - 1);
    }
    char drop_letter = take_piece(s);
    if (drop_letter == '?') return err("unknown piece in '" + line + "'");
    bool promote = false, drop = false;
    if (take(s, "不成")) {
    } else if (take(s, "成")) {
      promote = true;
    } else if (take(s, "打")) {
      drop = true;
    }
    std::string move;
    if (!drop && s.size() >= 4 && s[0] == '(' && s[3] == ')' && s[1] >= '1' && s[1] <= '9' && s[2] >= '1' &&
        s[2] <= '9') {
      move = std::string(1, s[1]) + char('a' + (s[2] - '1')) + to + (promote ? "+" : "");
    } else {
      if (drop_letter == 0) return err("a drop of a piece that cannot be in hand: '" + line + "'");
      move = std::string(1, drop_letter) + "*" + to;
    }
    usi.push_back(move);
    last_to = to;
    if (plies > 0 && int(usi.size()) >= plies) break;
  }
  if (usi.empty()) return std::unexpected(name + ": no moves in the KIF record");
  auto position = opening_position("startpos", usi, plies);
  if (!position) return std::unexpected(name + ": " + position.error());
  return Opening{*position, name};
}

}  // namespace arena::openings
