#pragma once
// The per-engine figures of an analysis: how much each engine gives up per move and how often it blunders, overall,
// by phase of the game and by the time it had left; and its lost games with their decisive mistakes. From the
// analysis lines alone, so that a resumed analysis and one run at once give the same figures.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/game_analysis.h"

namespace arena::analysis {

// Sums over a set of moves.
struct MoveStats {
  std::int64_t moves = 0;
  std::int64_t loss_cp = 0;  // capped losses summed
  std::int64_t best = 0;     // the referee's best move played
  std::int64_t inaccuracies = 0, mistakes = 0, blunders = 0;

  void add(const MoveAnalysis& move);
  double average_loss() const { return moves ? double(loss_cp) / double(moves) : 0; }
  double blunders_per_100() const { return moves ? 100.0 * double(blunders) / double(moves) : 0; }
  double agreement() const { return moves ? double(best) / double(moves) : 0; }  // 0..1
};

// Phases by ply (opening moves of the run's book included in the count): 1-40, 41-80, 81 and later.
constexpr int PHASE_COUNT = 3;
std::string_view phase_name(int phase);  // "plies 1-40", ...
int phase_of(int ply);
// Time left, as the allowance before the move over the side's allowance at its first move of the game: more than
// half, a fifth to a half, under a fifth; and moves without a clock (a node or depth budget, or a record without
// times).
constexpr int TIME_BUCKET_COUNT = 4;
std::string_view time_bucket_name(int bucket);  // "> 1/2 left", "1/5-1/2 left", "< 1/5 left", "no clock"
int time_bucket_of(std::int64_t given_ms, std::int64_t first_given_ms);

struct LostGame {
  std::int64_t game = 0;
  std::string source;
  std::string opponent;
  std::optional<DecisiveMistake> decisive;
  std::string move;  // the decisive move (USI), empty without one
  std::string best;  // what the referee preferred there
  int loss_cp = 0;
};

struct EngineSummary {
  std::string engine;
  std::int64_t games = 0, wins = 0, losses = 0, draws = 0;
  MoveStats all;
  std::array<MoveStats, PHASE_COUNT> by_phase{};
  std::array<MoveStats, TIME_BUCKET_COUNT> by_time{};
  std::int64_t missed_mates = 0, wins_to_losses = 0;
  std::vector<LostGame> lost;
};

// One summary per engine, in the order they first appear.
std::vector<EngineSummary> summarise(const std::vector<GameAnalysis>& games);

// The console's table: one row per engine (moves, average loss, blunders/mistakes/inaccuracies per 100 moves,
// agreement with the referee), then each engine's phases and time buckets.
std::string summary_table(const std::vector<EngineSummary>& engines);

}  // namespace arena::analysis
