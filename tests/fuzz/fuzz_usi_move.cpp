// Fuzzes USI move parsing and `position ... moves ...` handling against a few fixed positions.
#include <cstddef>
#include <cstdint>

#include "fuzz_common.h"
#include "rules/game_end.h"
#include "rules/notation.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  shogi::Position::init();
  std::string text(reinterpret_cast<const char*>(data), size);
  static const char* positions[] = {
      "startpos",
      "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
      "8k/9/6NG1/9/9/9/9/9/4K4 b P 1",
      "4r3k/9/9/9/9/9/9/3G5/4K4 b G 1",
  };
  for (const char* sfen : positions) {
    shogi::Position pos;
    shogi::StateInfo si;
    pos.set(sfen, &si);
    auto m = shogi::parse_usi_move(pos, text);
    if (!m) {
      fuzz::require(!m.error().empty(), "an error has a message", text);
      continue;
    }
    fuzz::require(pos.pseudo_legal(*m) && pos.legal(*m), "a parsed move is legal", text);
    fuzz::require(shogi::to_usi(*m) == text, "a parsed move prints back the same", text);
    shogi::StateInfo st;
    pos.do_move(*m, st);
    fuzz::require(pos.validate().empty(), "position after the move validates", text);
  }
  shogi::GameRecord game;
  auto r = game.start(text);
  if (r) {
    shogi::Position& pos = const_cast<shogi::Position&>(game.position());
    fuzz::exercise(pos);
    (void)game.status(256);
  }
  return 0;
}
