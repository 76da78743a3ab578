#pragma once
// A short helper program run to completion (sbatch, squeue, scancel, scontrol): argv without a shell, stdout and
// stderr captured, and a deadline after which it is killed. For engines, see engine_process.h.

#include <chrono>
#include <string>
#include <vector>

namespace arena::process {

struct CommandResult {
  bool started = false;    // false: the program could not be run (`error` says why)
  bool timed_out = false;  // killed at the deadline
  int exit_code = -1;      // the exit status, or 128 + signal
  std::string out, err;
  std::string error;
  bool ok() const { return started && !timed_out && exit_code == 0; }
  // One line for an error message: "sbatch: exit 1: <first line of stderr>" and the like.
  std::string describe(const std::string& program) const;
};

// Runs argv[0] (found by find_executable) with the remaining arguments.
CommandResult run_command(const std::vector<std::string>& argv,
                          std::chrono::milliseconds timeout = std::chrono::seconds(60));

}  // namespace arena::process
