#include "csa/protocol/message.h"

#include <array>
#include <utility>

#include "rules/notation.h"

namespace arena::csa {

namespace {

using Error = std::unexpected<std::string>;

Error fail(std::string_view line, const std::string& why) {
  // Appended piecewise: GCC 12 at -O3 warns falsely (-Wrestrict) about "'" + std::string(...).
  std::string msg(1, '\'');
  msg.append(line).append("': ").append(why);
  return Error(std::move(msg));
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

constexpr std::array<std::pair<std::string_view, EndReason>, 8> REASONS = {{
    {"RESIGN", EndReason::Resign},
    {"TIME_UP", EndReason::TimeUp},
    {"ILLEGAL_MOVE", EndReason::IllegalMove},
    {"SENNICHITE", EndReason::Sennichite},
    {"OUTE_SENNICHITE", EndReason::OuteSennichite},
    {"JISHOGI", EndReason::Jishogi},
    {"MAX_MOVES", EndReason::MaxMoves},
    {"ILLEGAL_ACTION", EndReason::IllegalAction},
}};
constexpr std::array<std::pair<std::string_view, EndResult>, 5> RESULTS = {{
    {"WIN", EndResult::Win},
    {"LOSE", EndResult::Lose},
    {"DRAW", EndResult::Draw},
    {"CENSORED", EndResult::Censored},
    {"CHUDAN", EndResult::Chudan},
}};

// "+7776FU" shape: sign, origin (00 = drop, else file and rank 1-9), destination, a CSA piece name.
std::expected<void, std::string> check_move_token(std::string_view m) {
  if (m.size() != 7) return std::unexpected("a move is 7 characters like +7776FU, got " + std::to_string(m.size()));
  if (m[0] != '+' && m[0] != '-') return std::unexpected("a move starts with + or -");
  for (int i = 1; i <= 4; ++i)
    if (!is_digit(m[i])) return std::unexpected("expected four digits after the sign");
  bool drop = m[1] == '0' && m[2] == '0';
  if (!drop && (m[1] == '0' || m[2] == '0')) return std::unexpected("origin square must be 00 (drop) or 11..99");
  if (m[3] == '0' || m[4] == '0') return std::unexpected("destination square must be 11..99");
  if (auto pt = shogi::parse_csa_piece(m.substr(5, 2)); !pt) return std::unexpected(pt.error());
  return {};
}

// The ",T<t>" and ",'<comment>" suffixes shared by moves and %TORYO / %KACHI.
std::expected<void, std::string> parse_suffixes(std::string_view rest, std::optional<int64_t>& time_ms,
                                                std::optional<std::string>& comment) {
  while (!rest.empty()) {
    if (rest[0] != ',') return std::unexpected("expected ',T<seconds>' or \",'<comment>\" after the move");
    rest.remove_prefix(1);
    if (starts_with(rest, "'")) {
      // A comment runs to the end of the line and may itself contain commas.
      comment = std::string(rest.substr(1));
      return {};
    }
    if (!starts_with(rest, "T")) return std::unexpected("expected ',T<seconds>' or \",'<comment>\" after the move");
    if (time_ms) return std::unexpected("two ,T fields");
    size_t end = rest.find(',');
    auto t = parse_t_field(rest.substr(0, end));
    if (!t) return std::unexpected(t.error());
    time_ms = *t;
    rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end);
  }
  return {};
}

}  // namespace

std::expected<int64_t, std::string> parse_t_field(std::string_view text) {
  auto bad = [&] {
    return Error("expected T<seconds> (digits, optionally a decimal part), got '" + std::string(text) + "'");
  };
  if (text.size() < 2 || text[0] != 'T') return bad();
  std::string_view num = text.substr(1);
  size_t dot = num.find('.');
  std::string_view whole = num.substr(0, dot);
  std::string_view frac = dot == std::string_view::npos ? std::string_view{} : num.substr(dot + 1);
  if (whole.empty() || whole.size() > 12) return bad();
  for (char c : whole)
    if (!is_digit(c)) return bad();
  for (char c : frac)
    if (!is_digit(c)) return bad();
  int64_t ms = 0;
  for (char c : whole) ms = ms * 10 + (c - '0');
  ms *= 1000;
  int64_t scale = 100;
  for (size_t i = 0; i < frac.size() && i < 3; ++i, scale /= 10) ms += (frac[i] - '0') * scale;
  return ms;
}

std::expected<TimedMove, std::string> parse_timed_move(std::string_view text) {
  TimedMove tm;
  std::string_view token = text.substr(0, text.find(','));
  if (auto ok = check_move_token(token); !ok) return fail(text, ok.error());
  tm.move = std::string(token);
  if (auto ok = parse_suffixes(text.substr(token.size()), tm.time_ms, tm.comment); !ok) return fail(text, ok.error());
  return tm;
}

std::expected<Message, std::string> parse_server_line(std::string_view line) {
  // shogi-server writes LF; a CR from a CR LF peer is not part of the message.
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  Message msg;
  if (line.empty()) {
    msg.kind = MessageKind::Empty;
    return msg;
  }
  if (line[0] == '+' || line[0] == '-') {
    auto tm = parse_timed_move(line);
    if (!tm) return Error(tm.error());
    msg.kind = MessageKind::Move;
    msg.text = std::move(tm->move);
    msg.time_ms = tm->time_ms;
    msg.comment = std::move(tm->comment);
    return msg;
  }
  if (line[0] == '%') {
    std::string_view token = line.substr(0, line.find(','));
    if (token.size() < 2) return fail(line, "expected a %COMMAND such as %TORYO");
    msg.kind = token == "%TORYO" ? MessageKind::Resign : token == "%KACHI" ? MessageKind::Declare
                                                                          : MessageKind::OtherSpecial;
    msg.text = std::string(token);
    if (auto ok = parse_suffixes(line.substr(token.size()), msg.time_ms, msg.comment); !ok)
      return fail(line, ok.error());
    return msg;
  }
  if (starts_with(line, "##[")) {
    size_t close = line.find(']');
    if (close == std::string_view::npos) return fail(line, "expected ##[TAG] ...");
    msg.kind = MessageKind::X1;
    msg.text = std::string(line.substr(3, close - 3));
    std::string_view rest = line.substr(close + 1);
    if (!rest.empty() && rest[0] == ' ') rest.remove_prefix(1);
    msg.detail = std::string(rest);
    return msg;
  }
  if (line[0] == '#') {
    std::string_view word = line.substr(1);
    // Tolerate trailing spaces, nothing else: "#WIN" is one token.
    while (!word.empty() && word.back() == ' ') word.remove_suffix(1);
    msg.kind = MessageKind::GameEnd;
    msg.text = std::string(word);
    for (auto [name, r] : REASONS)
      if (word == name) {
        msg.reason = r;
        return msg;
      }
    for (auto [name, r] : RESULTS)
      if (word == name) {
        msg.result = r;
        return msg;
      }
    return fail(line, "unknown game-end token (expected a reason such as #RESIGN or a result such as #WIN)");
  }
  if (starts_with(line, "LOGIN:")) {
    std::string_view rest = line.substr(6);
    if (rest == "incorrect") {
      msg.kind = MessageKind::LoginIncorrect;
      return msg;
    }
    if (rest.size() > 3 && rest.substr(rest.size() - 3) == " OK") {
      msg.kind = MessageKind::LoginOk;
      msg.text = std::string(rest.substr(0, rest.size() - 3));
      return msg;
    }
    return fail(line, "expected LOGIN:<name> OK or LOGIN:incorrect");
  }
  if (line == "LOGOUT:completed") {
    msg.kind = MessageKind::LogoutCompleted;
    return msg;
  }
  if (starts_with(line, "BEGIN ") || starts_with(line, "END ")) {
    bool begin = line[0] == 'B';
    std::string_view name = line.substr(begin ? 6 : 4);
    if (name.empty() || name.find(' ') != std::string_view::npos)
      return fail(line, begin ? "expected BEGIN <block name>" : "expected END <block name>");
    msg.kind = begin ? MessageKind::Begin : MessageKind::End;
    msg.text = std::string(name);
    return msg;
  }
  if (starts_with(line, "START:")) {
    if (line.size() == 6) return fail(line, "expected START:<game id>");
    msg.kind = MessageKind::Start;
    msg.text = std::string(line.substr(6));
    return msg;
  }
  if (starts_with(line, "REJECT:")) {
    std::string_view rest = line.substr(7);
    size_t by = rest.find(" by ");
    std::string_view id = rest.substr(0, by);
    if (id.empty()) return fail(line, "expected REJECT:<game id> by <name>");
    msg.kind = MessageKind::Reject;
    msg.text = std::string(id);
    if (by != std::string_view::npos) msg.detail = std::string(rest.substr(by + 4));
    return msg;
  }
  msg.kind = MessageKind::Unknown;
  msg.text = std::string(line);
  return msg;
}

const char* to_string(EndReason r) {
  for (auto [name, value] : REASONS)
    if (value == r) return name.data();
  return "";
}

const char* to_string(EndResult r) {
  for (auto [name, value] : RESULTS)
    if (value == r) return name.data();
  return "";
}

}  // namespace arena::csa
