#include "output/result_json.h"

#include <boost/json/monotonic_resource.hpp>
#include <cstdio>
#include <cstdlib>
#include <deque>

#include "output/json.h"
#include "rules/notation.h"
#include "rules/position.h"

namespace arena {

namespace bj = boost::json;

namespace {

using Clock = std::chrono::system_clock;

template <typename T>
bj::value optional_int(const std::optional<T>& v) {
  return v ? bj::value(*v) : bj::value(nullptr);
}

// "2024-01-01T10:00:00.123Z"; UTC so that journals from different machines compare.
std::string iso_time(Clock::time_point t) {
  if (t == Clock::time_point{}) return {};
  auto ms = std::chrono::floor<std::chrono::milliseconds>(t);
  auto day = std::chrono::floor<std::chrono::days>(ms);
  std::chrono::year_month_day ymd{day};
  std::chrono::hh_mm_ss hms{ms - day};
  char buf[40];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02uT%02d:%02d:%02d.%03dZ", int(ymd.year()), unsigned(ymd.month()),
                unsigned(ymd.day()), int(hms.hours().count()), int(hms.minutes().count()), int(hms.seconds().count()),
                int(hms.subseconds().count()));
  return buf;
}

bj::value time_value(Clock::time_point t) {
  std::string text = iso_time(t);
  return text.empty() ? bj::value(nullptr) : bj::value(text);
}

bj::value info_value(const SearchInfo& info, const bj::storage_ptr& sp) {
  if (!info.depth && !info.seldepth && !info.score_cp && !info.score_mate && !info.nodes && info.pv.empty())
    return nullptr;
  bj::array pv(sp);
  pv.reserve(info.pv.size());
  for (const std::string& m : info.pv) pv.emplace_back(m);
  bj::object o(6, sp);
  o.emplace("depth", optional_int(info.depth));
  o.emplace("seldepth", optional_int(info.seldepth));
  o.emplace("score_cp", optional_int(info.score_cp));
  o.emplace("score_mate", optional_int(info.score_mate));
  o.emplace("nodes", optional_int(info.nodes));
  o.emplace("pv", std::move(pv));
  return o;
}

// ---- reading ----

std::unexpected<std::string> field_error(std::string_view name, std::string_view what) {
  return std::unexpected("result JSON: \"" + std::string(name) + "\" " + std::string(what));
}

std::expected<std::string, std::string> get_string(const bj::object& doc, std::string_view name, bool required) {
  const bj::value* v = doc.if_contains(name);
  if (!v || v->is_null()) {
    if (required) return field_error(name, "is missing");
    return std::string();
  }
  if (const bj::string* s = v->if_string()) return std::string(*s);
  return field_error(name, "must be a string");
}

std::expected<Clock::time_point, std::string> get_time(const bj::object& doc, std::string_view name) {
  auto text = get_string(doc, name, false);
  if (!text) return std::unexpected(text.error());
  if (text->empty()) return Clock::time_point{};
  int y = 0;
  unsigned mo = 0, d = 0, h = 0, mi = 0, s = 0, ms = 0;
  char tail = 0;
  // %n-free fixed layout: exactly what iso_time writes.
  if (text->size() != 24 ||
      std::sscanf(text->c_str(), "%4d-%2u-%2uT%2u:%2u:%2u.%3u%c", &y, &mo, &d, &h, &mi, &s, &ms, &tail) != 8 ||
      tail != 'Z')
    return field_error(name, "must look like 2024-01-01T10:00:00.000Z");
  std::chrono::year_month_day ymd{std::chrono::year(y), std::chrono::month(mo), std::chrono::day(d)};
  if (!ymd.ok() || h > 23 || mi > 59 || s > 60) return field_error(name, "is not a valid date and time");
  // The clock counts nanoseconds in 64 bits (about 1678-2262): a year outside it would overflow, not parse.
  if (y < 1970 || y > 2200) return field_error(name, "has a year outside 1970-2200");
  return Clock::time_point(std::chrono::sys_days(ymd) + std::chrono::hours(h) + std::chrono::minutes(mi) +
                           std::chrono::seconds(s) + std::chrono::milliseconds(ms));
}

template <typename T>
std::expected<std::optional<T>, std::string> get_optional_int(const bj::object& obj, std::string_view name) {
  const bj::value* v = obj.if_contains(name);
  if (!v || v->is_null()) return std::optional<T>();
  if (const int64_t* i = v->if_int64()) return std::optional<T>(T(*i));
  if (const uint64_t* u = v->if_uint64()) return std::optional<T>(T(*u));  // above INT64_MAX: only node counts
  return field_error(name, "must be an integer");
}

std::expected<SearchInfo, std::string> get_info(const bj::value& v) {
  SearchInfo info;
  if (v.is_null()) return info;
  const bj::object* o = v.if_object();
  if (!o) return field_error("info", "entries must be objects or null");
  auto depth = get_optional_int<int>(*o, "depth");
  auto seldepth = get_optional_int<int>(*o, "seldepth");
  auto cp = get_optional_int<int>(*o, "score_cp");
  auto mate = get_optional_int<int>(*o, "score_mate");
  auto nodes = get_optional_int<uint64_t>(*o, "nodes");
  for (auto* e : {&depth, &seldepth, &cp, &mate})
    if (!*e) return std::unexpected(e->error());
  if (!nodes) return std::unexpected(nodes.error());
  info.depth = *depth;
  info.seldepth = *seldepth;
  info.score_cp = *cp;
  info.score_mate = *mate;
  info.nodes = *nodes;
  if (const bj::value* pv = o->if_contains("pv"); pv && !pv->is_null()) {
    const bj::array* arr = pv->if_array();
    if (!arr) return field_error("pv", "must be an array of strings");
    for (const bj::value& m : *arr) {
      const bj::string* s = m.if_string();
      if (!s) return field_error("pv", "must be an array of strings");
      info.pv.emplace_back(*s);
    }
  }
  return info;
}

// Journals written before "time_controls" existed: each side's control from the display text, "10+0.1" or
// "black 10+0.1, white 5+0.1". Nothing when the text is not one of those (the report then draws no clock).
void legacy_time_controls(PlayedGame& game) {
  std::string_view black = game.time_control, white = game.time_control;
  constexpr std::string_view b = "black ", w = ", white ";
  if (black.starts_with(b)) {
    const size_t at = black.find(w);
    if (at == std::string_view::npos) return;
    white = black.substr(at + w.size());
    black = black.substr(b.size(), at - b.size());
  }
  auto tb = game::parse_time_control(black), tw = game::parse_time_control(white);
  if (!tb || !tw) return;
  game.time_controls[shogi::BLACK] = *tb;
  game.time_controls[shogi::WHITE] = *tw;
}

// Journals written before "forfeit_used_ms" existed: the time from the detail the game wrote ("black (name) used
// 1234.5 ms, allowed ..." or "... it answered stop after 1234.5 ms"). The last match: an engine's name may hold
// the same words.
std::optional<int64_t> legacy_forfeit_used_ms(const std::string& detail) {
  for (std::string_view key : {" used ", " answered stop after "}) {
    const size_t at = detail.rfind(key);
    if (at == std::string::npos) continue;
    const char* start = detail.c_str() + at + key.size();
    char* end = nullptr;
    const double ms = std::strtod(start, &end);
    if (end != start && std::string_view(end).starts_with(" ms") && ms >= 0 && ms < 1e15) return int64_t(ms);
  }
  return std::nullopt;
}

template <typename E>
std::expected<E, std::string> enum_from(std::string_view name, std::string_view text, E first, E last) {
  for (int i = int(first); i <= int(last); ++i)
    if (to_string(E(i)) == text) return E(i);
  return field_error(name, "has an unknown value \"" + std::string(text) + "\"");
}

}  // namespace

