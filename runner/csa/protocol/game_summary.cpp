#include "csa/protocol/game_summary.h"

#include <array>
#include <deque>
#include <map>

#include "csa/protocol/message.h"
#include "rules/notation.h"
#include "rules/position.h"
#include "rules/sfen.h"

namespace arena::csa {

using shogi::BLACK;
using shogi::Color;
using shogi::Piece;
using shogi::PieceType;
using shogi::WHITE;

namespace {

using Error = std::unexpected<std::string>;

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Whole non-negative number, or nullopt.
std::optional<int64_t> parse_count(std::string_view s) {
  if (s.empty() || s.size() > 15) return std::nullopt;
  int64_t v = 0;
  for (char c : s) {
    if (!is_digit(c)) return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

// "1sec", "1min", "<n>msec", "<n>sec", "<n>min" -> milliseconds.
std::optional<int64_t> parse_time_unit(std::string_view s) {
  size_t digits = 0;
  while (digits < s.size() && is_digit(s[digits])) ++digits;
  auto n = parse_count(s.substr(0, digits));
  std::string_view suffix = s.substr(digits);
  if (!n || *n == 0) return std::nullopt;
  if (suffix == "msec") return *n;
  if (suffix == "sec") return *n * 1000;
  if (suffix == "min") return *n * 60'000;
  return std::nullopt;
}

std::optional<Color> parse_sign(std::string_view s) {
  if (s == "+") return BLACK;
  if (s == "-") return WHITE;
  return std::nullopt;
}

// "77" -> square; false for 00 and anything else outside the board.
bool csa_square(char f, char r, shogi::Square& sq) {
  if (f < '1' || f > '9' || r < '1' || r > '9') return false;
  sq = shogi::make_square(shogi::File(f - '1'), shogi::Rank(r - '1'));
  return true;
}

// The standard starting position, by square.
std::array<Piece, shogi::SQ_NB> hirate_board() {
  std::array<Piece, shogi::SQ_NB> b{};
  const PieceType back[9] = {shogi::LANCE, shogi::KNIGHT, shogi::SILVER, shogi::GOLD, shogi::KING,
                             shogi::GOLD,  shogi::SILVER, shogi::KNIGHT, shogi::LANCE};
  for (int f = 0; f < 9; ++f) {
    b[shogi::make_square(shogi::File(f), shogi::RANK_9)] = shogi::make_piece(BLACK, back[f]);
    b[shogi::make_square(shogi::File(f), shogi::RANK_7)] = shogi::make_piece(BLACK, shogi::PAWN);
    b[shogi::make_square(shogi::File(f), shogi::RANK_1)] = shogi::make_piece(WHITE, back[f]);
    b[shogi::make_square(shogi::File(f), shogi::RANK_3)] = shogi::make_piece(WHITE, shogi::PAWN);
  }
  b[shogi::make_square(shogi::FILE_2, shogi::RANK_8)] = shogi::make_piece(BLACK, shogi::ROOK);
  b[shogi::make_square(shogi::FILE_8, shogi::RANK_8)] = shogi::make_piece(BLACK, shogi::BISHOP);
  b[shogi::make_square(shogi::FILE_8, shogi::RANK_2)] = shogi::make_piece(WHITE, shogi::ROOK);
  b[shogi::make_square(shogi::FILE_2, shogi::RANK_2)] = shogi::make_piece(WHITE, shogi::BISHOP);
  return b;
}

const char* const TIME_KEYS[] = {"Time_Unit",           "Total_Time", "Byoyomi",     "Increment",
                                 "Least_Time_Per_Move", "Delay",      "Time_Roundup"};

}  // namespace

// A Time / Time+ / Time- block as read, converted once the summary is complete. At namespace scope because a
// nested class with member initialisers is not yet default-constructible inside its enclosing class (clang).
struct RawTime {
  std::map<std::string, std::pair<std::string, int>> values;  // key -> (value, line)
  int begin_line = 0;
};

struct GameSummaryParser::Impl {
  enum class State { BeforeBegin, Summary, Time, Position, SkipBlock, Done, Failed };

  State state = State::BeforeBegin;
  int line_no = 0;
  std::string error;
  GameSummary out;
  std::map<std::string, int> seen_keys;  // summary keys -> line, to reject duplicates

  // Time blocks: raw values until END, because Time_Unit may come after the values it scales.
  std::optional<RawTime> common_time, side_time[shogi::COLOR_NB];
  RawTime* current_time = nullptr;
  std::string current_block;  // name of the Time or skipped block being read

  // Position block.
  bool position_seen = false;
  bool board_given = false;  // PI, P1..P9 or P+/P- placements
  bool pi_given = false;
  bool rows_seen[9] = {};
  bool turn_seen = false;
  std::optional<Color> all_rest_to;  // 00AL
  std::array<Piece, shogi::SQ_NB> board{};
  shogi::Hand hand[shogi::COLOR_NB] = {shogi::HAND_ZERO, shogi::HAND_ZERO};
  Color initial_turn = BLACK;
  std::unique_ptr<shogi::Position> pos;
  std::deque<shogi::StateInfo> states;

  std::expected<bool, std::string> fail(const std::string& why) {
    state = State::Failed;
    error = "Game_Summary line " + std::to_string(line_no) + ": " + why;
    return Error(error);
  }

  std::expected<bool, std::string> feed(std::string_view line) {
    if (state == State::Failed) return Error(error);
    if (state == State::Done) return true;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    // Keep-alive empty lines may arrive at any time (§8); they carry nothing.
    if (line.empty()) return false;
    switch (state) {
      case State::BeforeBegin:
        if (line != "BEGIN Game_Summary") return fail("expected BEGIN Game_Summary, got '" + std::string(line) + "'");
        state = State::Summary;
        return false;
      case State::Summary: return summary_line(line);
      case State::Time: return time_line(line);
      case State::Position: return position_line(line);
      case State::SkipBlock:
        if (line == "END " + current_block) state = State::Summary;
        return false;
      default: return Error(error);
    }
  }

  std::expected<bool, std::string> summary_line(std::string_view line) {
    if (line == "END Game_Summary") return finish();
    if (line.starts_with("BEGIN ")) {
      std::string name(line.substr(6));
      if (name == "Time" || name == "Time+" || name == "Time-") {
        auto& slot = name == "Time" ? common_time : side_time[name == "Time+" ? BLACK : WHITE];
        if (slot) return fail("a second BEGIN " + name + " block");
        slot.emplace();
        slot->begin_line = line_no;
        current_time = &*slot;
        current_block = name;
        state = State::Time;
        return false;
      }
      if (name == "Position") {
        if (position_seen) return fail("a second BEGIN Position block");
        position_seen = true;
        state = State::Position;
        return false;
      }
      out.unknown.push_back("line " + std::to_string(line_no) + ": " + std::string(line) + " (block skipped)");
      current_block = name;
      state = State::SkipBlock;
      return false;
    }
    if (line.starts_with("END "))
      return fail("'" + std::string(line) + "' without a matching BEGIN (expected END Game_Summary)");
    size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0)
      return fail("expected Key:Value, BEGIN <block> or END Game_Summary, got '" + std::string(line) + "'");
    std::string key(line.substr(0, colon));
    std::string_view value = line.substr(colon + 1);
    if (value.starts_with(" ")) value.remove_prefix(1);  // "Key: Value" is tolerated
    if (auto [it, fresh] = seen_keys.emplace(key, line_no); !fresh)
      return fail("duplicate key " + key + " (first on line " + std::to_string(it->second) + ")");
    return summary_key(key, value, line);
  }

  std::expected<bool, std::string> summary_key(const std::string& key, std::string_view value, std::string_view line) {
    auto need = [&](const char* what) { return fail(key + ": expected " + what + ", got '" + std::string(value) + "'"); };
    if (key == "Protocol_Version") out.protocol_version = value;
    else if (key == "Protocol_Mode") out.protocol_mode = value;
    else if (key == "Format") out.format = value;
    else if (key == "Declaration") out.declaration = value;
    else if (key == "Game_ID") {
      if (value.empty()) return need("a game id");
      out.game_id = value;
    } else if (key == "Name+") out.name[BLACK] = value;
    else if (key == "Name-") out.name[WHITE] = value;
    else if (key == "Your_Turn") {
      auto c = parse_sign(value);
      if (!c) return need("+ or -");
      out.your_turn = *c;
    } else if (key == "To_Move") {
      auto c = parse_sign(value);
      if (!c) return need("+ or -");
      out.to_move = *c;
    } else if (key == "Rematch_On_Draw") {
      if (value != "YES" && value != "NO") return need("YES or NO");
      out.rematch_on_draw = value == "YES";
    } else if (key == "Max_Moves") {
      auto n = parse_count(value);
      if (!n || *n > 100000) return need("a whole number of moves");
      out.max_moves = int(*n);
    } else {
      out.unknown.push_back("line " + std::to_string(line_no) + ": " + std::string(line));
    }
    return false;
  }

  std::expected<bool, std::string> time_line(std::string_view line) {
    if (line == "END " + current_block) {
      state = State::Summary;
      return false;
    }
    if (line.starts_with("BEGIN ") || line.starts_with("END "))
      return fail("expected a time key or END " + current_block + ", got '" + std::string(line) + "'");
    size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0)
      return fail("expected Key:Value or END " + current_block + ", got '" + std::string(line) + "'");
    std::string key(line.substr(0, colon));
    std::string_view value = line.substr(colon + 1);
    if (value.starts_with(" ")) value.remove_prefix(1);
    bool known = false;
    for (const char* k : TIME_KEYS) known = known || key == k;
    if (!known) {
      out.unknown.push_back("line " + std::to_string(line_no) + ": " + std::string(line) + " (in " + current_block +
                            ")");
      return false;
    }
    if (auto [it, fresh] = current_time->values.emplace(key, std::pair{std::string(value), line_no}); !fresh)
      return fail("duplicate key " + key + " in " + current_block + " (first on line " +
                  std::to_string(it->second.second) + ")");
    return false;
  }

