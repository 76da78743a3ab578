#pragma once
// How an engine process ended, in words for error messages and game details.

#include <cstdint>
#include <filesystem>
#include <string>

#include "process/engine_process.h"

namespace arena::game {

// "exit code 1", "killed by signal 11 (Segmentation fault)", or "still running" if it has not exited.
// Reaps the process if it has exited.
std::string describe_exit(process::EngineProcess& process);

// Where this run of an engine wrote its stderr: the log file (empty: none) from the offset it had at the start.
struct StderrTail {
  std::filesystem::path path;
  std::uintmax_t offset = 0;
};
// The same, with the last line the engine wrote to stderr since the offset, often its reason:
// "killed by signal 6 (Aborted); stderr: 'unknown option in go binc'".
std::string describe_exit(process::EngineProcess& process, const StderrTail& stderr_tail);
// That last non-blank line (cut at 160 characters), or empty.
std::string last_stderr_line(const StderrTail& stderr_tail);

}  // namespace arena::game
