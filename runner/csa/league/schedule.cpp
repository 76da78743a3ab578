#include "csa/league/schedule.h"

#include <charconv>
#include <ctime>
#include <fstream>
#include <sstream>

#include "csa/league/pairing.h"

namespace arena::csa::league {

namespace {

using Error = std::unexpected<std::string>;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::optional<int> number(std::string_view s) {
  int v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

// shogi-server's day names (util.rb): the three-letter and the full English forms, case as written.
std::optional<int> iso_weekday(std::string_view name) {
  static const char* const SHORT[] = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
  static const char* const LONG[] = {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"};
  for (int i = 0; i < 7; ++i)
    if (name == SHORT[i] || name == LONG[i]) return i + 1;
  return std::nullopt;
}

std::tm local_tm(WallTime t) {
  std::time_t tt = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  localtime_r(&tt, &tm);
  return tm;
}

WallTime from_local(std::tm tm) {
  tm.tm_isdst = -1;  // let mktime decide: a time across a DST change is still the wall-clock time written
  return std::chrono::system_clock::from_time_t(std::mktime(&tm));
}

}  // namespace

Schedule Schedule::every_half_hour() {
  Schedule s;
  s.half_hourly_ = true;
  return s;
}

Schedule Schedule::every(std::chrono::seconds interval, GroupSettings settings) {
  Schedule s;
  s.interval_ = interval;
  s.settings_ = std::move(settings);
  return s;
}

std::expected<Schedule, std::string> Schedule::parse(std::string_view text, const std::string& file) {
  Schedule s;
  int line_no = 0;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    std::string_view line = trim(text.substr(0, end));
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    ++line_no;
    auto fail = [&](const std::string& what) {
      return Error(file + ":" + std::to_string(line_no) + ": " + what + ", got '" + std::string(line) + "'");
    };
    if (line.empty() || line.front() == '#') continue;
    const size_t space = line.find_first_of(" \t");
    const std::string_view first = line.substr(0, space);
    const std::string_view rest = space == std::string_view::npos ? std::string_view() : trim(line.substr(space));
    if (first == "set") {
      const size_t gap = rest.find_first_of(" \t");
      const std::string_view key = rest.substr(0, gap);
      const std::string_view value = gap == std::string_view::npos ? std::string_view() : trim(rest.substr(gap));
      if (key == "pairing_factory") {
        if (!is_pairing_factory(value)) return fail("expected a pairing factory (" + pairing_factory_names() + ")");
        s.settings_.pairing_factory = value;
      } else if (key == "sacrifice") {
        if (value.empty() || value.find_first_of(" \t") != std::string_view::npos)
          return fail("expected a player id after 'set sacrifice'");
        s.settings_.sacrifice = value;
      } else if (key == "max_moves") {
        auto v = number(value);
        if (!v || *v < 0 || *v > 100000) return fail("expected 'set max_moves N' with N from 0 (no limit) to 100000");
        s.settings_.max_moves = *v;
      } else if (key == "least_time_per_move") {
        auto v = number(value);
        if (!v || *v < 0 || *v > 60) return fail("expected 'set least_time_per_move N' with N from 0 to 60 seconds");
        s.settings_.least_time_per_move = *v;
      } else {
        return fail("expected 'set' pairing_factory, sacrifice, max_moves or least_time_per_move");
      }
      continue;
    }
    auto day = iso_weekday(first);
    const size_t colon = rest.find(':');
    auto hour = colon == std::string_view::npos ? std::nullopt : number(rest.substr(0, colon));
    auto minute = colon == std::string_view::npos ? std::nullopt : number(trim(rest.substr(colon + 1)));
    if (!day) return fail("expected a day (Sun..Sat, or Sunday..Saturday) and HH:MM, or a 'set' line");
    if (!hour || !minute || *hour < 0 || *hour > 23 || *minute < 0 || *minute > 59)
      return fail("expected a time HH:MM from 00:00 to 23:59 after the day");
    s.weekly_.push_back({*day, *hour, *minute});
  }
  return s;
}

std::expected<Schedule, std::string> Schedule::load(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Error(path + ": cannot read the schedule");
  std::stringstream text;
  text << in.rdbuf();
  return parse(text.str(), path);
}

std::optional<WallTime> Schedule::next_after(WallTime now) const {
  if (interval_.count() > 0) {
    const auto since = std::chrono::floor<std::chrono::seconds>(now.time_since_epoch());
    return WallTime((since / interval_ + 1) * interval_);
  }
  const std::tm now_tm = local_tm(now);
  if (half_hourly_) {
    std::tm t = now_tm;
    t.tm_sec = 0;
    t.tm_min = now_tm.tm_min < 30 ? 30 : 60;  // mktime carries 60 minutes into the next hour
    return from_local(t);
  }
  std::optional<WallTime> best;
  const int today = now_tm.tm_wday == 0 ? 7 : now_tm.tm_wday;
  for (const WeeklyTime& w : weekly_) {
    std::tm t = now_tm;
    t.tm_mday += w.iso_weekday - today;
    t.tm_hour = w.hour;
    t.tm_min = w.minute;
    t.tm_sec = 0;
    WallTime when = from_local(t);
    if (when <= now) {
      t.tm_mday += 7;
      when = from_local(t);
    }
    if (!best || when < *best) best = when;
  }
  return best;
}

std::string Schedule::describe() const {
  if (interval_.count() > 0) return "every " + std::to_string(interval_.count()) + " s";
  if (half_hourly_) return "every 30 minutes (:00 and :30)";
  return std::to_string(weekly_.size()) + " weekly time" + (weekly_.size() == 1 ? "" : "s");
}

}  // namespace arena::csa::league
