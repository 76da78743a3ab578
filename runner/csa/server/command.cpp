#include "csa/server/command.h"

#include <algorithm>
#include <array>
#include <utility>
#include <vector>

namespace arena::csa {

namespace {

// Ruby's \s: the line never contains LF (lines are split on it), but CR, TAB, VT and FF count.
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_word(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_'; }
bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

std::string_view chomp(std::string_view line) {
  if (line.size() >= 2 && line.substr(line.size() - 2) == "\r\n") return line.substr(0, line.size() - 2);
  if (!line.empty() && (line.back() == '\n' || line.back() == '\r')) return line.substr(0, line.size() - 1);
  return line;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// A tiny cursor for the anchored patterns of shogi-server's command table. Each step consumes what the regex
// element would; greedy runs never need to backtrack here because what follows them cannot match their class.
struct Cursor {
  std::string_view s;
  size_t pos = 0;

  bool at_end() const { return pos == s.size(); }
  bool literal(std::string_view p) {
    if (s.substr(pos, p.size()) != p) return false;
    pos += p.size();
    return true;
  }
  size_t spaces() {  // \s*
    size_t start = pos;
    while (pos < s.size() && is_space(s[pos])) ++pos;
    return pos - start;
  }
  std::string_view token() {  // \S*
    size_t start = pos;
    while (pos < s.size() && !is_space(s[pos])) ++pos;
    return s.substr(start, pos - start);
  }
};

// "%%KEY\s+(\S+)": the token, or nullopt.
std::optional<std::string_view> key_and_token(std::string_view line, std::string_view key) {
  Cursor c{line};
  if (!c.literal(key) || c.spaces() == 0) return std::nullopt;
  std::string_view t = c.token();
  if (t.empty()) return std::nullopt;
  return t;
}

// "%%KEY\s+\S+\s+\S+"
bool key_and_two_tokens(std::string_view line, std::string_view key) {
  Cursor c{line};
  if (!c.literal(key) || c.spaces() == 0 || c.token().empty() || c.spaces() == 0) return false;
  return !c.token().empty();
}

// "%%(GAME|CHALLENGE)\s+(\S+)\s+([+-*])\s*$" -> Game/Challenge; "%%(GAME|CHALLENGE)\s+(\S+)" -> MissingTurn.
std::optional<ClientCommand> game_or_challenge(std::string_view line) {
  for (auto [key, kind] : {std::pair{std::string_view("%%GAME"), ClientCommandKind::Game},
                           std::pair{std::string_view("%%CHALLENGE"), ClientCommandKind::Challenge}}) {
    Cursor c{line};
    if (!c.literal(key) || c.spaces() == 0) continue;
    std::string_view name = c.token();
    if (name.empty()) continue;
    ClientCommand cmd;
    cmd.text = std::string(name);
    if (c.spaces() > 0 && c.pos < line.size() && (line[c.pos] == '+' || line[c.pos] == '-' || line[c.pos] == '*')) {
      char turn = line[c.pos++];
      c.spaces();
      if (c.at_end()) {
        cmd.kind = kind;
        cmd.turn = turn;
        return cmd;
      }
    }
    cmd.kind = ClientCommandKind::MissingTurn;
    return cmd;
  }
  return std::nullopt;
}

// "%%CHAT\s+(.+)": Ruby backtracks the \s+ by one character when nothing else follows.
std::optional<std::string> chat_message(std::string_view line) {
  Cursor c{line};
  if (!c.literal("%%CHAT")) return std::nullopt;
  size_t start = c.pos;
  size_t n = c.spaces();
  if (n == 0) return std::nullopt;
  if (!c.at_end()) return std::string(line.substr(c.pos));
  if (n >= 2) return std::string(line.substr(start + n - 1));
  return std::nullopt;
}

// Ruby's String#split(","): trailing empty fields are dropped.
std::vector<std::string_view> split_commas(std::string_view s) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (true) {
    size_t comma = s.find(',', start);
    out.push_back(s.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  while (!out.empty() && out.back().empty()) out.pop_back();
  return out;
}

std::vector<std::string_view> split_spaces(std::string_view s) {
  std::vector<std::string_view> out;
  Cursor c{s};
  c.spaces();
  while (!c.at_end()) {
    out.push_back(c.token());
    c.spaces();
  }
  return out;
}

// Parses a decimal run of at most 9 digits (a game name's times); longer runs are refused rather than overflowing.
std::optional<int> small_number(std::string_view digits) {
  if (digits.empty() || digits.size() > 9) return std::nullopt;
  int v = 0;
  for (char c : digits) v = v * 10 + (c - '0');
  return v;
}

// "^(.+)-\d+-\d+F?$" without the identifier check: {prefix, total digits, last part incl. F}.
struct NameParts {
  std::string_view id, total, last;
};
std::optional<NameParts> split_name(std::string_view s) {
  size_t end = s.size();
  if (end > 0 && s[end - 1] == 'F') --end;
  size_t p = end;
  while (p > 0 && is_digit(s[p - 1])) --p;
  if (p == end || p == 0 || s[p - 1] != '-') return std::nullopt;
  size_t last_begin = p;
  size_t q = p - 1;
  size_t r = q;
  while (r > 0 && is_digit(s[r - 1])) --r;
  if (r == q || r == 0 || s[r - 1] != '-') return std::nullopt;
  if (r - 1 == 0) return std::nullopt;  // (.+) needs at least one character
  return NameParts{s.substr(0, r - 1), s.substr(r, q - r), s.substr(last_begin)};
}

// "^(.+)-\d+-\d+F?-(\w)$" with the letter b/B/w/W: the name without the suffix, and the turn.
std::optional<std::pair<std::string_view, char>> split_turn_suffix(std::string_view s) {
  if (s.size() < 2 || s[s.size() - 2] != '-') return std::nullopt;
  char c = s.back();
  char turn = (c == 'b' || c == 'B') ? '+' : (c == 'w' || c == 'W') ? '-' : 0;
  if (!turn) return std::nullopt;
  std::string_view base = s.substr(0, s.size() - 2);
  if (!split_name(base)) return std::nullopt;
  return std::pair{base, turn};
}

constexpr std::string_view HIRATE_TOP = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/";

}  // namespace

ClientCommand parse_client_command(std::string_view raw) {
  std::string_view line = chomp(raw);
  ClientCommand cmd;
  auto kind = [&](ClientCommandKind k, std::string_view text = {}) {
    cmd.kind = k;
    cmd.text = std::string(text);
    return cmd;
  };
  if (line.empty()) return kind(ClientCommandKind::KeepAlive);
  if (line == " ") return kind(ClientCommandKind::KeepAliveSilent);
  if (line.size() >= 2 && line[0] == '%' && line[1] != '%') {
    cmd.special = starts_with(line, "%TORYO")   ? SpecialKind::Toryo
                  : starts_with(line, "%KACHI") ? SpecialKind::Kachi
                                                : SpecialKind::Other;
    return kind(ClientCommandKind::Special, line);
  }
  if (line.size() >= 2 && (line[0] == '+' || line[0] == '-') && line[1] != '%') {
    auto fields = split_commas(line);
    std::string_view move = fields.empty() ? std::string_view{} : fields[0];
    if (fields.size() >= 2 && starts_with(fields[1], "'")) {
      // The comment is the rest of the line: a PV comment may itself contain commas.
      size_t at = line.find(",'");
      cmd.comment = std::string(line.substr(at + 2));
    }
    return kind(ClientCommandKind::Move, move);
  }
  if (starts_with(line, "REJECT")) return kind(ClientCommandKind::Reject, trim(line.substr(6)));
  if (starts_with(line, "AGREE")) return kind(ClientCommandKind::Agree, trim(line.substr(5)));
  if (auto id = key_and_token(line, "%%SHOW")) return kind(ClientCommandKind::Show, *id);
  for (std::string_view key : {"%%MONITORON", "%%MONITOROFF", "%%MONITOR2ON", "%%MONITOR2OFF"})
    if (key_and_token(line, key)) return kind(ClientCommandKind::Unsupported, line);
  if (starts_with(line, "%%HELP")) return kind(ClientCommandKind::Help);
  if (starts_with(line, "%%RATING")) return kind(ClientCommandKind::Rating);
  if (starts_with(line, "%%FLOODGATE")) return kind(ClientCommandKind::Floodgate);
  if (starts_with(line, "%%VERSION")) return kind(ClientCommandKind::Version);
  {
    Cursor c{line};
    if (c.literal("%%GAME")) {
      c.spaces();
      if (c.at_end()) return kind(ClientCommandKind::GameCancel);
    }
  }
  if (auto gc = game_or_challenge(line)) return *gc;
  if (auto msg = chat_message(line)) return kind(ClientCommandKind::Chat, *msg);
  if (starts_with(line, "%%LIST")) return kind(ClientCommandKind::List);
  if (starts_with(line, "%%WHO")) return kind(ClientCommandKind::Who);
  if (starts_with(line, "LOGOUT")) return kind(ClientCommandKind::Logout);
  if (starts_with(line, "CHALLENGE")) return kind(ClientCommandKind::CsaChallenge);
  if (key_and_two_tokens(line, "%%SETBUOY") || key_and_token(line, "%%DELETEBUOY") ||
      key_and_token(line, "%%GETBUOYCOUNT") || key_and_two_tokens(line, "%%FORK"))
    return kind(ClientCommandKind::Unsupported, line);
  {
    Cursor c{line};
    if (c.literal("%%FORK") && c.spaces() > 0 && !c.token().empty() && c.at_end())
      return kind(ClientCommandKind::Unsupported, line);
  }
  if (trim(line).empty()) return kind(ClientCommandKind::Blank);
  if (line.size() >= 4 && starts_with(line, "%%%") && line[3] != '%') return kind(ClientCommandKind::Ignored);
  return kind(ClientCommandKind::Unknown, line);
}

const char* to_string(ClientCommandKind kind) {
  switch (kind) {
    case ClientCommandKind::KeepAlive:
      return "keep-alive";
    case ClientCommandKind::KeepAliveSilent:
      return "silent keep-alive";
    case ClientCommandKind::Blank:
      return "blank";
    case ClientCommandKind::Move:
      return "move";
    case ClientCommandKind::Special:
      return "special";
    case ClientCommandKind::Agree:
      return "AGREE";
    case ClientCommandKind::Reject:
      return "REJECT";
    case ClientCommandKind::Game:
      return "%%GAME";
    case ClientCommandKind::Challenge:
      return "%%CHALLENGE";
    case ClientCommandKind::GameCancel:
      return "%%GAME (cancel)";
    case ClientCommandKind::MissingTurn:
      return "%%GAME without a turn";
    case ClientCommandKind::Who:
      return "%%WHO";
    case ClientCommandKind::List:
      return "%%LIST";
    case ClientCommandKind::Show:
      return "%%SHOW";
    case ClientCommandKind::Chat:
      return "%%CHAT";
    case ClientCommandKind::Help:
      return "%%HELP";
    case ClientCommandKind::Version:
      return "%%VERSION";
    case ClientCommandKind::Rating:
      return "%%RATING";
    case ClientCommandKind::Floodgate:
      return "%%FLOODGATE";
    case ClientCommandKind::Logout:
      return "LOGOUT";
    case ClientCommandKind::CsaChallenge:
      return "CHALLENGE";
    case ClientCommandKind::Ignored:
      return "ignored";
    case ClientCommandKind::Unsupported:
      return "unsupported";
    case ClientCommandKind::Unknown:
      return "unknown";
  }
  return "unknown";
}

bool good_identifier(std::string_view s, int max_length) {
  if (s.empty() || s.size() > size_t(std::max(max_length, 0))) return false;
  for (char c : s)
    if (!is_word(c) && c != '@' && c != '-' && c != '.') return false;
  return true;
}

size_t token_count(std::string_view line) { return split_spaces(line).size(); }

std::optional<LoginRequest> parse_login(std::string_view line, int max_identifier) {
  auto tokens = split_spaces(line);
  bool shape = tokens.size() == 3 || (tokens.size() == 4 && tokens[3] == "x1");
  if (!shape || tokens[0] != "LOGIN" || !good_identifier(tokens[1], max_identifier)) return std::nullopt;
  return LoginRequest{std::string(tokens[1]), std::string(tokens[2]), tokens.size() == 4};
}

std::string mask_login(std::string_view line) {
  // shogi-server: gsub(/LOGIN\s*(\w+)\s+.*/i, 'LOGIN \1...'), matched anywhere in the line.
  auto upper = [](char c) { return (c >= 'a' && c <= 'z') ? char(c - 32) : c; };
  for (size_t at = 0; at + 5 <= line.size(); ++at) {
    bool word = true;
    for (size_t i = 0; i < 5; ++i)
      if (upper(line[at + i]) != "LOGIN"[i]) word = false;
    if (!word) continue;
    Cursor c{line, at + 5};
    c.spaces();
    size_t name_begin = c.pos;
    while (c.pos < line.size() && is_word(line[c.pos])) ++c.pos;
    size_t name_end = c.pos;
    if (name_end == name_begin || c.spaces() == 0) continue;
    std::string out(line.substr(0, at));
    out.append("LOGIN ").append(line.substr(name_begin, name_end - name_begin)).append("...");
    return out;
  }
  return std::string(line);
}

std::optional<GameName> parse_game_name(std::string_view name, int max_identifier) {
  auto parts = split_name(name);
  if (!parts || !good_identifier(parts->id, max_identifier)) return std::nullopt;
  GameName g;
  g.id = std::string(parts->id);
  auto total = small_number(parts->total);
  bool fischer = !parts->last.empty() && parts->last.back() == 'F';
  std::string_view digits = fischer ? parts->last.substr(0, parts->last.size() - 1) : parts->last;
  auto last = small_number(digits);
  if (!total || !last) return std::nullopt;
  g.total_s = *total;
  g.fischer = fischer;
  (fischer ? g.increment_s : g.byoyomi_s) = *last;
  g.stop_watch = parts->last.size() >= 2 && parts->last[0] == '0' && is_digit(parts->last[1]);
  return g;
}

bool has_game_name_shape(std::string_view name) { return split_name(name).has_value(); }

bool is_floodgate_game_name(std::string_view name) {
  if (!starts_with(name, "floodgate-")) return false;
  auto parts = split_name(name);
  return parts && parts->id == "floodgate";
}

std::optional<std::string> handicap_sfen(std::string_view game_name) {
  if (!good_game_name(game_name)) return std::nullopt;
  // Checked in shogi-server's order; "hcrook_" does not match "hcrooklance_" (the underscore).
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 9> TABLE = {{
      {"hclance_", "1B5R1/1NSGKGSNL"},
      {"hcbishop_", "7R1/LNSGKGSNL"},
      {"hcrook_", "1B7/LNSGKGSNL"},
      {"hcrooklance_", "1B7/1NSGKGSNL"},
      {"hc2p_", "9/LNSGKGSNL"},
      {"hc4p_", "9/1NSGKGSN1"},
      {"hc6p_", "9/2SGKGS2"},
      {"hc8p_", "9/3GKG3"},
      {"hc10p_", "9/4K4"},
  }};
  for (auto [prefix, bottom] : TABLE)
    if (starts_with(game_name, prefix)) return std::string(HIRATE_TOP) + std::string(bottom) + " b - 1";
  return std::nullopt;
}

CsaPassword parse_csa_password(std::string_view password, int max_identifier) {
  CsaPassword p;
  std::string game;
  if (good_game_name(password, max_identifier) || split_turn_suffix(password)) {
    // With a colour suffix only the shape is tested here: a bad identifier falls back to the default game below.
    game = std::string(password);
  } else if (auto fields = split_commas(password); fields.size() > 1) {
    game = std::string(fields[0]);
    std::string trip;
    for (size_t i = 1; i < fields.size(); ++i) {
      if (i > 1) trip += ',';
      trip += fields[i];
    }
    p.trip = std::string(trim(trip));
  } else {
    p.trip = std::string(trim(password));
    game = std::string(DEFAULT_GAME_NAME);
  }
  if (auto suffix = split_turn_suffix(game)) {
    p.turn = suffix->second;
    game = std::string(suffix->first);
  }
  p.game_name = good_game_name(game, max_identifier) ? game : std::string(DEFAULT_GAME_NAME);
  return p;
}

}  // namespace arena::csa
