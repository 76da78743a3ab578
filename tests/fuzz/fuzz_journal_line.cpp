// Fuzzes the reader of journal game lines (what --resume, stats and merge read back; a journal on a shared
// filesystem can be torn or edited): any line is refused with a reason or gives a game that the writer writes back
// to a line that reads to the same game.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_common.h"
#include "output/result_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  shogi::Position::init();
  const std::string line(reinterpret_cast<const char*>(data), size);
  auto game = arena::parse_result_json(line);
  if (!game) {
    fuzz::require(!game.error().empty(), "a refused line has a reason", line);
    return 0;
  }
  const std::string written = arena::to_result_json(*game);
  auto again = arena::parse_result_json(written);
  fuzz::require(again.has_value(), "a written line reads again", written);
  fuzz::require(arena::to_result_json(*again) == written, "write, read, write gives the same line", written);
  return 0;
}
