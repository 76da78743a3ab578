#pragma once
// The command line of `shogi-arena check`:
//
//   shogi-arena check --engine cmd=/usr/games/gpsusi [name=gps] [option.X=Y ...] [--quick] [--json]
//
// The engine is written as in the tournament commands, with the same keys (config/engine_keys.h), so that the
// keys one already uses are checked as they are and the recommended line can be pasted back. CLI11 stays in cli.cpp.

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace arena::check {

class CheckCli {
 public:
  void add_to(CLI::App& app);
  // Runs the checks; the exit code of the command (0 reliable with the keys, 1 not, 2 bad arguments).
  int run(const std::atomic<bool>* interrupt) const;

 private:
  std::vector<std::string> engine_;
  bool quick_ = false;
  bool json_ = false;
  bool no_time_profiles_ = false;
  std::int64_t margin_ms_ = -1;
  std::string io_log_;
};

}  // namespace arena::check
