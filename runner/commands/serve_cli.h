#pragma once
// `shogi-arena serve`: the CSA server (csa/server/cli.h has its options), with the live page of its games when
// --web is given (the server's hooks feed web::CsaServerWatch). Exit codes: 0 after Ctrl-C, 1 when it cannot
// listen, 2 bad configuration (thrown as config::ConfigError).

#include <atomic>

#include "csa/server/cli.h"

namespace arena::commands {

class ServeCli {
 public:
  void add_to(CLI::App& app);
  int run(const std::atomic<bool>* stop) const;

 private:
  csa::CsaServerCli server_;
};

}  // namespace arena::commands
