#pragma once
// The tournament commands: play, gauntlet, roundrobin, sprt, spsa (spsa_run.h), and run (whatever `tournament:` in
// --config says).
// A run plays its schedule with the console's status (and the live page with --web), then prints its summary.
//
// Exit codes: 0 done (SPRT: H1 accepted); 1 SPRT H0 accepted; 2 an error, an interrupted run or an inconclusive SPRT.

#include <atomic>
#include <optional>

#include "config/cli_config.h"
#include "journal/shard.h"
#include "provision/findings.h"
#include "run/engines.h"

namespace CLI {
class App;
}

namespace arena::commands {

// The runner's own CPU time and peak memory so far (engines excluded), for a run's summary; -1 when unknown.
struct OwnUsage {
  double user_s = -1, sys_s = -1;
  int64_t max_rss_kb = -1;
};
OwnUsage own_usage();

// The shard of a run spread over a cluster that `config.shard` names (nullopt: the whole run). Throws ConfigError.
std::optional<journal::Shard> shard_of(const config::Config& config);

// The engines a run of `config` plays with: `engines` as USI processes, or as CSA clients through the built-in CSA
// server (--via-csa-server). `stop` cuts an engine's start short. Throws ConfigError.
run::EngineFactory engines_of(const config::Config& config, std::vector<game::EngineConfig> engines,
                              const std::optional<journal::Shard>& shard, const std::atomic<bool>* stop);

// A tournament of `config` (not an SPSA run): the console's status, the live page with `config.web`, the summary.
// `findings`: what provisioning found of its engines, for the journal header and the summary.
int run_tournament(const config::Config& config, const provision::Findings& findings, const std::atomic<bool>* stop);

class RunCli {
 public:
  // `type`: the subcommand's tournament type; nullopt for `run`.
  void add_to(CLI::App& app, std::optional<config::TournamentType> type);
  // Errors before the first game (a bad configuration, an output folder in the way) throw config::ConfigError.
  int run(const std::atomic<bool>* stop) const;

 private:
  config::CliOptions options_;
};

}  // namespace arena::commands
