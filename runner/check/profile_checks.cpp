// The time profiles (time_profile.h): per kind of clock, the engine plays sente's side of the built-in game record
// with the clocks a tournament keeps, the fixes found by the clock probes applied. Measured before the margin is
// decided, so that the byoyomi moves of a game (fifty, where the byoyomi probe has eight) weigh in the margin_ms
// recommended; judged after it, with that margin, as a tournament with the recommended keys would judge them. A
// kind it flags at goes to the controls to avoid, named with the move.

#include <algorithm>
#include <chrono>

#include "check/battery.h"
#include "check/time_profile.h"
#include "game/clock.h"

namespace arena::check {

namespace {

std::int64_t to_ms(game::Clock::Micros t) { return t.count() / 1000; }

// The byoyomi kind is measured first, a move more than this past its allowance ending it (no margin makes that
// fair: time.margin fails it); its overruns decide the margin the other kinds are measured and judged with.
constexpr std::int64_t GIVE_UP_OVER_MS = 1000;

}  // namespace

TimeProfile Battery::measure_profile(const ClockKind& kind, std::int64_t give_up_over_ms) {
  const auto started = SteadyClock::now();
  TimeProfile p;
  p.kind = kind;
  const ProfileRecord& record = profile_record();
  std::string position = "startpos moves";
  int ply = 0;
  for (; ply < record.first_ply; ++ply) position.append(" ").append(record.moves[size_t(ply)]);
  engine_.client().new_game();
  game::Clock black(kind.tc), white(kind.tc);
  const game::Clock::Micros give_up = std::chrono::milliseconds(give_up_over_ms);
  for (int n = 0; n < profile_moves(o_.quick) && ply < int(record.moves.size()); ++n, ply += 2) {
    if (interrupted()) break;
    ProfileMove m;
    m.remaining_ms = black.remaining_ms();
    m.allowed_ms = to_ms(*black.allowed());
    // Sent with a margin's grace and a second more: a move over its allowance is a finding, not a hang.
    auto s = engine_.search(position, game::go_params(black, white, shogi::BLACK),
                            Millis(m.allowed_ms + give_up_over_ms + 1000));
    searched(s);
    if (!s.answered()) {  // dead or wedged (a bestmove after stop is a move that flagged)
      p.answered = false;
      break;
    }
    m.used_ms = s.used_ms();
    p.moves.push_back(m);
    if (black.charge(std::chrono::milliseconds(m.used_ms), give_up) == game::Clock::Verdict::Flag) break;
    white = black;  // the opponent keeps pace: an engine that budgets from both clocks sees an even game
    position.append(" ").append(record.moves[size_t(ply)]);
    if (ply + 1 < int(record.moves.size())) position.append(" ").append(record.moves[size_t(ply) + 1]);
  }
  p.seconds = std::chrono::duration<double>(SteadyClock::now() - started).count();
  return p;
}

void Battery::measure_time_profiles() {
  if (!o_.time_profiles) return;
  std::vector<ClockKind> kinds = profile_kinds(o_.quick, o_.profile_scale);
  std::stable_partition(kinds.begin(), kinds.end(), [](const ClockKind& k) { return k.tc.byoyomi_ms > 0; });
  for (const ClockKind& kind : kinds) {
    if (interrupted() || !ensure_running()) return;
    const bool byoyomi = kind.tc.byoyomi_ms > 0;
    TimeProfile p = measure_profile(kind, byoyomi ? GIVE_UP_OVER_MS : granted_margin());
    if (interrupted()) return;
    // Its byoyomi moves, where the engine means to use the whole byoyomi, are what the margin is for.
    if (byoyomi)
      for (const ProfileMove& m : p.moves)
        if (m.remaining_ms == 0) note_overrun(m.used_ms - m.allowed_ms, "byoyomi over a game");
    measured_profiles_.push_back(std::move(p));
  }
  // Shown in the kinds' order.
  std::stable_partition(measured_profiles_.begin(), measured_profiles_.end(),
                        [](const TimeProfile& p) { return p.kind.tc.byoyomi_ms == 0; });
}

void Battery::judge_time_profiles() {
  std::string delay;
  if (auto d2 = engine_.client().find_option("NetworkDelay2"))
    delay = d2->name;
  else if (auto d = engine_.client().find_option("NetworkDelay"))
    delay = d->name;
  for (TimeProfile& p : measured_profiles_) {
    const ClockKind& kind = p.kind;
    p.margin_ms = report_.keys.margin_ms.value_or(o_.engine.margin_ms.value_or(o_.game_margin_ms));
    judge_profile(p, delay);
    const std::string title = "profile at " + kind.tc.to_string();
    const Verdict v = p.verdict == ProfileVerdict::Safe ? Verdict::Pass : Verdict::Warn;
    if (p.verdict == ProfileVerdict::Risky)
      report_.keys.avoid.push_back(kind.name + " like tc=" + kind.tc.to_string() + " (it flags at its move " +
                                   std::to_string(*p.flag_move) + ")");
    if (p.verdict == ProfileVerdict::NoAnswer)
      report_.keys.avoid.push_back(kind.name + " like tc=" + kind.tc.to_string() + " (no answer at its move " +
                                   std::to_string(p.moves.size() + 1) + ")");
    add(kind.id, title, v, p.figure, p.detail);
    report_.profiles.push_back(std::move(p));
  }
  measured_profiles_.clear();
}

}  // namespace arena::check
