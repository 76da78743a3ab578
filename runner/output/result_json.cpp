#include "output/result_json.h"

#include <cstdio>
#include <deque>

#include "output/json.h"
#include "rules/notation.h"
#include "rules/position.h"

namespace arena {

namespace {

using Clock = std::chrono::system_clock;

void key(std::string& out, std::string_view name) {
  out += ',';
  json::append_string(out, name);
  out += ':';
}

void string_member(std::string& out, std::string_view name, std::string_view value) {
  key(out, name);
  json::append_string(out, value);
}

template <typename T>
void optional_member(std::string& out, std::string_view name, const std::optional<T>& v, bool& first) {
  if (!first) out += ',';
  first = false;
  json::append_string(out, name);
  out += ':';
  out += v ? std::to_string(*v) : "null";
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
                unsigned(ymd.day()), int(hms.hours().count()), int(hms.minutes().count()),
                int(hms.seconds().count()), int(hms.subseconds().count()));
  return buf;
}

void time_member(std::string& out, std::string_view name, Clock::time_point t) {
  key(out, name);
  std::string text = iso_time(t);
  if (text.empty()) out += "null";
  else json::append_string(out, text);
}

void info_value(std::string& out, const SearchInfo& info) {
  if (!info.depth && !info.seldepth && !info.score_cp && !info.score_mate && !info.nodes && info.pv.empty()) {
    out += "null";
    return;
  }
  out += '{';
  bool first = true;
  optional_member(out, "depth", info.depth, first);
  optional_member(out, "seldepth", info.seldepth, first);
  optional_member(out, "score_cp", info.score_cp, first);
  optional_member(out, "score_mate", info.score_mate, first);
  optional_member(out, "nodes", info.nodes, first);
  out += ",\"pv\":[";
  for (size_t i = 0; i < info.pv.size(); ++i) {
    if (i) out += ',';
    json::append_string(out, info.pv[i]);
  }
  out += "]}";
}

// ---- reading ----

std::unexpected<std::string> field_error(std::string_view name, std::string_view what) {
  return std::unexpected("result JSON: \"" + std::string(name) + "\" " + std::string(what));
}

std::expected<std::string, std::string> get_string(const json::Value& doc, std::string_view name, bool required) {
  const json::Value* v = doc.find(name);
  if (!v || v->is_null()) {
    if (required) return field_error(name, "is missing");
    return std::string();
  }
  if (const std::string* s = v->as_string()) return *s;
  return field_error(name, "must be a string");
}

std::expected<Clock::time_point, std::string> get_time(const json::Value& doc, std::string_view name) {
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
  return Clock::time_point(std::chrono::sys_days(ymd) + std::chrono::hours(h) + std::chrono::minutes(mi) +
                           std::chrono::seconds(s) + std::chrono::milliseconds(ms));
}

template <typename T>
std::expected<std::optional<T>, std::string> get_optional_int(const json::Value& obj, std::string_view name) {
  const json::Value* v = obj.find(name);
  if (!v || v->is_null()) return std::optional<T>();
  const int64_t* i = v->as_int();
  if (!i) return field_error(name, "must be an integer");
  return std::optional<T>(T(*i));
}

std::expected<SearchInfo, std::string> get_info(const json::Value& v) {
  SearchInfo info;
  if (v.is_null()) return info;
  if (!v.as_object()) return field_error("info", "entries must be objects or null");
  auto depth = get_optional_int<int>(v, "depth");
  auto seldepth = get_optional_int<int>(v, "seldepth");
  auto cp = get_optional_int<int>(v, "score_cp");
  auto mate = get_optional_int<int>(v, "score_mate");
  auto nodes = get_optional_int<uint64_t>(v, "nodes");
  for (auto* e : {&depth, &seldepth, &cp, &mate})
    if (!*e) return std::unexpected(e->error());
  if (!nodes) return std::unexpected(nodes.error());
  info.depth = *depth;
  info.seldepth = *seldepth;
  info.score_cp = *cp;
  info.score_mate = *mate;
  info.nodes = *nodes;
  if (const json::Value* pv = v.find("pv"); pv && !pv->is_null()) {
    const json::Array* arr = pv->as_array();
    if (!arr) return field_error("pv", "must be an array of strings");
    for (const json::Value& m : *arr) {
      const std::string* s = m.as_string();
      if (!s) return field_error("pv", "must be an array of strings");
      info.pv.push_back(*s);
    }
  }
  return info;
}

template <typename E>
std::expected<E, std::string> enum_from(std::string_view name, std::string_view text, E first, E last) {
  for (int i = int(first); i <= int(last); ++i)
    if (to_string(E(i)) == text) return E(i);
  return field_error(name, "has an unknown value \"" + std::string(text) + "\"");
}

}  // namespace

