#pragma once
// One shard of a run spread over a cluster (a Slurm job array, a Kubernetes Indexed Job): shard I of N plays the
// pairs whose index is I modulo N, so a pair is never split between machines and every pair keeps the opening it
// has on one machine. Which shard a process is comes from the command line ("3/40") or from the scheduler's
// environment ("auto"). Pure: the environment is read through a function, so tests need no real variables.

#include <cstdint>
#include <expected>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace arena::journal {

struct Shard {
  int index = 0;  // I, 0-based
  int count = 1;  // N; 1 is the whole run

  bool owns_pair(int64_t pair) const { return pair % count == index; }
  bool whole_run() const { return count == 1; }
  std::string text() const;  // "I/N"
};

// The value of an environment variable, or nullopt when it is not set.
using EnvLookup = std::function<std::optional<std::string>(std::string_view name)>;
// The real environment (getenv).
std::optional<std::string> process_env(std::string_view name);

// "I/N" with 0 <= I < N; "auto" from a Slurm job array: I = SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN and
// N = SLURM_ARRAY_TASK_COUNT, refusing an array that is stepped or a list with gaps (its task ids would not be
// 0..N-1 after the shift); "auto/N" for a Kubernetes Indexed Job: I = JOB_COMPLETION_INDEX, N as given (or a Slurm
// array of exactly N tasks). The error is one line that names the variable or the text at fault.
std::expected<Shard, std::string> parse_shard(std::string_view text, const EnvLookup& env = process_env);

}  // namespace arena::journal
