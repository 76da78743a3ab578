// Fuzzes the CSA protocol text parsers: single server lines and whole Game_Summary blocks (network input).
#include <cstddef>
#include <cstdint>
#include <string>

#include "csa/protocol/message.h"
#include "csa/protocol/game_summary.h"
#include "rules/position.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  shogi::Position::init();
  std::string text(reinterpret_cast<const char*>(data), size);
  // Every line on its own.
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    (void)arena::csa::parse_server_line(std::string_view(text).substr(start, end - start));
    start = end + 1;
  }
  // The whole input as a Game_Summary block; an accepted summary must describe a valid position.
  auto summary = arena::csa::parse_game_summary(text);
  if (summary) {
    shogi::Position pos;
    shogi::StateInfo si;
    if (!pos.set(summary->start_sfen, &si)) __builtin_trap();
  }
  return 0;
}
