#pragma once
// Helpers shared by the rules tests.

#include <doctest/doctest.h>

#include <algorithm>
#include <deque>
#include <string>
#include <vector>

#include "rules/movegen.h"
#include "rules/notation.h"
#include "rules/position.h"

namespace shogi::test {

// A position with its own history storage, set up from an SFEN that must be valid.
struct Board {
  Position pos;
  std::deque<StateInfo> states;
  explicit Board(std::string_view sfen = START_SFEN, PieceLimits limits = PieceLimits::Strict) {
    Position::init();
    states.emplace_back();
    auto r = pos.set(sfen, &states.back(), limits);
    REQUIRE_MESSAGE(r.has_value(), (r ? std::string() : r.error()));
  }
  void play(std::string_view usi) {
    auto m = parse_usi_move(pos, usi);
    REQUIRE_MESSAGE(m.has_value(), (m ? std::string() : m.error()));
    states.emplace_back();
    pos.do_move(*m, states.back());
  }
};

inline std::vector<std::string> legal_usi(const Position& pos) {
  std::vector<std::string> out;
  for (const ExtMove& m : MoveList<LEGAL>(pos)) out.push_back(to_usi(m.move));
  std::sort(out.begin(), out.end());
  return out;
}

inline bool has_legal(const Position& pos, std::string_view usi) {
  auto v = legal_usi(pos);
  return std::find(v.begin(), v.end(), std::string(usi)) != v.end();
}

// Small deterministic generator for random playouts.
struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed * 0x9e3779b97f4a7c15ULL + 1) {}
  uint64_t next() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  }
  size_t below(size_t n) { return size_t(next() % n); }
};

}  // namespace shogi::test
