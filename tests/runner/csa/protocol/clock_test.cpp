// The reference server's clock rules (csa-protocol.md §5), with the boundaries observed on shogi-server.
#include <doctest/doctest.h>

#include "csa/protocol/clock.h"

using namespace arena::csa;
using shogi::BLACK;
using shogi::WHITE;

namespace {

TimeRule rule(std::optional<int64_t> total_s, int64_t byoyomi_s, int64_t inc_s, int64_t least_s = 0) {
  TimeRule r;
  if (total_s) r.total_ms = *total_s * 1000;
  r.byoyomi_ms = byoyomi_s * 1000;
  r.increment_ms = inc_s * 1000;
  r.least_ms = least_s * 1000;
  return r;
}

}  // namespace

TEST_CASE("0 s + 2 s byoyomi: 1.9 s is fine, 2.05 s is a time-up (edge-0-2 on shogi-server)") {
  CsaClock clock(rule(0, 2, 0), rule(0, 2, 0));
  auto fast = clock.judge(BLACK, 1900);
  CHECK(fast.charged_ms == 1000);  // T1
  CHECK_FALSE(fast.time_up);
  auto slow = clock.judge(BLACK, 2050);
  CHECK(slow.charged_ms == 2000);
  CHECK(slow.time_up);
  CHECK(clock.judge(BLACK, 1999).time_up == false);
  CHECK(clock.judge(BLACK, 2000).time_up == true);
  CHECK(clock.budget_ms(BLACK) == 2000);
  clock.apply(BLACK, 1000);
  CHECK(clock.remaining_ms(BLACK) == 0);  // byoyomi is never banked
  CHECK(clock.budget_ms(BLACK) == 2000);
}

TEST_CASE("floor of elapsed seconds, and Least_Time_Per_Move") {
  TimeRule r = rule(600, 10, 0);
  CHECK(charged_ms(r, 0) == 0);
  CHECK(charged_ms(r, 999) == 0);
  CHECK(charged_ms(r, 1000) == 1000);
  CHECK(charged_ms(r, 12999) == 12000);
  CHECK(charged_ms(r, -5) == 0);
  TimeRule least = rule(600, 10, 0, 1);
  CHECK(charged_ms(least, 0) == 1000);
  CHECK(charged_ms(least, 300) == 1000);
  CHECK(charged_ms(least, 2500) == 2000);
  TimeRule up = r;
  up.roundup = true;
  CHECK(charged_ms(up, 0) == 0);
  CHECK(charged_ms(up, 1) == 1000);
  CHECK(charged_ms(up, 1000) == 1000);
  CHECK(charged_ms(up, 1001) == 2000);
  TimeRule minutes = r;
  minutes.unit_ms = 60000;
  CHECK(charged_ms(minutes, 59999) == 0);
  CHECK(charged_ms(minutes, 61000) == 60000);
  TimeRule ms = r;
  ms.unit_ms = 100;
  CHECK(charged_ms(ms, 1234) == 1200);
}

TEST_CASE("Fischer: the increment is credited before every move, the first one included") {
  CsaClock clock(rule(300, 0, 10), rule(300, 0, 10));
  CHECK(clock.remaining_ms(BLACK) == 300000);
  CHECK(clock.budget_ms(BLACK) == 310000);
  CHECK_FALSE(clock.judge(BLACK, 309999).time_up);  // charged 309 s < 310 s
  CHECK(clock.judge(BLACK, 310000).time_up);
  clock.apply(BLACK, 5000);
  CHECK(clock.remaining_ms(BLACK) == 305000);
  CHECK(clock.remaining_ms(WHITE) == 300000);
  clock.apply(WHITE, 0);
  CHECK(clock.remaining_ms(WHITE) == 310000);  // a 0 s move banks the increment
  clock.apply(BLACK, 400000);
  CHECK(clock.remaining_ms(BLACK) == 0);  // never negative
}

TEST_CASE("main time then byoyomi") {
  CsaClock clock(rule(10, 5, 0), rule(10, 5, 0));
  CHECK(clock.budget_ms(WHITE) == 15000);
  CHECK_FALSE(clock.judge(WHITE, 14999).time_up);
  CHECK(clock.judge(WHITE, 15000).time_up);
  clock.apply(WHITE, 12000);  // 2 s into byoyomi: main time gone, byoyomi not reduced
  CHECK(clock.remaining_ms(WHITE) == 0);
  CHECK(clock.budget_ms(WHITE) == 5000);
}

TEST_CASE("free functions agree with the clock") {
  TimeRule r = rule(60, 0, 2);
  CHECK(is_time_up(r, 1000, 3000));   // 3 >= 1 + 0 + 2
  CHECK_FALSE(is_time_up(r, 1000, 2000 - 1));
  CHECK(remaining_after(r, 1000, 2000) == 1000);
  CHECK(move_budget_ms(r, 1000) == 3000);
}

TEST_CASE("untimed games never flag") {
  TimeRule none = rule(std::nullopt, 0, 0);
  CHECK_FALSE(none.timed());
  CHECK_FALSE(is_time_up(none, 0, 1'000'000'000));
  CHECK_FALSE(move_budget_ms(none, 0).has_value());
  // Total_Time:0 with nothing else is untimed too (shogi-server: "some of Total/Byoyomi/Increment > 0").
  TimeRule zero = rule(0, 0, 0);
  CHECK_FALSE(zero.timed());
  CsaClock clock(none, rule(60, 0, 0));
  CHECK_FALSE(clock.judge(BLACK, 999'999'999).time_up);
  CHECK(clock.judge(WHITE, 60000).time_up);
}
