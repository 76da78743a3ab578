#pragma once
// `shogi-arena serve`: the CSA server (csa/server/cli.h has its options), with the live page of its games when
// --web is given (the server's hooks feed web::CsaServerWatch), or only the ratings of a folder of its records
// (--rate-only DIR). Exit codes: 0 after Ctrl-C, 1 when it cannot
// listen, 2 bad configuration (thrown as config::ConfigError).

#include <atomic>

#include "csa/server/cli.h"

namespace arena::commands {

class ServeCli {
 public:
  void add_to(CLI::App& app);
  int run(const std::atomic<bool>* stop) const;

 private:
  int rate_only(const csa::CsaServerConfig& config) const;
  csa::CsaServerCli server_;
};

}  // namespace arena::commands