  // Converts a finished Time block; errors point at the offending key's line.
  std::expected<TimeRule, std::string> convert_time(const RawTime& raw, const std::string& block) {
    TimeRule rule;
    auto at = [&](const std::string& key) -> const std::pair<std::string, int>* {
      auto it = raw.values.find(key);
      return it == raw.values.end() ? nullptr : &it->second;
    };
    auto bad = [&](const std::string& key, const std::pair<std::string, int>& v, const char* expected) {
      return Error("Game_Summary line " + std::to_string(v.second) + ": " + key + " in " + block + ": expected " +
                   expected + ", got '" + v.first + "'");
    };
    if (auto* v = at("Time_Unit")) {
      auto unit = parse_time_unit(v->first);
      if (!unit) return bad("Time_Unit", *v, "1sec, 1min, <n>msec, <n>sec or <n>min");
      rule.unit_ms = *unit;
    }
    auto amount = [&](const char* key, int64_t& dst) -> std::expected<bool, std::string> {
      auto* v = at(key);
      if (!v) return false;
      auto n = parse_count(v->first);
      if (!n || *n > (int64_t(1) << 40) / rule.unit_ms) return bad(key, *v, "a whole number of Time_Units");
      dst = *n * rule.unit_ms;
      return true;
    };
    int64_t total = 0;
    auto has_total = amount("Total_Time", total);
    if (!has_total) return Error(has_total.error());
    if (*has_total) rule.total_ms = total;
    for (auto [key, dst] : {std::pair{"Byoyomi", &rule.byoyomi_ms}, std::pair{"Increment", &rule.increment_ms},
                            std::pair{"Least_Time_Per_Move", &rule.least_ms}, std::pair{"Delay", &rule.delay_ms}}) {
      if (auto r = amount(key, *dst); !r) return Error(r.error());
    }
    if (auto* v = at("Time_Roundup")) {
      if (v->first != "YES" && v->first != "NO") return bad("Time_Roundup", *v, "YES or NO");
      rule.roundup = v->first == "YES";
    }
    return rule;
  }

