// Time control text: "10+0.1" (Fischer), "0+1b" / "60+10b" (byoyomi), "movetime=1", "nodes=10000", "depth=6",
// and comma-separated combinations of one clock with nodes/depth ("10+0.1,nodes=50000").

#include <charconv>
#include <string>

#include "game/time_control.h"

namespace arena::game {

namespace {

// Milliseconds as seconds with as few decimals as needed: 100 -> "0.1", 1500 -> "1.5", 60000 -> "60".
std::string seconds_text(int64_t ms) {
  std::string out = std::to_string(ms / 1000);
  if (int64_t frac = ms % 1000; frac != 0) {
    std::string digits = std::to_string(frac);
    digits.insert(0, 3 - digits.size(), '0');
    while (digits.back() == '0') digits.pop_back();
    out += '.' + digits;
  }
  return out;
}

// "<digits>[.<up to 3 digits>]" seconds -> milliseconds.
std::expected<int64_t, std::string> parse_seconds(std::string_view text, std::string_view what) {
  auto fail = [&](std::string why) {
    return std::unexpected(std::string(what) + " '" + std::string(text) + "': " + why);
  };
  if (text.empty()) return fail("expected a number of seconds");
  auto dot = text.find('.');
  std::string_view whole = text.substr(0, dot);
  std::string_view frac = dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
  if (whole.empty() && frac.empty()) return fail("expected a number of seconds");
  auto digits_only = [](std::string_view s) {
    for (char c : s)
      if (c < '0' || c > '9') return false;
    return true;
  };
  if (!digits_only(whole) || !digits_only(frac) || (dot != std::string_view::npos && frac.empty()))
    return fail("expected seconds such as 10 or 0.5");
  if (frac.size() > 3) return fail("at most 3 decimals (milliseconds)");
  if (whole.size() > 9) return fail("too large");
  int64_t seconds = 0;
  if (!whole.empty()) std::from_chars(whole.data(), whole.data() + whole.size(), seconds);
  int64_t millis = 0;
  for (size_t i = 0; i < 3; ++i) millis = millis * 10 + (i < frac.size() ? frac[i] - '0' : 0);
  return seconds * 1000 + millis;
}

std::expected<int64_t, std::string> parse_count(std::string_view text, std::string_view what, int64_t max) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || v <= 0 || v > max)
    return std::unexpected(std::string(what) + " '" + std::string(text) + "': expected a whole number from 1 to " +
                           std::to_string(max));
  return v;
}

}  // namespace

std::string TimeControl::to_string() const {
  std::string out;
  auto add = [&](const std::string& part) {
    if (!out.empty()) out += ',';
    out += part;
  };
  if (movetime_ms) {
    add("movetime=" + seconds_text(*movetime_ms));
  } else if (has_clock()) {
    std::string clock = seconds_text(base_ms);
    if (byoyomi_ms > 0)
      clock += '+' + seconds_text(byoyomi_ms) + 'b';
    else if (increment_ms > 0)
      clock += '+' + seconds_text(increment_ms);
    add(clock);
  }
  if (nodes) add("nodes=" + std::to_string(*nodes));
  if (depth) add("depth=" + std::to_string(*depth));
  return out;
}

std::expected<TimeControl, std::string> parse_time_control(std::string_view text) {
  const std::string whole(text);
  auto fail = [&](std::string why) {
    return std::unexpected("time control '" + whole + "': " + why +
                           " (expected e.g. 10+0.1, 0+1b, 60+10b, movetime=1, nodes=10000, depth=6, "
                           "or a clock and limits joined by commas)");
  };
  TimeControl tc;
  bool clock_seen = false;
  if (text.empty()) return fail("empty");
  while (true) {
    auto comma = text.find(',');
    std::string_view part = text.substr(0, comma);
    if (part.empty()) return fail("empty part");
    if (auto eq = part.find('='); eq != std::string_view::npos) {
      std::string_view key = part.substr(0, eq), value = part.substr(eq + 1);
      if (key == "movetime") {
        if (tc.movetime_ms) return fail("movetime given twice");
        auto v = parse_seconds(value, "movetime");
        if (!v) return fail(v.error());
        if (*v <= 0) return fail("movetime must be positive");
        tc.movetime_ms = *v;
      } else if (key == "nodes") {
        if (tc.nodes) return fail("nodes given twice");
        auto v = parse_count(value, "nodes", int64_t(1) << 50);
        if (!v) return fail(v.error());
        tc.nodes = *v;
      } else if (key == "depth") {
        if (tc.depth) return fail("depth given twice");
        auto v = parse_count(value, "depth", 200);
        if (!v) return fail(v.error());
        tc.depth = int(*v);
      } else {
        return fail("unknown limit '" + std::string(key) + "'");
      }
    } else {
      if (clock_seen) return fail("two clocks");
      clock_seen = true;
      auto plus = part.find('+');
      auto base = parse_seconds(part.substr(0, plus), "base time");
      if (!base) return fail(base.error());
      tc.base_ms = *base;
      if (plus != std::string_view::npos) {
        std::string_view extra = part.substr(plus + 1);
        bool byoyomi = !extra.empty() && extra.back() == 'b';
        if (byoyomi) extra.remove_suffix(1);
        auto v = parse_seconds(extra, byoyomi ? "byoyomi" : "increment");
        if (!v) return fail(v.error());
        (byoyomi ? tc.byoyomi_ms : tc.increment_ms) = *v;
      }
      if (!tc.has_clock()) return fail("a clock with no time at all");
    }
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  if (tc.movetime_ms && clock_seen) return fail("movetime and a clock together");
  return tc;
}

std::string time_control_text(const TimeControl& black, const TimeControl& white) {
  const std::string b = black.to_string(), w = white.to_string();
  return b == w ? b : "black " + b + ", white " + w;
}

}  // namespace arena::game
