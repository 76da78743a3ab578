// Fuzzes the learned evaluation's files, which users pass around: training records (each 64-byte chunk must be
// refused with a reason or decode to a position the rules accept or refuse with a reason, and a record packed from
// an accepted position must decode to it again) and weights files (refused with a reason, or loaded and usable).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "eval/kp.h"
#include "fuzz_common.h"
#include "learn/training_record.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  shogi::Position::init();
  using shogi::learn::TrainingRecord;
  for (size_t at = 0; at + shogi::learn::RECORD_SIZE <= size; at += shogi::learn::RECORD_SIZE) {
    TrainingRecord r;
    std::memcpy(&r, data + at, sizeof r);
    auto sfen = shogi::learn::record_sfen(r);
    if (!sfen) {
      fuzz::require(!sfen.error().empty(), "a refused record has a reason", "");
      continue;
    }
    shogi::Position pos;
    shogi::StateInfo si;
    auto set = pos.set(*sfen, &si, shogi::PieceLimits::Relaxed);
    if (!set) {
      fuzz::require(!set.error().empty(), "a refused position has a reason", *sfen);
      continue;
    }
    TrainingRecord again;
    again.position = shogi::learn::pack_position(pos);
    again.ply = uint16_t(pos.game_ply());
    auto back = shogi::learn::record_sfen(again);
    fuzz::require(back && *back == pos.sfen(), "an accepted position packs and unpacks to itself", *sfen);
    // The evaluation of a position from a file must not read outside its tables.
    static const shogi::kp::Weights zero = [] {
      shogi::kp::Weights w;
      w.pairs.assign(shogi::kp::PAIR_FEATURES, 0);  // the pair terms read the kings' zones too
      // and the network a row of every feature, by king square (or the no-king rows)
      w.net.rows.assign(size_t(shogi::kp::NET_KINGS) * shogi::kp::FEATURES * shogi::kp::NET_WIDTH, 0);
      return w;
    }();
    (void)shogi::kp::evaluate(zero, pos);
  }
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  auto weights = shogi::kp::weights_from_bytes(bytes);
  fuzz::require(weights || !weights.error().empty(), "a refused weights file has a reason", "");
  return 0;
}
