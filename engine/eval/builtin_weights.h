#pragma once
// The learned evaluation built into the engine: engine/eval/default.kpev, embedded in the binary at build time
// (cmake/embed_file.cmake), so that the engine plays with it with no file beside it. Every search engine starts
// with it (search/engine.h); `setoption name EvalFile` replaces it for that engine, and the value `none` gives the
// hand-written evaluation alone. A new file is committed only when it has won an SPRT against the one before
// (README, The engine); the bench signature changes with it.

#include <expected>
#include <memory>
#include <string>

#include "eval/kp.h"

namespace shogi::kp {

// The embedded weights, read once. A committed file that does not load is a build error in spirit: the engine
// test checks it, and here it aborts with the reason rather than play with something else.
std::shared_ptr<const Weights> builtin_weights();

// The weights an EvalFile value names, the one rule for USI and gensfen: empty the built-in weights, `none` no
// weights (nullptr: the hand-written evaluation alone), anything else a weights file, or why it does not load.
std::expected<std::shared_ptr<const Weights>, std::string> weights_for_eval_file(const std::string& value);

}  // namespace shogi::kp
