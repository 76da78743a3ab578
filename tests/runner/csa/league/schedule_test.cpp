// Floodgate schedules: shogi-server's own test vectors (TC_floodgate_next_time_generator.rb) for `.conf` weekly
// times and the built-in half-hourly rounds, the interval mode, and one-line errors for every bad `.conf` line.
#include <doctest/doctest.h>

#include <cstdlib>
#include <ctime>

#include "csa/league/schedule.h"

using arena::csa::league::GroupSettings;
using arena::csa::league::Schedule;
using arena::csa::league::WallTime;

namespace {

// The vectors are wall-clock times; a zone without daylight saving keeps them exact whatever the machine's.
struct UtcZone {
  UtcZone() {
    if (const char* tz = std::getenv("TZ")) saved = tz, had = true;
    setenv("TZ", "UTC", 1);
    tzset();
  }
  ~UtcZone() {
    if (had)
      setenv("TZ", saved.c_str(), 1);
    else
      unsetenv("TZ");
    tzset();
  }
  std::string saved;
  bool had = false;
};

WallTime at(int y, int mo, int d, int h, int mi, int s = 0) {
  std::tm tm{};
  tm.tm_year = y - 1900;
  tm.tm_mon = mo - 1;
  tm.tm_mday = d;
  tm.tm_hour = h;
  tm.tm_min = mi;
  tm.tm_sec = s;
  tm.tm_isdst = -1;
  return std::chrono::system_clock::from_time_t(std::mktime(&tm));
}

WallTime next(const std::string& conf, WallTime now) {
  auto s = Schedule::parse(conf, "test.conf");
  REQUIRE(s.has_value());
  auto t = s->next_after(now);
  REQUIRE(t.has_value());
  return *t;
}

std::string error_of(const std::string& conf) {
  auto s = Schedule::parse(conf, "floodgate-600-10F.conf");
  REQUIRE_FALSE(s.has_value());
  return s.error();
}

}  // namespace

TEST_CASE("a weekly time lies in the current ISO week, or the next when it has passed") {
  UtcZone utc;
  const WallTime thursday = at(2010, 6, 10, 21, 20, 15);
  CHECK(next("Thu 22:00", thursday) == at(2010, 6, 10, 22, 0));
  CHECK(next("Fri 22:00", thursday) == at(2010, 6, 11, 22, 0));
  CHECK(next("Sun 22:00", thursday) == at(2010, 6, 13, 22, 0));
  CHECK(next("Mon 22:00", thursday) == at(2010, 6, 14, 22, 0));
  CHECK(next("Thu 20:00", thursday) == at(2010, 6, 17, 20, 0));
  // Exactly at the time: the next week's.
  CHECK(next("Thu 22:00", at(2010, 6, 10, 22, 0, 0)) == at(2010, 6, 17, 22, 0));
  // Across the year's end, where the ISO week belongs to the old year.
  CHECK(next("Sun 00:00", at(2011, 12, 30, 12, 0)) == at(2012, 1, 1, 0, 0));
  CHECK(next("Mon 00:00", at(2012, 1, 1, 1, 0)) == at(2012, 1, 2, 0, 0));
  CHECK(next("Sat 00:00", at(2012, 1, 1, 1, 0)) == at(2012, 1, 7, 0, 0));
  // Full day names, several times: the earliest wins; comments and blank lines are skipped.
  CHECK(next("# league\n\nFriday 09:00\nThursday 23:30\n", thursday) == at(2010, 6, 10, 23, 30));
}

TEST_CASE("without a .conf a group pairs every 30 minutes at :00 and :30") {
  UtcZone utc;
  const Schedule s = Schedule::every_half_hour();
  CHECK(*s.next_after(at(2010, 6, 10, 22, 0)) == at(2010, 6, 10, 22, 30));
  CHECK(*s.next_after(at(2010, 6, 10, 22, 30)) == at(2010, 6, 10, 23, 0));
  CHECK(*s.next_after(at(2010, 6, 10, 22, 29, 59)) == at(2010, 6, 10, 22, 30));
  CHECK(*s.next_after(at(2010, 6, 10, 23, 50)) == at(2010, 6, 11, 0, 0));
  CHECK(*s.next_after(at(2009, 12, 31, 23, 50)) == at(2010, 1, 1, 0, 0));
}

TEST_CASE("an interval pairs at its multiples from the epoch and keeps the settings given") {
  GroupSettings settings;
  settings.max_moves = 100;
  const Schedule s = Schedule::every(std::chrono::seconds(10), settings);
  CHECK(*s.next_after(WallTime(std::chrono::milliseconds(1'000'500))) == WallTime(std::chrono::seconds(1010)));
  CHECK(*s.next_after(WallTime(std::chrono::seconds(1010))) == WallTime(std::chrono::seconds(1020)));
  CHECK(s.settings().max_moves == 100);
}

TEST_CASE("set lines give the group's games their settings") {
  auto s = Schedule::parse(
      "set pairing_factory swiss_pairing\nset sacrifice bot+0123\nset max_moves 320\nset least_time_per_move 1\n"
      "Wed 12:00\n",
      "x.conf");
  REQUIRE(s.has_value());
  CHECK(s->settings().pairing_factory == "swiss_pairing");
  CHECK(s->settings().sacrifice == "bot+0123");
  CHECK(s->settings().max_moves == 320);
  CHECK(s->settings().least_time_per_move == 1);
  // Without set lines, shogi-server's defaults.
  auto d = Schedule::parse("Wed 12:00\n", "x.conf");
  CHECK(d->settings().pairing_factory == "default_factory");
  CHECK(d->settings().max_moves == 256);
  CHECK(d->settings().least_time_per_move == 0);
  // Only set lines: a group that never pairs.
  CHECK_FALSE(Schedule::parse("set max_moves 10\n", "x.conf")->next_after(WallTime()).has_value());
}

TEST_CASE("a bad .conf line is an error naming the file and line") {
  CHECK(error_of("Thu 22:00\nThx 22:00\n").starts_with("floodgate-600-10F.conf:2: expected a day"));
  CHECK(error_of("thu 22:00\n").starts_with("floodgate-600-10F.conf:1: expected a day"));
  CHECK(error_of("Thu 24:00\n").starts_with("floodgate-600-10F.conf:1: expected a time HH:MM"));
  CHECK(error_of("Thu 22:60\n").find("expected a time") != std::string::npos);
  CHECK(error_of("Thu\n").find("expected a time") != std::string::npos);
  CHECK(error_of("set max_moves many\n").find("expected 'set max_moves N'") != std::string::npos);
  CHECK(error_of("set least_time_per_move 90\n").find("from 0 to 60") != std::string::npos);
  CHECK(error_of("set pairing_factory best\n").find("least_diff_pairing") != std::string::npos);
  CHECK(error_of("set colour black\n").find("expected 'set' pairing_factory") != std::string::npos);
  CHECK(error_of("# ok\nset sacrifice\n").starts_with("floodgate-600-10F.conf:2:"));
  CHECK(error_of("Thu 22:00 \nFri 10:00 extra\n").find("got 'Fri 10:00 extra'") != std::string::npos);
}

TEST_CASE("a .conf that cannot be read is an error naming it") {
  auto s = Schedule::load("/nonexistent/floodgate-600-10F.conf");
  REQUIRE_FALSE(s.has_value());
  CHECK(s.error() == "/nonexistent/floodgate-600-10F.conf: cannot read the schedule");
}
