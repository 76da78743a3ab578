#pragma once
// A helper program run to completion (sbatch, squeue, scancel, scontrol, git, an engine's build or bench): argv
// without a shell, stdout and stderr captured (or appended to a log), and a deadline after which it is killed.
// For engines playing games, see engine_process.h.

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

struct CommandOptions {
  std::chrono::milliseconds timeout = std::chrono::seconds(60);
  std::string working_dir;  // empty: the runner's
  std::string input;        // written to its standard input, which is then closed (empty: /dev/null)
  // Its stdout and stderr both appended to this file instead of captured (a build's log); empty: captured.
  std::string log_file;
};

// Runs argv[0] (found by find_executable) with the remaining arguments.
CommandResult run_command(const std::vector<std::string>& argv,
                          std::chrono::milliseconds timeout = std::chrono::seconds(60));
CommandResult run_command(const std::vector<std::string>& argv, const CommandOptions& options);

}  // namespace arena::process
