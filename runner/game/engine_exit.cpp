#include "game/engine_exit.h"

#include <sys/wait.h>
#include <cstring>
#include <string>

namespace arena::game {

std::string describe_exit(process::EngineProcess& process) {
  if (!process.exited() && !process.poll_exit()) return "still running";
  int status = process.exit_status();
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    const char* name = ::sigdescr_np(sig);  // unlike strsignal, thread-safe
    return "killed by signal " + std::to_string(sig) + (name ? std::string(" (") + name + ")" : std::string());
  }
  if (WIFEXITED(status)) return "exit code " + std::to_string(WEXITSTATUS(status));
  return "status " + std::to_string(status);
}

}  // namespace arena::game
