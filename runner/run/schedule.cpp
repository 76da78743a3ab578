#include "run/schedule.h"

#include <cstdio>
#include <numeric>

namespace arena::run {

namespace {

uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Uniform in [0, n) without modulo bias (rejection sampling on the top of the range).
uint64_t below(uint64_t& state, uint64_t n) {
  const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  for (;;) {
    uint64_t x = splitmix64(state);
    if (x < limit) return x % n;
  }
}

struct Fnv {
  uint64_t h = 0xcbf29ce484222325ull;
  void add(std::string_view s) {
    for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
    h = (h ^ 0xff) * 0x100000001b3ull;  // a separator, so "ab","c" differs from "a","bc"
  }
  void add(int64_t v) { add(std::to_string(v)); }
};

}  // namespace

Schedule::Schedule(const Params& p) : rounds_(p.rounds), games_per_pair_(p.games_per_pair) {
  using config::TournamentType;
  if (p.type == TournamentType::RoundRobin) {
    for (int i = 0; i < p.engines; ++i)
      for (int j = i + 1; j < p.engines; ++j) pairings_.push_back({i, j});
  } else {
    for (int j = 1; j < p.engines; ++j) pairings_.push_back({0, j});
  }
  round_openings_.resize(size_t(std::max(p.rounds, 0)));
  const int n = std::max(p.openings, 1);
  if (p.order == config::OpeningOrder::Sequential) {
    for (int r = 0; r < p.rounds; ++r) round_openings_[size_t(r)] = r % n;
  } else {
    uint64_t state = p.seed;
    std::vector<int> perm(static_cast<size_t>(n));
    for (int r = 0; r < p.rounds; ++r) {
      if (r % n == 0) {
        std::iota(perm.begin(), perm.end(), 0);
        for (size_t i = perm.size() - 1; i > 0; --i) std::swap(perm[i], perm[below(state, i + 1)]);
      }
      round_openings_[size_t(r)] = perm[size_t(r % n)];
    }
  }
}

ScheduledGame Schedule::game(int64_t index) const {
  ScheduledGame g;
  g.index = index;
  g.pair = index / games_per_pair_;
  g.game_in_pair = int(index % games_per_pair_);
  const int64_t p = int64_t(pairings_.size());
  g.round = int(g.pair / p);
  g.pairing = int(g.pair % p);
  const Pairing& pairing = pairings_[size_t(g.pairing)];
  g.black = g.game_in_pair == 0 ? pairing.first : pairing.second;
  g.white = g.game_in_pair == 0 ? pairing.second : pairing.first;
  g.opening = round_openings_[size_t(g.round)];
  return g;
}

std::string schedule_id(const Schedule& schedule, const std::vector<std::string>& engine_names,
                        const std::vector<std::string>& opening_positions) {
  Fnv f;
  f.add(schedule.games());
  f.add(schedule.games_per_pair());
  for (const std::string& n : engine_names) f.add(n);
  for (const Pairing& p : schedule.pairings()) f.add(p.first), f.add(p.second);
  for (int r = 0; r < schedule.rounds(); ++r) {
    const int o = schedule.opening_of_round(r);
    f.add(o);
    if (size_t(o) < opening_positions.size()) f.add(opening_positions[size_t(o)]);
  }
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(f.h));
  return buf;
}

}  // namespace arena::run
