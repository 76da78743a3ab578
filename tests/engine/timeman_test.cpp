// Time allocation over a table of clock situations, and the decisions taken between iterations.
#include <doctest/doctest.h>

#include "search/timeman.h"

using namespace shogi;

namespace {

struct GameClock {
  Milliseconds time = -1, inc = -1, byoyomi = -1, movetime = 0;
  int ply = 1;
};

TimeManager allocate(const GameClock& c, const TimeOptions& o = {}) {
  SearchLimits l;
  l.time[BLACK] = c.time;
  l.time[WHITE] = c.time;
  l.inc[BLACK] = l.inc[WHITE] = c.inc;
  l.byoyomi[BLACK] = l.byoyomi[WHITE] = c.byoyomi;
  l.movetime = c.movetime;
  TimeManager tm;
  tm.init(l, BLACK, c.ply, o);
  return tm;
}

// What the mover may spend on this move without losing: remaining plus byoyomi or increment.
Milliseconds available(const GameClock& c) {
  return std::max<Milliseconds>(0, c.time) + std::max<Milliseconds>(0, c.inc) + std::max<Milliseconds>(0, c.byoyomi);
}

}  // namespace

TEST_CASE("allocation table: optimum <= maximum <= what the clock allows, never negative") {
  const TimeOptions o;
  const GameClock table[] = {
      {600000, -1, -1, 0, 1},     // first move, ten minutes sudden death
      {600000, -1, -1, 0, 150},   // same clock late in the game
      {10000, -1, -1, 0, 1},      // 10 s sudden death
      {1, -1, -1, 0, 80},         // 1 ms left
      {0, -1, -1, 0, 80},         // nothing left
      {0, -1, 1000, 0, 80},       // 0 ms main time, 1 s byoyomi
      {0, -1, 10000, 0, 1},       // byoyomi only
      {30000, -1, 10000, 0, 30},  // main time plus byoyomi
      {500, -1, 1000, 0, 60},     // a little main time left with byoyomi
      {1000, 100, -1, 0, 10},     // Fischer 1 s + 0.1 s
      {50, 100000, -1, 0, 10},    // huge increment
      {-500, -20, -7, 0, 10},     // negative values from a buggy front end
      {-1, -1, -1, 0, 10},        // no clock values at all but for time: treated as no clock
  };
  for (const GameClock& c : table) {
    const TimeManager tm = allocate(c);
    INFO("time " << c.time << " inc " << c.inc << " byoyomi " << c.byoyomi << " ply " << c.ply);
    CHECK(tm.optimum() >= 0);
    CHECK(tm.optimum() <= tm.maximum());
    CHECK(tm.maximum() <= std::max<Milliseconds>(0, available(c) - o.network_delay));
  }
}

TEST_CASE("sudden death: a fraction of the clock, a cap of an eighth, a reserve, and instant moves at the end") {
  const TimeManager first = allocate({600000, -1, -1, 0, 1});
  CHECK(first.enabled());
  CHECK(first.optimum() >= 600000 / 60);
  CHECK(first.optimum() <= 600000 / 30);
  CHECK(first.maximum() <= 600000 / 8);
  CHECK(first.maximum() >= first.optimum() * 2);

  // Later in the game the expected number of moves shrinks, so the same clock buys more per move.
  CHECK(allocate({600000, -1, -1, 0, 150}).optimum() > first.optimum());

  // With 1 ms or nothing left: move at once.
  CHECK(allocate({1, -1, -1, 0, 80}).maximum() == 0);
  CHECK(allocate({0, -1, -1, 0, 80}).maximum() == 0);

  // The reserve is a growing share of a shrinking clock: the planned share of the clock never grows.
  double previous_share = 1.0;
  for (Milliseconds t : {600000, 60000, 10000, 2000, 500, 100}) {
    const double share = double(allocate({t, -1, -1, 0, 100}).maximum()) / double(t);
    CHECK(share <= previous_share + 1e-9);
    previous_share = share;
  }
}

TEST_CASE("byoyomi: main time first, then nearly the whole period") {
  const TimeOptions o;
  const TimeManager only = allocate({0, -1, 1000, 0, 80});
  CHECK(only.optimum() == 1000 - o.network_delay2);
  CHECK(only.maximum() == 1000 - o.network_delay2);
  CHECK(only.use_full_time());

  const TimeManager byo = allocate({0, -1, 10000, 0, 1});
  CHECK(byo.maximum() == 10000 - o.network_delay2);

  // With main time left, the move gets the byoyomi plus a share of the main time.
  const TimeManager with_main = allocate({30000, -1, 10000, 0, 30});
  CHECK(with_main.optimum() > 10000 - o.network_delay2);
  CHECK(with_main.maximum() <= 30000 + 10000 - o.network_delay2);
  CHECK_FALSE(with_main.use_full_time());

  // A little main time left would be wasted: spend all of it now with the period.
  const TimeManager little = allocate({500, -1, 1000, 0, 60});
  CHECK(little.optimum() == 500 + 1000 - o.network_delay2);
}

