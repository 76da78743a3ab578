#pragma once
// An engine's time management measured over a game, per kind of clock: one side of a fixed game record replayed
// (no opponent needed), each move sent with the clocks a tournament would send (game::Clock, game::go_params) and
// charged as a tournament charges it. What one move at a time cannot show shows here: an engine that spends a
// fixed time whatever its clock, one that ignores the increment, one that thinks past its byoyomi, one that
// leaves most of its byoyomi unused. The battery measures (profile_checks.cpp); this file holds the kinds, the
// record and the judgement, which need no engine.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "game/time_control.h"

namespace arena::check {

// A kind of clock the profile plays.
struct ClockKind {
  std::string id;    // "profile.increment": stable, for scripts
  std::string name;  // "sudden death with a small increment"
  game::TimeControl tc;
};
// Sudden death with a small increment, plain sudden death, Fischer and byoyomi; shorter clocks with `quick`;
// every clock `scale` times as long (tests of engines whose time managers are proportional to the clock).
std::vector<ClockKind> profile_kinds(bool quick, double scale = 1);

// The record replayed: USI moves from the start position. The engine plays sente's moves from `first_ply` on.
struct ProfileRecord {
  std::span<const std::string_view> moves;
  int first_ply = 0;  // the opening before it is not thought about, as in a tournament with an opening book
};
const ProfileRecord& profile_record();
// How many of the record's moves the engine plays (all its moves; fewer with `quick`).
int profile_moves(bool quick);

// One move: the clock before it and the time taken.
struct ProfileMove {
  std::int64_t remaining_ms = 0;  // main time left before the move (without its increment)
  std::int64_t allowed_ms = 0;    // what the move may take: remaining + increment, or + byoyomi
  std::int64_t used_ms = 0;
};

enum class ProfileVerdict { Safe, Risky, UnderUses, NoAnswer };
std::string_view to_string(ProfileVerdict verdict);

struct TimeProfile {
  ClockKind kind;
  std::vector<ProfileMove> moves;  // up to and with the move that flagged
  std::int64_t margin_ms = 0;      // the tolerance the game grants (its own margin_ms, or the game's)
  bool answered = true;            // false: a move got no bestmove (or the engine died): `moves` stops before it
  double seconds = 0;              // how long the measurement took

  // Judged from the moves (judge_profile):
  ProfileVerdict verdict = ProfileVerdict::Safe;
  std::optional<int> flag_move;      // 1-based: the engine's move that lost on time
  std::int64_t left_ms = 0;          // main time left after the last move
  double mean_share = 0;             // mean time used / main time left, over the moves in main time
  std::int64_t least_spare_ms = 0;   // the smallest allowed - used over the moves (negative: over)
  int least_spare_move = 0;          // 1-based
  std::int64_t byoyomi_used_ms = 0;  // median time used per move once in byoyomi (0: never in it)
  std::string figure;                // one line: what was measured
  std::string detail;                // for risky or under-using: what happens and what to do
};

// Judges `p` from its moves. Risky: a move used more than allowed + margin (the first one is named). Under-uses:
// byoyomi moves that keep using less than a quarter of the byoyomi, or a byoyomi game played on less than a
// quarter of its main time and byoyomi together (a network delay set too high, as YaneuraOu's
// NetworkDelay2: `delay_option` names the engine's option when it has one), or, with an increment, a clock that
// ends fuller than it began by more than half of what the increments gave. Safe otherwise.
void judge_profile(TimeProfile& p, std::string_view delay_option = {});

// One line of block characters, one per move: the time used as a share of the time allowed ("▁▂▃▄▅▆▇█", "!" for
// a move over its allowance). The console draws each kind's curve with it.
std::string time_curve(const TimeProfile& p);

}  // namespace arena::check
