// The CSA client's game logic against scripted servers in memory (no sockets), with the scripted mock engine:
// every ending of csa-protocol.md §6, clocks, engine misbehaviour, pondering and Floodgate comments.
#include <doctest/doctest.h>

#include "client_fixture.h"

using namespace csa_test;

TEST_CASE("CSA client game scenarios, in memory") {
  auto scenarios = game_scenarios();
  for (auto& s : scenarios) {
    SUBCASE(s.name.c_str()) { run_scenario(s, false); }
  }
}
