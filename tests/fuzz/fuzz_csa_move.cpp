// Fuzzes CSA move parsing against a few fixed positions.
#include <cstddef>
#include <cstdint>

#include "fuzz_common.h"
#include "rules/notation.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  shogi::Position::init();
  std::string text(reinterpret_cast<const char*>(data), size);
  static const char* positions[] = {
      "startpos",
      "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
      "8k/9/6NG1/9/9/9/9/9/4K4 b P 1",
  };
  for (const char* sfen : positions) {
    shogi::Position pos;
    shogi::StateInfo si;
    pos.set(sfen, &si);
    auto m = shogi::parse_csa_move(pos, text);
    if (!m) {
      fuzz::require(!m.error().empty(), "an error has a message", text);
      continue;
    }
    fuzz::require(pos.pseudo_legal(*m) && pos.legal(*m), "a parsed move is legal", text);
    fuzz::require(shogi::to_csa(*m) == text, "a parsed move prints back the same", text);
  }
  return 0;
}
