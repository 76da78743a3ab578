// The clock probes: which clock the engine budgets from, increments, byoyomi, movetime and the limits. A fix
// found here (send_inc=false, swap_btime_wtime) is applied to the engine at once, for every later probe.

#include "check/battery.h"

#include <algorithm>

namespace arena::check {

std::int64_t Battery::sudden_ms() const { return o_.quick ? 3000 : 10000; }

void Battery::sudden_death() {
  const std::int64_t t = sudden_ms();
  engine_.client().new_game();
  auto s = timed(timing_position(), sudden_go(t, t), t, "sudden death");
  if (s.died) {
    dies_on_go_ = true;
    add("time.sudden_death", "sudden death " + ms(t) + " each", Verdict::Fail, died_text(s),
        "it dies on a plain `go btime wtime`: it cannot play a timed game");
    return;
  }
  if (!s.answered()) {
    add("time.sudden_death", "sudden death " + ms(t) + " each", Verdict::Fail, "no bestmove, even after stop",
        "it never answers `go btime wtime`");
    return;
  }
  const Verdict v = s.used_ms() > t ? Verdict::Fail : Verdict::Pass;
  add("time.sudden_death", "sudden death " + ms(t) + " each", v, "used " + ms(s.used_ms()) + " of " + ms(t),
      v == Verdict::Fail ? "it lost on time with all its main time left" : "");
}

// With the mover's clock long and the opponent's short, and the other way round: an engine that budgets from
// its own clock thinks longer in the first case. One that reads btime as gote's does the opposite.
void Battery::swapped_clocks() {
  const std::int64_t big = o_.quick ? 6000 : 20000, small = o_.quick ? 600 : 1000;
  const int rounds = o_.quick ? 1 : 2;
  std::int64_t with_big = 0, with_small = 0, worst_big = INT64_MIN, worst_small = INT64_MIN;
  for (int i = 0; i < rounds; ++i) {
    auto pos = timing_position();
    auto a = timed(pos, sudden_go(big, small), big);
    auto b = timed(pos, sudden_go(small, big), small);
    if (!a.answered() || !b.answered()) {
      add("time.swapped_clocks", "which clock it budgets from", Verdict::Skip, "",
          a.died || b.died ? "died during the probe" : "no bestmove");
      return;
    }
    with_big += a.used_ms();
    with_small += b.used_ms();
    worst_big = std::max(worst_big, a.used_ms() - big);
    worst_small = std::max(worst_small, b.used_ms() - small);
  }
  with_big /= rounds;
  with_small /= rounds;
  const std::string figure =
      "own " + ms(big) + ": used " + ms(with_big) + "; own " + ms(small) + ": used " + ms(with_small);
  if (with_small >= 2 * with_big && with_small >= 30) {
    // It reads the opponent's clock as its own: exchange them (or stop exchanging, if the user's key did).
    usi::GoQuirks q = engine_.go_quirks();
    q.swap_sides = !q.swap_sides;
    engine_.set_go_quirks(q);
    report_.keys.swap_btime_wtime = q.swap_sides;
    auto pos = timing_position();
    auto a = timed(pos, sudden_go(big, small), big);
    auto b = timed(pos, sudden_go(small, big), small);
    if (b.answered()) short_clock(b.used_ms(), small);
    std::string verified = a.answered() && b.answered()
                               ? "; with swap_btime_wtime=" + std::string(q.swap_sides ? "true" : "false") + ": used " +
                                     ms(a.used_ms()) + " and " + ms(b.used_ms())
                               : "";
    add("time.swapped_clocks", "which clock it budgets from", Verdict::Warn, figure + verified,
        "it budgets from its opponent's clock (reads btime as gote's time) and loses on time whenever it is behind: "
        "use swap_btime_wtime=" +
            std::string(q.swap_sides ? "true" : "false"));
  } else if (with_big >= 2 * with_small) {
    // Not swapped: these were ordinary moves.
    note_overrun(worst_big, "sudden death");
    add("time.swapped_clocks", "which clock it budgets from", Verdict::Pass, figure + ": its own");
    short_clock(worst_small + small, small);
  } else {
    note_overrun(worst_big, "sudden death");
    add("time.swapped_clocks", "which clock it budgets from", Verdict::Pass,
        figure + ": inconclusive, about as long either way");
    short_clock(worst_small + small, small);
  }
}

// A move with little time left and nothing to come: an engine with a minimum think time flags here. No margin
// fixes that (it would overrun every move); sudden death without increment is the time control to avoid.
void Battery::short_clock(std::int64_t used, std::int64_t left) {
  const std::string title = "sudden death, " + ms(left) + " left";
  const std::string figure = "used " + ms(used) + " of " + ms(left);
  if (used > left + o_.game_margin_ms / 2) {
    report_.keys.avoid.push_back("sudden death without increment or byoyomi (tc=N+0)");
    add("time.short_clock", title, Verdict::Warn, figure,
        "it loses on time when its clock runs short: give it an increment or byoyomi");
  } else {
    add("time.short_clock", title, Verdict::Pass, figure);
  }
}

void Battery::fischer() {
  const std::int64_t t = o_.quick ? 3000 : 5000, inc = 1000;
  const std::string title = "Fischer " + ms(t) + " + " + ms(inc);
  auto s = engine_.search(timing_position(), sudden_go(t, t, inc), Millis(t + inc + 1500));
  searched(s);
  if (s.answered() && !s.stopped) {
    note_overrun(s.used_ms() - (t + inc), "Fischer");
    add("time.fischer", title, Verdict::Pass,
        "used " + ms(s.used_ms()) + " of " + ms(t + inc) +
            (engine_.go_quirks().fold_increments ? " (increments folded: send_inc=false)" : ""));
    return;
  }
  if (engine_.go_quirks().fold_increments || dies_on_go_) {
    add("time.fischer", title, Verdict::Fail, s.died ? died_text(s) : "no bestmove", "it cannot play with increments");
    return;
  }
  // An engine that aborts or hangs on binc/winc (gpsusi): fold the increments into the times instead.
  const std::string what = s.died         ? died_text(s)
                           : s.answered() ? "answered only after stop, " + ms(s.used_ms()) + " after go"
                                          : "no bestmove, even after stop";
  usi::GoQuirks q = engine_.go_quirks();
  q.fold_increments = true;
  engine_.set_go_quirks(q);
  report_.keys.send_inc = false;
  if (!ensure_running()) return;
  auto again = timed(timing_position(), sudden_go(t, t, inc), t + inc, "Fischer, increments folded");
  const std::string verified =
      again.answered() ? "; with send_inc=false: used " + ms(again.used_ms()) + " of " + ms(t + inc) : "";
  add("time.fischer", title, again.answered() ? Verdict::Warn : Verdict::Fail, "with binc/winc: " + what + verified,
      again.answered() ? "it cannot take binc/winc in go: use send_inc=false (the increment is added to btime/wtime)"
                       : "it fails on increments even when they are folded into the times");
}

// A move that uses more than the time left plus one increment, while the same total without an increment is
// kept: the increment is counted twice (or the engine adds it to btime itself).
void Battery::double_increment() {
  const std::string title = "increment counted once";
  if (engine_.go_quirks().fold_increments) {
    add("time.double_increment", title, Verdict::Skip, "", "increments are folded into the times (send_inc=false)");
    return;
  }
  const std::int64_t left = 300, inc = 1500, total = left + inc;
  auto pos = timing_position();
  // Both probes are short clocks (see short_clock): their overruns are not a tolerance to grant.
  auto plain = timed(pos, sudden_go(total, total), total);
  auto with_inc = timed(pos, sudden_go(left, left, inc), total);
  if (!plain.answered() || !with_inc.answered()) {
    add("time.double_increment", title, Verdict::Skip, "", "no bestmove in one of the probes");
    return;
  }
  const std::string figure = ms(left) + " + " + ms(inc) + ": used " + ms(with_inc.used_ms()) + "; " + ms(total) +
                             " without increment: used " + ms(plain.used_ms());
  const std::int64_t slack = o_.game_margin_ms / 2;
  if (with_inc.used_ms() > total + slack && plain.used_ms() <= total) {
    usi::GoQuirks q = engine_.go_quirks();
    q.fold_increments = true;
    engine_.set_go_quirks(q);
    report_.keys.send_inc = false;
    auto again = timed(pos, sudden_go(left, left, inc), total, "increment, folded");
    add("time.double_increment", title, Verdict::Warn,
        figure + (again.answered() ? "; with send_inc=false: used " + ms(again.used_ms()) : ""),
        "it spends more than the time left plus one increment: it counts the increment twice. Use send_inc=false");
    return;
  }
  add("time.double_increment", title, Verdict::Pass, figure);
}

void Battery::byoyomi_overrun() {
  const std::int64_t b = 1000;
  const int samples = o_.quick ? 3 : 8;
  std::vector<std::int64_t> used;
  for (int i = 0; i < samples && !interrupted(); ++i) {
    auto s = timed(timing_position(), byoyomi_go(b), b, "byoyomi");
    if (!s.answered()) {
      add("time.byoyomi", "byoyomi 1 s", dies_on_go_ ? Verdict::Skip : Verdict::Fail,
          s.died ? died_text(s) : "no bestmove", "it cannot play byoyomi");
      if (!ensure_running()) return;
      return;
    }
    used.push_back(s.used_ms());
  }
  if (used.empty()) return;
  // A few samples understate the worst of a tournament's thousands of moves: project the tail from the spread of
  // the moves that ran to the budget (a move stopped early says nothing about overruns, and an engine that always
  // stops at the same time projects no further than it went).
  std::vector<std::int64_t> full;
  for (std::int64_t u : used)
    if (u * 10 >= b * 9) full.push_back(u);
  if (full.size() >= 3) {
    const std::int64_t worst_used = *std::max_element(full.begin(), full.end());
    projected_overrun_ = worst_used + 2 * (worst_used - median(full)) - b;
  }
  const std::int64_t worst = *std::max_element(used.begin(), used.end());
  const std::string figure = "used " + ms(*std::min_element(used.begin(), used.end())) + " .. " + ms(worst) +
                             " (median " + ms(median(used)) + ") of " + ms(b) + ", " + std::to_string(used.size()) +
                             " moves";
  if (worst > b)
    add("time.byoyomi", "byoyomi 1 s", Verdict::Warn, figure,
        "it overruns its byoyomi by up to " + ms(worst - b) + " (see time.margin)");
  else
    add("time.byoyomi", "byoyomi 1 s", Verdict::Pass, figure);
  byoyomi_share(median(used), b);
}

// An engine that keeps most of its byoyomi back plays far below its strength at a short byoyomi: the YaneuraOu
// family keeps NetworkDelay2 (1,120 ms by default) back, so it thinks about 100 ms of a 1 s byoyomi.
void Battery::byoyomi_share(std::int64_t typical, std::int64_t b) {
  const std::string figure = "median " + ms(typical) + " of " + ms(b) + " (" +
                             std::to_string(typical * 100 / std::max<std::int64_t>(1, b)) + " %)";
  if (typical * 2 >= b) {
    add("time.byoyomi_share", "share of the byoyomi used", Verdict::Pass, figure);
    return;
  }
  auto value_of = [&](const usi::OptionSpec& option) {
    for (const auto& [name, value] : o_.engine.options)
      if (usi::iequals(name, option.name)) return value;
    return option.default_value;
  };
  std::string detail = "it uses less than half of its byoyomi";
  if (auto d2 = engine_.client().find_option("NetworkDelay2"))
    detail += ": it keeps NetworkDelay2 = " + value_of(*d2) + " ms back; lower it (option." + d2->name +
              "=..., with a margin_ms for what it then overruns) to think longer at a short byoyomi";
  else if (auto d = engine_.client().find_option("NetworkDelay"))
    detail += ": it keeps NetworkDelay = " + value_of(*d) + " ms back; lower it (option." + d->name + "=...)";
  else
    detail += ": look for its time-margin option, or expect it to play below its strength at a short byoyomi";
  add("time.byoyomi_share", "share of the byoyomi used", Verdict::Warn, figure, detail);
}

// Limits a tournament uses only when its time control says so (tc=movetime=..., nodes=..., depth=...).
void Battery::limit_probe(const std::string& id, const std::string& title, const GoParams& go, std::int64_t allowed,
                          Millis wait, const std::string& tc) {
  auto s = engine_.search(timing_position(), go, wait);
  searched(s);
  if (s.answered() && go.movetime && !s.stopped) note_overrun(s.used_ms() - allowed, "movetime");
  if (s.died) {
    report_.keys.avoid.push_back(tc);
    add(id, title, Verdict::Warn, died_text(s), "do not use " + tc + " with it");
    ensure_running();
    return;
  }
  if (s.stopped) {
    add(id, title, Verdict::Warn, s.answered() ? "answered only after stop" : "no bestmove, even after stop",
        "it ignores this limit: do not use " + tc + " with it");
    report_.keys.avoid.push_back(tc);
    return;
  }
  if (go.movetime && s.used_ms() > allowed + o_.game_margin_ms / 2)
    add(id, title, Verdict::Warn, "used " + ms(s.used_ms()) + " of " + ms(allowed), "it overruns its movetime");
  else
    add(id, title, Verdict::Pass, "used " + ms(s.used_ms()) + (go.movetime ? " of " + ms(allowed) : ""));
}

void Battery::movetime() {
  const std::int64_t t = o_.quick ? 300 : 500;
  GoParams g;
  g.movetime = t;
  limit_probe("time.movetime", "movetime " + ms(t), g, t, Millis(t + 1500), "tc=movetime=...");
}

void Battery::nodes_and_depth() {
  GoParams n;
  n.nodes = 20000;
  limit_probe("time.nodes", "nodes 20000", n, 0, Millis(o_.quick ? 4000 : 10000), "tc=nodes=...");
  if (!ensure_running()) return;
  GoParams d;
  d.depth = 4;
  limit_probe("time.depth", "depth 4", d, 0, Millis(o_.quick ? 4000 : 10000), "tc=depth=...");
}

}  // namespace arena::check
