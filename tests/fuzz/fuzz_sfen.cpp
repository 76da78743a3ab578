// Fuzzes SFEN parsing: any input must be rejected with a message or give a position that round-trips.
#include <cstddef>
#include <cstdint>

#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  shogi::Position::init();
  std::string text(reinterpret_cast<const char*>(data), size);
  for (shogi::PieceLimits limits : {shogi::PieceLimits::Strict, shogi::PieceLimits::Relaxed}) {
    shogi::Position pos;
    shogi::StateInfo si;
    auto r = pos.set(text, &si, limits);
    if (!r) {
      fuzz::require(!r.error().empty(), "an error has a message", text);
      continue;
    }
    std::string sfen = pos.sfen();
    shogi::Position again;
    shogi::StateInfo si2;
    fuzz::require(again.set(sfen, &si2, limits).has_value(), "written SFEN parses again", sfen);
    fuzz::require(again.sfen() == sfen && again.key() == pos.key(), "SFEN round trip", sfen);
    fuzz::exercise(pos);
  }
  return 0;
}
