#pragma once
// Slurm, as the runner uses it: the batch scripts of a sharded run, and the few commands that submit, watch,
// cancel and requeue them (sbatch, scontrol, scancel), run as programs with a deadline. Nothing here decides
// anything about the games: see coordinator.h.
//
// A run OUT has three jobs, their scripts in OUT/slurm/:
//   shards.sbatch       the job array, one task per shard: `shogi-arena run ... --shard auto --resume`
//   coordinator.sbatch  watches the segments, decides an SPRT on the complete prefix, stops the array, requeues
//                       failed shards: `shogi-arena coordinate OUT --array-job ID`
//   merge.sbatch        after the array (afterany): `shogi-arena merge OUT --json`
// and OUT/slurm/jobs.txt records their ids for --attach and --cancel.

#include <expected>
#include <optional>
#include <string>
#include <vector>

namespace arena::cluster {

struct SlurmSettings {
  int shards = 1;
  int cpus_per_shard = 1;
  std::string time;                      // --time, e.g. "2:00:00"; empty: the partition's default
  std::string partition;                 // empty: the default partition
  std::vector<std::string> sbatch_args;  // passed to every sbatch as they are (e.g. "--account=x")
  std::string job_name = "shogi-arena";
  int grace_s = 60;  // the coordinator's: after STOP, before running shards are cancelled
  int poll_s = 5;    // the coordinator's: between looks
};

struct BatchScripts {
  std::string shards, coordinator, merge;
};
// The scripts' text. `arena` is this program's absolute path, `run_args` the arguments of the `run` command every
// shard executes (without --shard, --resume and --out, which are added), `workdir` where relative paths in them
// were meant (the scripts cd there). The coordinator's script takes the array's job id as its first argument.
BatchScripts batch_scripts(const SlurmSettings& settings, const std::string& arena,
                           const std::vector<std::string>& run_args, const std::string& out_dir,
                           const std::string& workdir);

// `text` quoted for a POSIX shell when it needs it.
std::string shell_quote(const std::string& text);

// One task of an array, from `scontrol -o show job`. Pending tasks that Slurm keeps as one record ("4-7") are
// expanded, one TaskState each; a record whose ArrayTaskId is not a list (NO_VAL after `scancel --state=PENDING`)
// is kept with task -1.
struct TaskState {
  int task = -1;          // ArrayTaskId
  std::string job_id;     // "123_4" (what scontrol requeue and scancel take)
  std::string state;      // JobState: PENDING, RUNNING, COMPLETED, FAILED, CANCELLED, TIMEOUT, NODE_FAIL, ...
  std::string exit_code;  // "0:0" (code:signal)
  int restarts = 0;
  bool finished() const;  // in a terminal state (COMPLETED, CANCELLED, FAILED, TIMEOUT, ...)
  bool failed() const;    // ended without completing and without being cancelled: worth a requeue
};
// Parses `scontrol -o show job` output (one job per line, Key=Value fields).
std::vector<TaskState> parse_scontrol_jobs(const std::string& text);
// "3", "0-7", "1,3-5", "0-15%4" (the % limit ignored) -> the task ids.
std::vector<int> parse_task_ranges(const std::string& text);

// The commands, each with a deadline; errors are one line naming the command.
std::expected<std::string, std::string> sbatch(const std::string& script, const std::vector<std::string>& options,
                                               const std::vector<std::string>& script_args = {});
// The tasks of an array job, or of a single job (one TaskState with task -1). A job Slurm no longer knows
// (finished more than MinJobAge ago) gives an empty list.
std::expected<std::vector<TaskState>, std::string> job_tasks(const std::string& job_id);
std::expected<void, std::string> scancel(const std::string& job_id, bool pending_only = false);
std::expected<void, std::string> requeue(const std::string& job_id);
// Releases a job submitted with --hold.
std::expected<void, std::string> release(const std::string& job_id);

}  // namespace arena::cluster
