#pragma once
// The schedule parameters the schedule and resume tests build their schedules from.

#include <cstdint>

#include "config/config.h"
#include "run/schedule.h"

namespace test_support {

inline arena::run::Schedule::Params schedule_params(
    arena::config::TournamentType type, int engines, int rounds, int openings,
    arena::config::OpeningOrder order = arena::config::OpeningOrder::Sequential, uint64_t seed = 1) {
  arena::run::Schedule::Params p;
  p.type = type;
  p.engines = engines;
  p.rounds = rounds;
  p.openings = openings;
  p.order = order;
  p.seed = seed;
  return p;
}

}  // namespace test_support