std::string to_result_json(const PlayedGame& game) {
  std::string out = "{\"version\":1";
  string_member(out, "event", game.event);
  string_member(out, "black", game.names[shogi::BLACK]);
  string_member(out, "white", game.names[shogi::WHITE]);
  time_member(out, "start_time", game.start_time);
  time_member(out, "end_time", game.end_time);
  string_member(out, "time_control", game.time_control);
  string_member(out, "start_sfen", game.start_sfen);
  key(out, "moves");
  out += '[';
  for (size_t i = 0; i < game.moves.size(); ++i) {
    if (i) out += ',';
    json::append_string(out, shogi::to_usi(game.moves[i].move));
  }
  out += ']';
  key(out, "times_ms");
  out += '[';
  for (size_t i = 0; i < game.moves.size(); ++i) {
    if (i) out += ',';
    out += std::to_string(game.moves[i].time_ms);
  }
  out += ']';
  size_t opening = 0;
  while (opening < game.moves.size() && game.moves[opening].opening) ++opening;
  key(out, "opening_plies");
  out += std::to_string(opening);
  key(out, "info");
  out += '[';
  for (size_t i = 0; i < game.moves.size(); ++i) {
    if (i) out += ',';
    info_value(out, game.moves[i].info);
  }
  out += ']';
  string_member(out, "result", to_string(game.result.outcome));
  string_member(out, "termination", to_string(game.result.termination));
  string_member(out, "detail", game.result.detail);
  string_member(out, "illegal_move", game.illegal_move_text);
  out += '}';
  return out;
}

std::expected<PlayedGame, std::string> parse_result_json(std::string_view line) {
  auto parsed = json::parse(line);
  if (!parsed) return std::unexpected("result JSON: " + parsed.error());
  const json::Value& doc = *parsed;
  if (!doc.as_object()) return std::unexpected("result JSON: expected an object");
  if (const json::Value* v = doc.find("version"); !v || !v->as_int() || *v->as_int() != 1)
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

  const json::Value* moves = doc.find("moves");
  if (!moves || !moves->as_array()) return field_error("moves", "must be an array of USI moves");
  const json::Array& move_list = *moves->as_array();
  const json::Value* times = doc.find("times_ms");
  if (times && !times->is_null() && (!times->as_array() || times->as_array()->size() != move_list.size()))
    return field_error("times_ms", "must be an array with one time per move");
  const json::Value* infos = doc.find("info");
  if (infos && !infos->is_null() && (!infos->as_array() || infos->as_array()->size() != move_list.size()))
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
    const std::string* usi = move_list[i].as_string();
    if (!usi) return field_error("moves", "must be an array of USI moves");
    auto m = shogi::parse_usi_move(pos, *usi);
    if (!m) return std::unexpected("result JSON: move " + std::to_string(i + 1) + ": " + m.error());
    MoveRecord mr;
    mr.move = *m;
    mr.opening = int64_t(i) < opening_plies;
    if (times && !times->is_null()) {
      const int64_t* ms = (*times->as_array())[i].as_int();
      if (!ms) return field_error("times_ms", "must hold integers");
      mr.time_ms = *ms;
    }
    if (infos && !infos->is_null()) {
      auto info = get_info((*infos->as_array())[i]);
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