std::string to_result_json(const PlayedGame& game) {
  // The values of the line come from one arena, dropped at once: a long game has thousands of them, and allocating
  // and freeing each on its own made the line a third slower to write.
  bj::monotonic_resource arena;
  const bj::storage_ptr sp(&arena);
  bj::array moves(sp), times(sp), infos(sp);
  for (bj::array* a : {&moves, &times, &infos}) a->reserve(game.moves.size());
  for (const MoveRecord& m : game.moves) {
    moves.emplace_back(shogi::to_usi(m.move));
    times.emplace_back(m.time_ms);
    infos.push_back(info_value(m.info, sp));
  }
  size_t opening = 0;
  while (opening < game.moves.size() && game.moves[opening].opening) ++opening;
  bj::object doc(18, sp);  // members in the order written
  doc.emplace("version", 1);
  doc.emplace("event", game.event);
  doc.emplace("black", game.names[shogi::BLACK]);
  doc.emplace("white", game.names[shogi::WHITE]);
  doc.emplace("start_time", time_value(game.start_time));
  doc.emplace("end_time", time_value(game.end_time));
  doc.emplace("time_control", game.time_control);
  if (game.time_controls[shogi::BLACK] && game.time_controls[shogi::WHITE]) {
    bj::array controls(sp);
    for (shogi::Color c : {shogi::BLACK, shogi::WHITE}) controls.emplace_back(game.time_controls[c]->to_string());
    doc.emplace("time_controls", std::move(controls));
  }
  doc.emplace("start_sfen", game.start_sfen);
  doc.emplace("moves", std::move(moves));
  doc.emplace("times_ms", std::move(times));
  doc.emplace("opening_plies", int64_t(opening));
  doc.emplace("info", std::move(infos));
  doc.emplace("result", to_string(game.result.outcome));
  doc.emplace("termination", to_string(game.result.termination));
  doc.emplace("detail", game.result.detail);
  if (game.result.termination == Termination::TimeForfeit)
    doc.emplace("forfeit_used_ms", optional_int(game.forfeit_used_ms));
  doc.emplace("illegal_move", game.illegal_move_text);
  return json::serialize(doc);
}