TEST_CASE("the default byoyomi margin outlasts a 100 ms stall of the machine") {
  // Measured: a ~100 ms stall of the whole (virtual) machine pushed two 1 s byoyomi moves to 1,060 ms when the
  // margin was 40 ms. A byoyomi-only move runs to the hard deadline, so the margin is all that absorbs a stall.
  const TimeManager only = allocate({0, -1, 1000, 0, 80});
  CHECK(only.maximum() + 100 < 1000);
  const TimeManager fischer = allocate({0, 1000, -1, 0, 80});
  CHECK(fischer.maximum() + 100 < 1000);
}

TEST_CASE("Fischer: remaining plus expected increments, capped by what is on the clock") {
  const TimeOptions o;
  const TimeManager f = allocate({1000, 100, -1, 0, 10});
  CHECK(f.optimum() >= 100 - o.network_delay);
  CHECK(f.maximum() <= 1000 + 100 - o.network_delay2);
  CHECK(f.maximum() <= 1000 / 8 + 100);

  const TimeManager huge = allocate({50, 100000, -1, 0, 10});
  CHECK(huge.optimum() > 1000);
  CHECK(huge.maximum() <= 50 + 100000 - o.network_delay2);
}

TEST_CASE("movetime, infinite and missing clocks") {
  const TimeOptions o;
  const TimeManager mt = allocate({-1, -1, -1, 500, 1});
  CHECK(mt.enabled());
  CHECK(mt.optimum() == 500 - o.network_delay);
  CHECK(mt.maximum() == 500 - o.network_delay);
  // A fixed movetime is used to the end: an iteration that cannot finish does not stop the search early (the
  // timer does, at the deadline).
  IterationReport long_next;
  long_next.elapsed = 200;
  long_next.last_iteration_time = 150;
  long_next.branching_factor = 3.0;
  CHECK_FALSE(mt.stop_after_iteration(long_next));
  // ... while with a normal clock the same report stops before the hopeless iteration.
  const TimeManager clock = allocate({60000, -1, -1, 0, 1});
  long_next.elapsed = clock.maximum() - 100;
  CHECK(clock.stop_after_iteration(long_next));

  SearchLimits inf;
  inf.infinite = true;
  inf.time[BLACK] = 1000;
  TimeManager tm;
  tm.init(inf, BLACK, 1, o);
  CHECK_FALSE(tm.enabled());

  SearchLimits depth_only;
  depth_only.depth = 5;
  tm.init(depth_only, BLACK, 1, o);
  CHECK_FALSE(tm.enabled());

  // The clock of the side not to move given alone: our time is missing and counts as zero.
  SearchLimits other;
  other.time[WHITE] = 60000;
  tm.init(other, BLACK, 10, o);
  CHECK(tm.enabled());
  CHECK(tm.maximum() == 0);
}

TEST_CASE("ponder: the allocation does not depend on pondering, it is recomputed from ponderhit") {
  SearchLimits l;
  l.time[BLACK] = l.time[WHITE] = 60000;
  l.ponder = true;
  TimeManager a, b;
  a.init(l, BLACK, 40, {});
  l.ponder = false;
  b.init(l, BLACK, 40, {});
  CHECK(a.optimum() == b.optimum());
  CHECK(a.maximum() == b.maximum());
}

TEST_CASE("ponder: time since go ponder counts as thinking done; no iteration is too long for a ponder") {
  const TimeManager tm = allocate({60000, -1, -1, 0, 40});
  IterationReport r;
  r.last_iteration_time = tm.optimum() / 4;
  r.branching_factor = 2.0;
  // Not yet the optimum: ponderhit must think on.
  r.elapsed = tm.optimum() / 2;
  CHECK_FALSE(tm.thought_enough_while_pondering(r));
  // Past the optimum: ponderhit answers at once.
  r.elapsed = tm.optimum();
  CHECK(tm.thought_enough_while_pondering(r));
  // An iteration that could not finish before the maximum stops a search on the clock, not a ponder: no clock
  // runs while pondering (ponderhit itself answers at once after a ponder as long as the maximum).
  r.elapsed = tm.optimum() / 2;
  r.last_iteration_time = tm.maximum();
  CHECK(tm.stop_after_iteration(r));
  CHECK_FALSE(tm.thought_enough_while_pondering(r));
  // A fail-low asks for more than the optimum, pondering or not.
  r.elapsed = tm.optimum();
  r.last_iteration_time = 1;
  r.failed_low = true;
  CHECK_FALSE(tm.thought_enough_while_pondering(r));
  // Byoyomi with the main time gone is used to the end after ponderhit.
  const TimeManager byo = allocate({0, -1, 1000, 0, 80});
  r = {};
  r.elapsed = 10 * byo.maximum();
  CHECK_FALSE(byo.thought_enough_while_pondering(r));
  // A single legal move or a proven mate needs no thought, whatever the clock.
  r.single_legal_move = true;
  CHECK(byo.thought_enough_while_pondering(r));
  SearchLimits none;
  TimeManager unbounded;
  unbounded.init(none, BLACK, 1, {});
  CHECK(unbounded.thought_enough_while_pondering(r));
}

