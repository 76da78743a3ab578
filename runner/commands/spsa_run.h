#pragma once
// `shogi-arena spsa` (and `run --config` of a file with `tournament: spsa`): an SPSA run of one engine (spsa/run.h)
// with the console's status and, with --web, the live page; at the end the tuned values (console, JSON, and
// OUT/tuned.params), then, with --then-sprt, an SPRT of the tuned values against the start values in OUT/then-sprt.
//
// Exit codes: 0 the run completed (with --then-sprt: H1 accepted, the tune is better); 1 --then-sprt accepted H0;
// 2 an error, an interrupted run or an inconclusive SPRT.

#include <atomic>

#include "config/config.h"
#include "provision/findings.h"

namespace arena::commands {

// `findings`: what provisioning found of the engine (commands/run_cli.h RunCli::run), for the journal header.
int run_spsa(const config::Config& config, const provision::Findings& findings, const std::atomic<bool>* stop);

// The SPRT that confirms a tune: the engine with the tuned values ("<name>-tuned") against itself with the start
// values ("<name>-start"), with the run's game settings, openings and concurrency, in OUT/then-sprt.
config::Config then_sprt_config(const config::Config& spsa,
                                const std::vector<std::pair<std::string, std::string>>& tuned,
                                const std::vector<std::pair<std::string, std::string>>& start);

}  // namespace arena::commands
