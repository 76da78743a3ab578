#pragma once
// How an engine process ended, in words for error messages and game details.

#include <string>

#include "process/engine_process.h"

namespace arena::game {

// "exit code 1", "killed by signal 11 (Segmentation fault)", or "still running" if it has not exited.
// Reaps the process if it has exited.
std::string describe_exit(process::EngineProcess& process);

}  // namespace arena::game