  // --- Position block ---

  std::expected<bool, std::string> position_line(std::string_view line) {
    if (line == "END Position") {
      if (!turn_seen) return fail("END Position before the turn line (+ or -)");
      state = State::Summary;
      return false;
    }
    if (line[0] == '\'') return false;  // a CSA comment line
    if (turn_seen) return move_line(line);
    if (line == "+" || line == "-") return turn_line(line[0] == '+' ? BLACK : WHITE);
    if (line.starts_with("PI")) return pi_line(line);
    if (line.size() >= 2 && line[0] == 'P' && line[1] >= '1' && line[1] <= '9') return row_line(line);
    if (line.starts_with("P+") || line.starts_with("P-")) return pieces_line(line);
    if (line[0] == '+' || line[0] == '-') return fail("a move before the turn line (+ or -) of the Position block");
    return fail("expected PI, P1..P9, P+, P-, the turn line or END Position, got '" + std::string(line) + "'");
  }

  std::expected<bool, std::string> pi_line(std::string_view line) {
    if (board_given) return fail("PI after the board was already given");
    board_given = pi_given = true;
    board = hirate_board();
    // Handicaps: "PI82HI22KA" removes the pieces named on those squares.
    std::string_view rest = line.substr(2);
    if (rest.size() % 4 != 0) return fail("PI: expected 4-character groups like 82HI after PI, got '" + std::string(rest) + "'");
    for (size_t i = 0; i < rest.size(); i += 4) {
      shogi::Square sq;
      if (!csa_square(rest[i], rest[i + 1], sq)) return fail("PI: bad square in '" + std::string(rest.substr(i, 4)) + "'");
      auto pt = shogi::parse_csa_piece(rest.substr(i + 2, 2));
      if (!pt) return fail("PI: " + pt.error());
      if (board[sq] == shogi::NO_PIECE || shogi::type_of(board[sq]) != *pt)
        return fail("PI: no " + std::string(rest.substr(i + 2, 2)) + " on " + std::string(rest.substr(i, 2)) +
                    " to remove");
      board[sq] = shogi::NO_PIECE;
    }
    return false;
  }

