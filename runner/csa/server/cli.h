#pragma once
// The command line of `shogi-arena serve` (this project's CSA server):
//
//   shogi-arena serve --listen 0.0.0.0:4081 --out csa-server --max-moves 256 [--web 8080]
//
// CLI11 stays in cli.cpp.

#include <cstdint>
#include <expected>
#include <string>
#include <utility>
#include <vector>

#include "csa/server/config.h"

namespace CLI {
class App;
}

namespace arena::csa {

class CsaServerCli {
 public:
  void add_to(CLI::App& app);
  std::expected<CsaServerConfig, std::string> build() const;
  // --web as given (checked by build()): the caller serves the live page of the server's games there.
  const std::string& web() const { return web_; }
  // --rate-only DIR: only recompute the ratings of DIR's records (with build()'s rating settings).
  const std::string& rate_only() const { return rate_only_; }

 private:
  std::expected<std::vector<league::FloodgateGroupConfig>, std::string> floodgate_groups() const;

  std::string listen_ = "127.0.0.1:4081";
  std::string event_ = "local";
  int max_moves_ = 256;
  int least_time_per_move_ = 0;
  int max_identifier_ = 32;
  int agree_timeout_s_ = 120;
  int max_connections_ = 1000;
  size_t max_line_length_ = 4096;
  std::string out_;
  std::string results_;
  std::string log_;
  bool log_traffic_ = false;
  std::string web_;
  std::string floodgate_;
  int floodgate_interval_s_ = 0;
  std::string floodgate_conf_dir_;
  std::string players_;
  double rating_half_life_ = 60;
  double rating_min_games_ = 15;
  std::string rate_only_;
};

}  // namespace arena::csa
