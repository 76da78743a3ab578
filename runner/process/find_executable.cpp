#include "process/find_executable.h"

#include <unistd.h>

#include <cstdlib>
#include <string_view>

namespace arena::process {

namespace {

bool executable_file(const std::filesystem::path& p) {
  std::error_code ec;
  return std::filesystem::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

}  // namespace

std::optional<std::filesystem::path> find_executable(const std::string& command) {
  if (command.empty()) return std::nullopt;
  if (command.find('/') != std::string::npos) {
    if (executable_file(command)) return std::filesystem::path(command);
    return std::nullopt;
  }
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec && executable_file(self.parent_path() / command)) return self.parent_path() / command;
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  dirs += ":/usr/games";
  std::string_view rest = dirs;
  while (true) {
    const size_t colon = rest.find(':');
    const std::string_view dir = rest.substr(0, colon);
    if (!dir.empty()) {
      std::filesystem::path candidate = std::filesystem::path(dir) / command;
      if (executable_file(candidate)) return candidate;
    }
    if (colon == std::string_view::npos) break;
    rest.remove_prefix(colon + 1);
  }
  return std::nullopt;
}

std::string not_found_text(const std::string& command) {
  if (command.empty()) return "no command given";
  if (command.find('/') != std::string::npos) return "'" + command + "' is not an executable file";
  return "'" + command + "' was not found on PATH, in /usr/games or beside shogi-arena";
}

}  // namespace arena::process
