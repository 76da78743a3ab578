#pragma once
// The `slurm` and `coordinate` commands.
//
//   shogi-arena slurm --config X --shards N [--cpus-per-shard C] [--time T] [--partition P] [--sbatch-arg A]...
//                     [--grace S] [--dry-run] [any option of `run`]
//       writes OUT/slurm/{shards,coordinator,merge}.sbatch, submits them, and follows the run with the live
//       status and the final summary of a local run. Ctrl-C detaches.
//   shogi-arena slurm --attach OUT      follow a submitted run again
//   shogi-arena slurm --cancel OUT      cancel its jobs
//   shogi-arena coordinate OUT --array-job ID [--grace S] [--poll S]     (run by coordinator.sbatch)
//
// Exit codes as a local run: 0 done (SPRT: H1), 1 SPRT H0, 2 error, detached or inconclusive.

#include <atomic>
#include <string>
#include <vector>

#include "config/cli_config.h"

namespace CLI {
class App;
}

namespace arena::cluster {

class SlurmCli {
 public:
  // Registers the slurm-only options; the tournament's options are `tournament` (registered by the caller).
  void add_to(CLI::App& app);
  // `args`: the command line after "slurm", forwarded to every shard's `run` minus the options that are the
  // slurm command's own or that each shard sets itself (--out, --shard, --resume, ...).
  int run(const config::CliOptions& tournament, const std::vector<std::string>& args,
          const std::atomic<bool>* stop) const;

  // The arguments a shard's `run` gets from the slurm command line `args`.
  static std::vector<std::string> forwarded_args(const std::vector<std::string>& args);

 private:
  int shards_ = 0, cpus_per_shard_ = 1, grace_s_ = 60, poll_s_ = 5;
  std::string time_, partition_, attach_, cancel_;
  std::vector<std::string> sbatch_args_;
  bool dry_run_ = false;
};

class CoordinateCli {
 public:
  void add_to(CLI::App& app);
  int run(const std::atomic<bool>* stop) const;

 private:
  std::string out_, array_job_;
  int grace_s_ = 60, poll_s_ = 5;
};

}  // namespace arena::cluster
