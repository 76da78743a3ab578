#pragma once
// Finding the program to run: the one PATH lookup of the runner (engines, sbatch and the like).

#include <filesystem>
#include <optional>
#include <string>

namespace arena::process {

// A command with a '/' is a path: itself, if it is an executable file. A bare name is looked up first in the folder
// of the running program (so `shogi-arena-engine` is the one built or installed beside shogi-arena, in a build tree
// or in /usr/bin alike), then as a shell would, in the directories of PATH ("/usr/local/bin:/usr/bin:/bin" when PATH
// is unset; empty entries are skipped, so the current directory is never searched by accident), then in
// /usr/games, where Debian installs engines and which root's PATH often lacks. Nullopt when there is none.
std::optional<std::filesystem::path> find_executable(const std::string& command);

// Why find_executable found nothing, for an error message: "'x' is not an executable file" or "'x' was not found
// on PATH, in /usr/games or beside shogi-arena".
std::string not_found_text(const std::string& command);

}  // namespace arena::process
