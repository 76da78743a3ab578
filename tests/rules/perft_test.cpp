#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "rules/perft.h"
#include "rules/position.h"

using namespace shogi;

// Rows of ../shared/positions/perft.tsv up to SHOGI_ARENA_PERFT_MAX_NODES leaves (all rows when unset).
TEST_CASE("perft matches the published counts") {
  Position::init();
  std::string path = std::string(SHOGI_ARENA_SHARED_DIR) + "/positions/perft.tsv";
  std::ifstream in(path);
  if (!in) {
    MESSAGE("SKIPPED: ", path, " not found (../shared is absent)");
    return;
  }
  uint64_t max_nodes = UINT64_MAX;
  if (const char* env = std::getenv("SHOGI_ARENA_PERFT_MAX_NODES")) max_nodes = std::strtoull(env, nullptr, 10);
  std::string line;
  int checked = 0, skipped = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string sfen, depth, nodes, name;
    std::getline(fields, sfen, '\t');
    std::getline(fields, depth, '\t');
    std::getline(fields, nodes, '\t');
    std::getline(fields, name, '\t');
    uint64_t expected = std::strtoull(nodes.c_str(), nullptr, 10);
    if (expected > max_nodes) {
      ++skipped;
      continue;
    }
    Position pos;
    StateInfo si;
    auto r = pos.set(sfen, &si);
    if (!r) {
      // Composed positions with more pieces of a kind than a set has are refused by default; perft them relaxed.
      CHECK_MESSAGE(r.error().find("too many") != std::string::npos, name, ": ", r.error());
      REQUIRE(pos.set(sfen, &si, PieceLimits::Relaxed));
    }
    INFO(name, " depth ", depth);
    CHECK(perft(pos, std::atoi(depth.c_str())) == expected);
    ++checked;
  }
  MESSAGE("perft rows checked: ", checked, ", over the node budget: ", skipped);
  CHECK(checked > 10);
}
