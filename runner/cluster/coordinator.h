#pragma once
// The coordinator of a sharded run: one small process (a Slurm job of its own) that watches the shards' journal
// segments and the array's tasks until the array is over.
// - An SPRT is decided on the longest complete prefix of pairs of the merged segments (tally.h), the same rule as
//   a local `sprt`, so both stop at the same pair on the same games. Then it writes OUT/STOP (shards start no
//   further pair), cancels the pending tasks at once and the running ones after a grace period.
// - A task that failed (a crash of the node, a time limit, kill -9 of its runner) is requeued, a few times at
//   most: its shard resumes from its segments, so nothing is lost.
// - An SPSA run's theta is owned here: each look (and every 200 ms between looks at the tasks) applies the pairs
//   the shards journaled and publishes theta (spsa/applier.h); when every pair is applied it writes OUT/STOP.
//   A shard given up after its requeues stops the run too (the others would wait for its pairs).
// The scheduler is an interface so that the logic is tested without Slurm; slurm.h provides the real one.

#include <atomic>
#include <chrono>
#include <expected>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cluster/slurm.h"
#include "spsa/applier.h"
#include "stats/sprt.h"

namespace arena::cluster {

class Scheduler {
 public:
  virtual ~Scheduler() = default;
  virtual std::expected<std::vector<TaskState>, std::string> tasks() = 0;  // the array's tasks
  virtual std::expected<void, std::string> cancel(bool pending_only) = 0;  // the whole array
  virtual std::expected<void, std::string> requeue(const TaskState& task) = 0;
};

// The real array, by job id.
class SlurmArray final : public Scheduler {
 public:
  explicit SlurmArray(std::string array_job) : job_(std::move(array_job)) {}
  std::expected<std::vector<TaskState>, std::string> tasks() override { return job_tasks(job_); }
  std::expected<void, std::string> cancel(bool pending_only) override { return scancel(job_, pending_only); }
  std::expected<void, std::string> requeue(const TaskState& t) override { return cluster::requeue(t.job_id); }

 private:
  std::string job_;
};

struct CoordinatorOptions {
  std::chrono::milliseconds poll{5000};    // between looks at the segments and the tasks
  std::chrono::milliseconds grace{60000};  // after STOP, before running tasks are cancelled
  int max_requeues = 3;                    // per task
};

// What one look at the run found; kept between looks.
struct CoordinatorState {
  bool sprt = false;                          // the run is an SPRT (from the segments' header)
  std::optional<stats::SprtVerdict> verdict;  // set once decided
  int64_t decided_pairs = 0;                  // the prefix it decided on
  double llr = 0;
  std::optional<std::chrono::steady_clock::time_point> stop_written;
  bool cancelled_pending = false, cancelled_running = false;
  std::map<int, int> requeues;  // per task
  std::set<int> abandoned;      // tasks that failed after their last requeue
  bool array_over = false;
  std::shared_ptr<spsa::Applier> spsa;  // an SPSA run's, once its first segment is there
};

// One look: reads the segments, decides, writes STOP, cancels and requeues as needed. `log` gets one line per
// action. Errors reading the segments are returned (the caller retries; a bad segment is the user's to fix).
std::expected<void, std::string> coordinate_once(const std::string& out_dir, Scheduler& scheduler,
                                                 const CoordinatorOptions& options, CoordinatorState& state,
                                                 const std::function<void(const std::string&)>& log);

// Looks until the array is over (or `stop` is set). Exit code: as a local run's (0 H1 or completed, 1 H0,
// 2 inconclusive, an error, or a shard given up after its requeues).
int coordinate(const std::string& out_dir, Scheduler& scheduler, const CoordinatorOptions& options,
               const std::atomic<bool>* stop, const std::function<void(const std::string&)>& log);

// OUT/STOP's path.
std::string stop_file(const std::string& out_dir);

}  // namespace arena::cluster