  std::expected<bool, std::string> row_line(std::string_view line) {
    int rank = line[1] - '1';
    if (pi_given) return fail("P" + std::to_string(rank + 1) + " after PI (a board is either PI or P1..P9)");
    if (rows_seen[rank]) return fail("a second P" + std::to_string(rank + 1) + " row");
    rows_seen[rank] = true;
    board_given = true;
    // Nine cells of three characters, file 9 first; tolerate trimmed trailing blanks of an empty last cell.
    std::string cells(line.substr(2));
    while (!cells.empty() && cells.back() == ' ') cells.pop_back();
    if (cells.size() > 27) return fail("P" + std::to_string(rank + 1) + ": expected 9 cells of 3 characters");
    cells.resize(27, ' ');
    for (int i = 0; i < 9; ++i) {
      std::string_view cell = std::string_view(cells).substr(i * 3, 3);
      shogi::Square sq = shogi::make_square(shogi::File(8 - i), shogi::Rank(rank));
      if (cell == " * " || cell == "   ") {
        board[sq] = shogi::NO_PIECE;
        continue;
      }
      auto c = parse_sign(cell.substr(0, 1));
      auto pt = shogi::parse_csa_piece(cell.substr(1, 2));
      if (!c || !pt)
        return fail("P" + std::to_string(rank + 1) + ": cell " + std::to_string(i + 1) + " is '" + std::string(cell) +
                    "', expected ' * ' or a sign and a piece like +FU");
      board[sq] = shogi::make_piece(*c, *pt);
    }
    return false;
  }