TEST_CASE("ponderhit: a ponder as long as the move's maximum answers at once, never with byoyomi alone") {
  const TimeManager tm = allocate({60000, -1, -1, 0, 40});
  CHECK_FALSE(tm.pondered_past_maximum(tm.maximum() - 1));
  CHECK(tm.pondered_past_maximum(tm.maximum()));
  const TimeManager byo = allocate({0, -1, 1000, 0, 80});
  CHECK_FALSE(byo.pondered_past_maximum(100 * byo.maximum()));
  SearchLimits none;
  TimeManager unbounded;
  unbounded.init(none, BLACK, 1, {});
  CHECK_FALSE(unbounded.pondered_past_maximum(1000000));
}

TEST_CASE("options: margins, minimum thinking time, slow mover, whole seconds") {
  TimeOptions o;
  o.network_delay = 300;
  o.network_delay2 = 700;
  CHECK(allocate({0, -1, 3000, 0, 50}, o).maximum() == 3000 - 700);
  CHECK(allocate({-1, -1, -1, 2000, 1}, o).maximum() == 2000 - 300);

  TimeOptions slow;
  slow.slow_mover = 200;
  CHECK(allocate({600000, -1, -1, 0, 1}, slow).optimum() > allocate({600000, -1, -1, 0, 1}).optimum());

  TimeOptions min_think;
  min_think.minimum_thinking_time = 5000;
  const TimeManager m = allocate({600000, -1, -1, 0, 1}, min_think);
  CHECK(m.optimum() >= 5000);
  // ... but never beyond what the clock allows.
  CHECK(allocate({2000, -1, -1, 0, 100}, min_think).maximum() < 2000);

  TimeOptions whole;
  whole.round_up_to_full_second = true;
  whole.network_delay = 100;
  const TimeManager r = allocate({600000, -1, -1, 0, 1}, whole);
  // Stops just before the next whole second as the server sees it (our time plus the delay).
  CHECK((r.optimum() + whole.network_delay + 1) % 1000 == 0);
  CHECK((r.maximum() + whole.network_delay + 1) % 1000 == 0);
  CHECK(r.optimum() >= allocate({600000, -1, -1, 0, 1}, TimeOptions{100, 40, 20, 100, false}).optimum());
}

TEST_CASE("between iterations: single move and mates stop, instability extends, stability shortens") {
  const TimeManager tm = allocate({600000, -1, -1, 0, 1});
  const Milliseconds opt = tm.optimum();
  IterationReport r;
  r.elapsed = 10;
  r.last_iteration_time = 3;
  r.score = 50;
  r.previous_score = 50;
  CHECK_FALSE(tm.stop_after_iteration(r));

  IterationReport single = r;
  single.single_legal_move = true;
  CHECK(tm.stop_after_iteration(single));
  IterationReport mate = r;
  mate.mate_proven = true;
  CHECK(tm.stop_after_iteration(mate));

  IterationReport at_optimum = r;
  at_optimum.elapsed = opt;
  CHECK(tm.stop_after_iteration(at_optimum));
  IterationReport unstable = at_optimum;
  unstable.best_move_changes = 2.0;
  CHECK_FALSE(tm.stop_after_iteration(unstable));
  IterationReport fail_low = at_optimum;
  fail_low.failed_low = true;
  CHECK_FALSE(tm.stop_after_iteration(fail_low));

  IterationReport easy = r;
  easy.elapsed = opt * 6 / 10;
  CHECK_FALSE(tm.stop_after_iteration(easy));
  easy.stable_iterations = 10;
  CHECK(tm.stop_after_iteration(easy));

  // Never start an iteration that cannot finish before the maximum.
  IterationReport hopeless = r;
  hopeless.elapsed = tm.maximum() / 2;
  hopeless.last_iteration_time = tm.maximum() / 3;
  hopeless.branching_factor = 2.0;
  hopeless.best_move_changes = 3.0;
  CHECK(tm.stop_after_iteration(hopeless));

  // Byoyomi with no main time: no early stop for an easy move, the time is lost anyway.
  const TimeManager byo = allocate({0, -1, 1000, 0, 80});
  IterationReport stable = r;
  stable.elapsed = 100;
  stable.stable_iterations = 20;
  CHECK_FALSE(byo.stop_after_iteration(stable));
}
