#include "eval/builtin_weights.h"

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace shogi::kp {

// Defined in the source generated from engine/eval/default.kpev.
extern const unsigned char builtin_weights_bytes[];
extern const std::size_t builtin_weights_bytes_size;

std::shared_ptr<const Weights> builtin_weights() {
  static const std::shared_ptr<const Weights> weights = [] {
    auto w = weights_from_bytes(
        std::string(reinterpret_cast<const char*>(builtin_weights_bytes), builtin_weights_bytes_size));
    if (!w) {
      std::fprintf(stderr, "shogi-arena-engine: the built-in weights do not load: %s\n", w.error().c_str());
      std::abort();
    }
    return *w;
  }();
  return weights;
}

std::expected<std::shared_ptr<const Weights>, std::string> weights_for_eval_file(const std::string& value) {
  if (value.empty()) return builtin_weights();
  if (value == "none") return nullptr;
  return load_weights(value);
}

}  // namespace shogi::kp
