#pragma once
// Time allocation for one move: an optimum time the search aims at and a maximum it may never pass, both measured
// from the moment `go` (or `ponderhit`) arrived, plus the decision taken between iterations whether to go on.
//
// USI clocks: the mover may spend its remaining main time plus, on this move, the byoyomi or the increment (the
// increment for this move is not yet included in the remaining time).

#include "rules/types.h"
#include "search/limits.h"
#include "search/value.h"

namespace shogi {

struct TimeOptions {
  Milliseconds network_delay = 20;         // margin subtracted from every deadline
  // The margin for the hard deadline when byoyomi or an increment pays the move. With the main time gone every
  // move runs right up to it, so it must outlast a stall of the whole machine: at 40 ms, one ~100 ms stall of
  // this class of VM made two engines flag at once in a 1 s byoyomi self-play. 120 ms is YaneuraOu's NetworkDelay.
  Milliseconds network_delay2 = 120;
  Milliseconds minimum_thinking_time = 20;  // never plan less than this (when the clock allows it)
  int slow_mover = 100;                    // percentage applied to the optimum time
  bool round_up_to_full_second = false;    // servers that charge whole seconds (truncated)
};

// What the main thread knows after finishing an iteration.
struct IterationReport {
  Milliseconds elapsed = 0;
  Milliseconds last_iteration_time = 0;  // time the iteration just finished took
  double branching_factor = 2.0;         // effective branching factor estimate (time ratio of iterations)
  double best_move_changes = 0;          // changes of the best move per iteration, decayed over iterations
  int stable_iterations = 0;             // consecutive iterations that kept the same best move
  bool failed_low = false;               // the root failed low during the iteration
  Value score = VALUE_ZERO;
  Value previous_score = VALUE_NONE;     // score of the previous iteration
  bool single_legal_move = false;
  bool mate_proven = false;
};

class TimeManager {
 public:
  void init(const SearchLimits& limits, Color us, int game_ply, const TimeOptions& options);

  // False for depth, node, infinite and mate searches: then nothing here applies.
  bool enabled() const { return enabled_; }
  Milliseconds optimum() const { return optimum_; }
  Milliseconds maximum() const { return maximum_; }
  // Byoyomi with the main time gone and fixed movetime: the time is lost if unused, so no early stop.
  bool use_full_time() const { return use_full_time_; }

  bool stop_after_iteration(const IterationReport& r) const;
  // While pondering, with the elapsed time counted from `go ponder`: whether the search has already thought as
  // long as this move asks for, so that a ponderhit should answer at once instead of starting the allocation over.
  // The rule against starting an iteration that cannot finish before the maximum does not apply: no clock runs
  // while pondering (ponderhit answers at once when the ponder ran for the whole maximum: see below).
  bool thought_enough_while_pondering(const IterationReport& r) const;
  // At ponderhit, whatever the last iteration said: a ponder that already ran for this move's whole maximum answers
  // at once, even in the middle of an iteration. Never with byoyomi alone, which is lost when unused.
  bool pondered_past_maximum(Milliseconds pondered) const;

 private:
  // The time this iteration's report asks for: the optimum scaled by the score's fall, the best move's
  // instability and stability, and a fail-low, never beyond the maximum.
  double wanted_time(const IterationReport& r) const;

  bool enabled_ = false;
  bool use_full_time_ = false;
  Milliseconds optimum_ = 0;
  Milliseconds maximum_ = 0;
};

// Expected number of own moves still to play, from the game ply: long at the start, shorter later, never below a
// floor so that a long game never runs the clock down.
int expected_moves_to_go(int game_ply);

}  // namespace shogi