std::expected<PlayedGame, std::string> parse_result_json(std::string_view line) {
  auto parsed = json::parse(line);
  if (!parsed) return std::unexpected("result JSON: " + parsed.error());
  if (!parsed->is_object()) return std::unexpected("result JSON: expected an object");
  const bj::object& doc = parsed->get_object();
  if (const bj::value* v = doc.if_contains("version"); !v || !v->if_int64() || *v->if_int64() != 1)
    return field_error("version", "must be 1");

  PlayedGame game;
  auto text = [&](std::string_view name, bool required, std::string& to) -> std::expected<void, std::string> {
    auto s = get_string(doc, name, required);
    if (!s) return std::unexpected(s.error());
    to = std::move(*s);
    return {};
  };
  std::string outcome, termination;
  for (auto r : {text("event", false, game.event), text("black", true, game.names[shogi::BLACK]),
                 text("white", true, game.names[shogi::WHITE]), text("time_control", false, game.time_control),
                 text("start_sfen", true, game.start_sfen), text("result", true, outcome),
                 text("termination", true, termination), text("detail", false, game.result.detail),
                 text("illegal_move", false, game.illegal_move_text)})
    if (!r) return std::unexpected(r.error());
  auto start = get_time(doc, "start_time");
  if (!start) return std::unexpected(start.error());
  auto end = get_time(doc, "end_time");
  if (!end) return std::unexpected(end.error());
  game.start_time = *start;
  game.end_time = *end;
  auto o = enum_from("result", outcome, Outcome::None, Outcome::Draw);
  if (!o) return std::unexpected(o.error());
  auto t = enum_from("termination", termination, Termination::None, Termination::Interrupted);
  if (!t) return std::unexpected(t.error());
  game.result.outcome = *o;
  game.result.termination = *t;
  if (const bj::value* v = doc.if_contains("time_controls")) {
    const bj::array* pair = v->if_array();
    if (!pair || pair->size() != 2) return field_error("time_controls", "must be [black's, white's]");
    for (shogi::Color c : {shogi::BLACK, shogi::WHITE}) {
      const bj::string* written = (*pair)[c].if_string();
      auto tc = written ? game::parse_time_control(std::string_view(*written))
                        : std::expected<game::TimeControl, std::string>(std::unexpect, "not a string");
      if (!tc) return field_error("time_controls", "must hold time controls: " + tc.error());
      game.time_controls[c] = *tc;
    }
  } else {
    legacy_time_controls(game);
  }
  if (game.result.termination == Termination::TimeForfeit) {
    if (doc.contains("forfeit_used_ms")) {
      auto used = get_optional_int<int64_t>(doc, "forfeit_used_ms");
      if (!used) return std::unexpected(used.error());
      if (*used && **used < 0) return field_error("forfeit_used_ms", "must not be negative");
      game.forfeit_used_ms = *used;
    } else {
      game.forfeit_used_ms = legacy_forfeit_used_ms(game.result.detail);
    }
  }

  const bj::value* moves = doc.if_contains("moves");
  if (!moves || !moves->is_array()) return field_error("moves", "must be an array of USI moves");
  const bj::array& move_list = moves->get_array();
  const bj::value* times = doc.if_contains("times_ms");
  if (times && !times->is_null() && (!times->is_array() || times->get_array().size() != move_list.size()))
    return field_error("times_ms", "must be an array with one time per move");
  const bj::value* infos = doc.if_contains("info");
  if (infos && !infos->is_null() && (!infos->is_array() || infos->get_array().size() != move_list.size()))
    return field_error("info", "must be an array with one entry (or null) per move");
  auto opening = get_optional_int<int64_t>(doc, "opening_plies");
  if (!opening) return std::unexpected(opening.error());
  int64_t opening_plies = opening->value_or(0);
  if (opening_plies < 0 || opening_plies > int64_t(move_list.size()))
    return field_error("opening_plies", "must be between 0 and the number of moves");

  // Replaying restores the moved piece every shogi::Move carries, and proves the line describes a real game.
  shogi::Position::init();
  shogi::Position pos;
  std::deque<shogi::StateInfo> states(1);
  std::string_view sfen = game.start_sfen;
  if (sfen.starts_with("sfen ")) sfen.remove_prefix(5);
  if (auto r = pos.set(sfen, &states.back()); !r) return field_error("start_sfen", "is invalid: " + r.error());
  for (size_t i = 0; i < move_list.size(); ++i) {
    const bj::string* usi = move_list[i].if_string();
    if (!usi) return field_error("moves", "must be an array of USI moves");
    auto m = shogi::parse_usi_move(pos, std::string_view(*usi));
    if (!m) return std::unexpected("result JSON: move " + std::to_string(i + 1) + ": " + m.error());
    MoveRecord mr;
    mr.move = *m;
    mr.opening = int64_t(i) < opening_plies;
    if (times && !times->is_null()) {
      const int64_t* ms = times->get_array()[i].if_int64();
      if (!ms) return field_error("times_ms", "must hold integers");
      mr.time_ms = *ms;
    }
    if (infos && !infos->is_null()) {
      auto info = get_info(infos->get_array()[i]);
      if (!info) return std::unexpected(info.error());
      mr.info = std::move(*info);
    }
    game.moves.push_back(std::move(mr));
    states.emplace_back();
    pos.do_move(*m, states.back());
  }
  return game;
}

}  // namespace arena
