#pragma once
// The command line of `shogi-arena csa` (an engine on a CSA server). It follows the tournament commands: a YAML file
// where one makes sense, flags over it, and the engine written as fastchess/cutechess users write it:
//
//   shogi-arena csa --config configs/csa-floodgate.yaml --user me --trip secret
//   shogi-arena csa --host 127.0.0.1 --user dev --game test-300-10F --engine cmd=fairy-stockfish option.Hash=64
//   shogi-arena csa --config configs/csa-local.yaml --set play.margin_ms=500   (any key of client/config.h)
//
// Values go through the same parsers and checks as the YAML file, so errors read the same: they name the key.
// CLI11 stays in cli.cpp.

#include <atomic>
#include <cstdint>
#include <deque>
#include <expected>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "csa/client/config.h"

namespace CLI {
class App;
}

namespace arena::csa {

// Engine tokens of the tournament syntax (config/engine_keys.h: the keys usable in the CSA client) applied to the
// client's engine. A time control is an error: on a server the server sets it.
std::expected<void, std::string> apply_engine_tokens(CsaClientConfig& config, const std::vector<std::string>& tokens);

class CsaClientCli {
 public:
  void add_to(CLI::App& app);
  // After parsing: the file (if any), then every flag in a fixed order, then --set in the order given; validated.
  std::expected<CsaClientConfig, std::string> build() const;

 private:
  struct Flag {
    const char* key;  // the dotted key of client/config.h the flag sets
    std::optional<std::string> value;
  };
  std::string config_file_;
  std::deque<Flag> flags_;  // a deque: CLI11 keeps pointers to the values
  std::vector<std::string> engine_;
  std::vector<std::string> sets_;
};

}  // namespace arena::csa
