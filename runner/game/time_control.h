#pragma once
// A clock setting for one side, and its text form (the command line's tc=, the journal's time controls).

#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>

namespace arena::game {

// A clock setting for one side. USI semantics: the increment of a move is not part of the remaining time sent
// as btime/wtime; the mover may use remaining + increment (or remaining + byoyomi once remaining is spent).
struct TimeControl {
  int64_t base_ms = 0;       // main time; 0 with byoyomi = byoyomi only
  int64_t increment_ms = 0;  // Fischer increment per move
  int64_t byoyomi_ms = 0;    // per-move time once the main time is used up
  // Limits instead of (or besides) a clock; a TimeControl with no clock and no limit is invalid.
  std::optional<int64_t> movetime_ms;
  std::optional<int64_t> nodes;
  std::optional<int> depth;

  bool has_clock() const { return base_ms > 0 || increment_ms > 0 || byoyomi_ms > 0; }
  // "10+0.1", "0+1b" (byoyomi), "60+10b", "movetime=1", "nodes=10000", "depth=6" — see parse_time_control.
  std::string to_string() const;
};
// Parses the forms to_string() writes: "<base s>[+<inc s>]" Fischer, "<base s>+<byo s>b" byoyomi,
// "movetime=<s>", "nodes=<n>", "depth=<d>". Seconds may have decimals. The error names what was expected.
std::expected<TimeControl, std::string> parse_time_control(std::string_view text);

// A game's time control as people read it: "10+0.1" when both sides have it, else "black 10+0.1, white 5+0.1".
std::string time_control_text(const TimeControl& black, const TimeControl& white);

}  // namespace arena::game
