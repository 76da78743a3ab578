#pragma once
// An engine's bench: a fixed search whose node count is the build's signature (fishtest and OpenBench check it
// before a test) and whose speed measures the machine (for --scale-tc).
//
// How it is run: by default `ENGINE [args] bench` with no input, as Stockfish, YaneuraOu and this project's engine
// take it; when that prints no node count, the USI command `bench` on standard input. `bench_cmd="ARGS"` runs
// `ENGINE [args] ARGS` instead, `bench_cmd="usi:LINE"` sends LINE. The count is read from the last
// "Nodes searched: N" line (any case, any spacing; a line "nodes N" / "Nodes: N" too), the speed from
// "Nodes/second: N" or "nps N", else nodes over the wall time.

#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>

#include "game/game.h"

namespace arena::provision {

struct BenchResult {
  int64_t nodes = 0;
  double nps = 0;
  double seconds = 0;  // wall time of the bench process
};

// The node count and speed printed by a bench, or nullopt without a count.
std::optional<BenchResult> parse_bench_output(std::string_view output);

// Runs the engine's bench in its working directory. The error is one line naming how it was run and what it said.
std::expected<BenchResult, std::string> run_bench(const game::EngineConfig& engine, const std::string& bench_cmd);

}  // namespace arena::provision