  std::expected<bool, std::string> pieces_line(std::string_view line) {
    Color c = line[1] == '+' ? BLACK : WHITE;
    std::string_view rest = line.substr(2);
    if (rest.size() % 4 != 0)
      return fail(std::string(line.substr(0, 2)) + ": expected 4-character groups like 00FU or 55KA, got '" +
                  std::string(rest) + "'");
    for (size_t i = 0; i < rest.size(); i += 4) {
      std::string_view group = rest.substr(i, 4);
      if (group == "00AL") {
        all_rest_to = c;
        continue;
      }
      auto pt = shogi::parse_csa_piece(group.substr(2, 2));
      if (!pt) return fail(std::string(line.substr(0, 2)) + ": " + pt.error());
      if (group[0] == '0' && group[1] == '0') {
        if (*pt < shogi::HAND_TYPE_BEGIN || *pt >= shogi::HAND_TYPE_END)
          return fail(std::string(line.substr(0, 2)) + ": " + std::string(group) + " cannot be held in hand");
        if (shogi::hand_count(hand[c], *pt) >= shogi::piece_count_limit(*pt))
          return fail(std::string(line.substr(0, 2)) + ": too many " + std::string(group.substr(2)) + " in hand");
        hand[c] = shogi::hand_add(hand[c], *pt);
        continue;
      }
      shogi::Square sq;
      if (!csa_square(group[0], group[1], sq))
        return fail(std::string(line.substr(0, 2)) + ": bad square in '" + std::string(group) + "'");
      if (board[sq] != shogi::NO_PIECE)
        return fail(std::string(line.substr(0, 2)) + ": square " + std::string(group.substr(0, 2)) + " is occupied");
      board[sq] = shogi::make_piece(c, *pt);
      board_given = true;
    }
    return false;
  }

  std::expected<bool, std::string> turn_line(Color turn) {
    if (!board_given) return fail("the turn line before any board (PI, P1..P9 or P+/P- placements)");
    initial_turn = turn;
    turn_seen = true;
    if (all_rest_to) {
      // 00AL: every piece not on the board or in a hand goes to that side's hand (kings excepted).
      int used[shogi::HAND_TYPE_END] = {};
      for (Piece pc : board)
        if (pc != shogi::NO_PIECE) {
          PieceType raw = shogi::raw_type(shogi::type_of(pc));
          if (raw < shogi::HAND_TYPE_END) ++used[raw];
        }
      for (int pt = shogi::HAND_TYPE_BEGIN; pt < shogi::HAND_TYPE_END; ++pt) {
        auto t = PieceType(pt);
        used[pt] += shogi::hand_count(hand[BLACK], t) + shogi::hand_count(hand[WHITE], t);
        int left = shogi::piece_count_limit(t) - used[pt];
        if (left < 0) return fail("00AL: more " + std::string(shogi::csa_piece_name(t)) + " than a set has");
        hand[*all_rest_to] = shogi::hand_add(hand[*all_rest_to], t, left);
      }
    }
    shogi::BoardSetup setup;
    setup.board = board;
    setup.hand[BLACK] = hand[BLACK];
    setup.hand[WHITE] = hand[WHITE];
    setup.side_to_move = turn;
    setup.move_number = 1;
    std::string sfen = shogi::to_sfen(setup);
    pos = std::make_unique<shogi::Position>();
    states.clear();
    if (auto ok = pos->set(sfen, &states.emplace_back()); !ok)
      return fail("the Position block is not a valid position (" + ok.error() + ")");
    out.start_sfen = pos->sfen();
    return false;
  }

