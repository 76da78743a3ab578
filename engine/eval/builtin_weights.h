#pragma once
// The learned evaluation built into the engine: engine/eval/default.kpev, embedded in the binary at build time
// (cmake/embed_file.cmake), so that the engine plays with it with no file beside it. It is the process's evaluation
// from the start of shogi-arena-engine (main.cpp); `setoption name EvalFile` replaces it, and the value `none` gives
// the hand-written evaluation alone. A new file is committed only when it has won an SPRT against the one before
// (README, The engine); the bench signature changes with it.

#include <memory>

#include "eval/kp.h"

namespace shogi::kp {

// The embedded weights, read once. A committed file that does not load is a build error in spirit: the engine
// test checks it, and here it aborts with the reason rather than play with something else.
std::shared_ptr<const Weights> builtin_weights();

}  // namespace shogi::kp
