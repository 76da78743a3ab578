#include "game/engine_exit.h"

#include <sys/wait.h>

#include <algorithm>
#include <cstring>
#include <fstream>
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

std::string describe_exit(process::EngineProcess& process, const StderrTail& stderr_tail) {
  std::string text = describe_exit(process);
  if (std::string last = last_stderr_line(stderr_tail); !last.empty()) text += "; stderr: '" + last + "'";
  return text;
}

std::string last_stderr_line(const StderrTail& tail) {
  if (tail.path.empty()) return {};
  std::ifstream err(tail.path, std::ios::binary);
  if (!err) return {};
  // The last 64 KB are plenty for a last line, whatever an engine printed before it.
  err.seekg(0, std::ios::end);
  const std::streamoff end = err.tellg();
  const std::streamoff from = std::max<std::streamoff>(std::streamoff(tail.offset), end - (std::streamoff(1) << 16));
  if (end < 0 || from >= end) return {};
  err.seekg(from);
  std::string line, last;
  while (std::getline(err, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
  while (!last.empty() && (last.back() == '\r' || last.back() == ' ')) last.pop_back();
  if (last.size() > 160) last = last.substr(0, 160) + "...";
  return last;
}

}  // namespace arena::game
