#include "search/tune.h"

#include <array>

#include "search/search.h"

namespace shogi::tune {

namespace {

#define SHOGI_TUNABLE_ENTRY(name, def, min, max, c_end) Tunable{#name, def, min, max, c_end},
constexpr std::array TABLE{SHOGI_TUNABLES(SHOGI_TUNABLE_ENTRY)};
#undef SHOGI_TUNABLE_ENTRY

}  // namespace

std::span<const Tunable> tunables() { return TABLE; }

#ifdef SHOGI_TUNE
// Each entry's variable, in the table's order.
#define SHOGI_TUNABLE_ADDRESS(name, def, min, max, c_end) &name,
constexpr std::array<int*, TABLE.size()> VARIABLES{SHOGI_TUNABLES(SHOGI_TUNABLE_ADDRESS)};
#undef SHOGI_TUNABLE_ADDRESS
#endif

bool set([[maybe_unused]] const std::string& name, [[maybe_unused]] int value) {
#ifdef SHOGI_TUNE
  for (size_t i = 0; i < TABLE.size(); ++i) {
    if (name != TABLE[i].name) continue;
    *VARIABLES[i] = value;
    init_search_tables();
    return true;
  }
#endif
  return false;
}

std::string params_lines() {
  std::string out;
  for (const Tunable& t : TABLE)
    out += std::string(t.name) + ",int," + std::to_string(t.default_value) + "," + std::to_string(t.min) + "," +
           std::to_string(t.max) + "," + std::to_string(t.c_end) + ",0.0020\n";
  return out;
}

}  // namespace shogi::tune