  std::expected<bool, std::string> move_line(std::string_view line) {
    if (line[0] == 'T') {
      // CSA record style: the time on its own line after the move.
      if (out.moves.empty() || out.moves.back().time_ms)
        return fail("'" + std::string(line) + "' does not follow a move without a time");
      auto t = parse_t_field(line);
      if (!t) return fail(t.error());
      out.moves.back().time_ms = *t;
      return false;
    }
    if (line[0] != '+' && line[0] != '-')
      return fail("expected a move like +7776FU,T12 or END Position, got '" + std::string(line) + "'");
    auto tm = parse_timed_move(line);
    if (!tm) return fail(tm.error());
    auto m = shogi::parse_csa_move(*pos, tm->move);
    if (!m) return fail("move " + std::to_string(out.moves.size() + 1) + " is illegal: " + m.error());
    out.moves.push_back({tm->move, shogi::to_usi(*m), tm->time_ms});
    pos->do_move(*m, states.emplace_back());
    return false;
  }

  std::expected<bool, std::string> finish() {
    if (out.game_id.empty()) return fail("END Game_Summary but no Game_ID");
    if (!seen_keys.contains("Your_Turn")) return fail("END Game_Summary but no Your_Turn");
    if (!position_seen) return fail("END Game_Summary but no Position block");
    if (common_time) {
      auto r = convert_time(*common_time, "Time");
      if (!r) return record_error(r.error());
      out.time[BLACK] = out.time[WHITE] = *r;
    }
    for (Color c : {BLACK, WHITE}) {
      if (!side_time[c]) continue;
      auto r = convert_time(*side_time[c], c == BLACK ? "Time+" : "Time-");
      if (!r) return record_error(r.error());
      out.time[c] = *r;
    }
    out.side_to_move = pos->side_to_move();
    out.current_sfen = pos->sfen();
    // shogi-server announces the side to move after the Position moves; other servers may mean the block's
    // initial turn. Either is consistent; anything else is worth a log line but the board is the truth.
    if (out.to_move && *out.to_move != out.side_to_move && *out.to_move != initial_turn)
      out.warnings.push_back(std::string("To_Move:") + (*out.to_move == BLACK ? "+" : "-") +
                             " disagrees with the Position block, which leaves " +
                             (out.side_to_move == BLACK ? "black (+)" : "white (-)") + " to move");
    if (out.max_moves > 0 && int(out.moves.size()) >= out.max_moves)
      out.warnings.push_back("the Position block already holds " + std::to_string(out.moves.size()) +
                             " moves, Max_Moves is " + std::to_string(out.max_moves));
    out.clock = CsaClock(out.time[BLACK], out.time[WHITE]);
    Color mover = initial_turn;
    for (const PlayedMove& m : out.moves) {
      out.clock.apply(mover, m.time_ms.value_or(0));
      mover = ~mover;
    }
    state = State::Done;
    return true;
  }

  std::expected<bool, std::string> record_error(const std::string& e) {
    state = State::Failed;
    error = e;
    return Error(error);
  }
};

GameSummaryParser::GameSummaryParser() : impl_(std::make_unique<Impl>()) { shogi::Position::init(); }
GameSummaryParser::~GameSummaryParser() = default;
GameSummaryParser::GameSummaryParser(GameSummaryParser&&) noexcept = default;
GameSummaryParser& GameSummaryParser::operator=(GameSummaryParser&&) noexcept = default;

std::expected<bool, std::string> GameSummaryParser::feed(std::string_view line) { return impl_->feed(line); }
bool GameSummaryParser::done() const { return impl_->state == Impl::State::Done; }
const GameSummary& GameSummaryParser::summary() const { return impl_->out; }

std::expected<GameSummary, std::string> parse_game_summary(std::string_view text) {
  GameSummaryParser parser;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    auto r = parser.feed(line);
    if (!r) return Error(r.error());
    if (*r) return parser.summary();
  }
  return Error("Game_Summary ended before END Game_Summary");
}

}  // namespace arena::csa
