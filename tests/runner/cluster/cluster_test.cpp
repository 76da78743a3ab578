// The Slurm layer without Slurm: batch scripts, parsing scontrol's answers, the arguments forwarded to shards, and
// the coordinator's decisions against a scripted scheduler and real segment files.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "cluster/cli.h"
#include "cluster/coordinator.h"
#include "cluster/slurm.h"
#include "journal/journal.h"
#include "journal/segments.h"
#include "support/temp_dir.h"

using namespace arena;
using namespace arena::cluster;
namespace fs = std::filesystem;
using test_support::TempDir;

namespace {

class FakeScheduler final : public Scheduler {
 public:
  std::vector<TaskState> states;
  std::vector<std::string> actions;
  std::expected<std::vector<TaskState>, std::string> tasks() override { return states; }
  std::expected<void, std::string> cancel(bool pending_only) override {
    actions.push_back(pending_only ? "cancel pending" : "cancel all");
    return {};
  }
  std::expected<void, std::string> requeue(const TaskState& t) override {
    actions.push_back("requeue " + t.job_id);
    return {};
  }
};

TaskState task(int id, const char* state) {
  TaskState t;
  t.task = id;
  t.job_id = "7_" + std::to_string(id);
  t.state = state;
  return t;
}

// A segment of an SPRT between a and b, with pairs [from, to) won by a in both games.
void sprt_segment(const fs::path& dir, int shard, int64_t from, int64_t to, int64_t step) {
  journal::JournalHeader h;
  h.type = "sprt";
  h.engines = {"a", "b"};
  h.games = 400;
  h.schedule = "0123456789abcdef";
  h.created = "2026-11-25T00:00:0" + std::to_string(shard) + "Z";
  h.sprt = stats::SprtConfig{0.05, 0.05, 0, 200, stats::EloModel::Logistic};
  h.shard = journal::Shard{shard, 2};
  auto w = journal::JournalWriter::create(
      (dir / "segments" / ("shard-" + std::to_string(shard) + "-of-2.x.jsonl")).string(), h, true);
  REQUIRE(w);
  for (int64_t p = from; p < to; p += step)
    for (int g = 0; g < 2; ++g) {
      const std::string black = g == 0 ? "a" : "b", white = g == 0 ? "b" : "a";
      REQUIRE(w->append("{\"game\":" + std::to_string(p * 2 + g) + ",\"pair\":" + std::to_string(p) +
                        ",\"game_in_pair\":" + std::to_string(g) + ",\"attempt\":0,\"opening\":0,\"replay\":false," +
                        "\"black\":\"" + black + "\",\"white\":\"" + white + "\",\"result\":\"" +
                        (g == 0 ? "black" : "white") + "\",\"termination\":\"resign\"}"));
    }
}

}  // namespace

TEST_CASE("task ranges and scontrol's records") {
  CHECK(parse_task_ranges("3") == std::vector<int>{3});
  CHECK(parse_task_ranges("0-3") == std::vector<int>{0, 1, 2, 3});
  CHECK(parse_task_ranges("1,3-5%2") == std::vector<int>{1, 3, 4, 5});
  CHECK(parse_task_ranges("x").empty());
  const std::string text =
      "JobId=8 ArrayJobId=5 ArrayTaskId=8-9 JobName=s JobState=PENDING Reason=Resources Restarts=0 ExitCode=0:0\n"
      "JobId=6 ArrayJobId=5 ArrayTaskId=1 JobName=s JobState=FAILED Reason=NonZeroExitCode Restarts=2 "
      "ExitCode=0:9\n"
      "JobId=5 ArrayJobId=5 ArrayTaskId=0 JobName=s JobState=RUNNING Restarts=0 ExitCode=0:0\n"
      "JobId=9 JobName=merge JobState=COMPLETED ExitCode=0:0\n";
  auto tasks = parse_scontrol_jobs(text);
  REQUIRE(tasks.size() == 5);
  CHECK(tasks[0].job_id == "5_8");
  CHECK(tasks[1].task == 9);
  CHECK(tasks[1].state == "PENDING");
  CHECK_FALSE(tasks[1].finished());
  CHECK(tasks[2].failed());
  CHECK(tasks[2].restarts == 2);
  CHECK(tasks[2].exit_code == "0:9");
  CHECK_FALSE(tasks[3].finished());
  CHECK(tasks[4].job_id == "9");
  CHECK(tasks[4].task == -1);
  CHECK(tasks[4].finished());
  CHECK_FALSE(tasks[4].failed());
  CHECK_FALSE(task(0, "CANCELLED").failed());
  CHECK(task(0, "TIMEOUT").failed());
  // States not known to be terminal may still run.
  CHECK_FALSE(task(0, "STOPPED").finished());
  CHECK_FALSE(task(0, "RESV_DEL_HOLD").finished());
  CHECK(task(0, "CANCELLED").finished());
  // After `scancel --state=PENDING` Slurm keeps one record with NO_VAL as its task id; a stepped range is not
  // expanded. Both are kept (task -1) so that their state still counts.
  auto odd = parse_scontrol_jobs(
      "JobId=12 ArrayJobId=10 ArrayTaskId=4294967294 JobState=CANCELLED ExitCode=0:0\n"
      "JobId=13 ArrayJobId=10 ArrayTaskId=0-15:2 JobState=PENDING ExitCode=0:0\n");
  REQUIRE(odd.size() == 2);
  CHECK(odd[0].task == -1);
  CHECK(odd[0].job_id == "12");
  CHECK(odd[0].finished());
  CHECK(odd[1].task == -1);
  CHECK_FALSE(odd[1].finished());
  CHECK(parse_task_ranges("0-15:2").empty());
}

TEST_CASE("batch scripts") {
  SlurmSettings s;
  s.shards = 40;
  s.cpus_per_shard = 2;
  s.time = "4:00:00";
  s.partition = "long";
  s.sbatch_args = {"--account=engines"};
  const BatchScripts b =
      batch_scripts(s, "/opt/arena/shogi-arena", {"--config", "/shared/my sprt.yaml"}, "/shared/out", "/home/u");
  CHECK(b.shards.starts_with("#!/bin/bash\n"));
  for (const char* line :
       {"#SBATCH --array=0-39\n", "#SBATCH --cpus-per-task=2\n", "#SBATCH --time=4:00:00\n",
        "#SBATCH --partition=long\n", "#SBATCH --account=engines\n", "#SBATCH --chdir=/home/u\n", "#SBATCH --requeue\n",
        "#SBATCH --open-mode=append\n", "#SBATCH --output=/shared/out/slurm/shard-%a.out\n",
        "exec /opt/arena/shogi-arena run --config '/shared/my sprt.yaml' --shard auto --resume "
        "--quiet --web off --out /shared/out\n"})
    CHECK_MESSAGE(b.shards.find(line) != std::string::npos, line);
  CHECK(
      b.coordinator.find("exec /opt/arena/shogi-arena coordinate /shared/out --grace 60 --poll 5 --array-job \"$1\"") !=
      std::string::npos);
  CHECK(b.coordinator.find("--array=") == std::string::npos);
  CHECK(b.merge.find("merge /shared/out --json >/shared/out/slurm/summary.json") != std::string::npos);
  CHECK(shell_quote("it's") == "'it'\\''s'");
  CHECK(shell_quote("") == "''");
}

TEST_CASE("the slurm command forwards the tournament's options, not its own or the shard's") {
  CHECK(SlurmCli::forwarded_args({"--config",
                                  "x.yaml",
                                  "--shards",
                                  "4",
                                  "--out",
                                  "o",
                                  "--rounds",
                                  "10",
                                  "--sbatch-arg=--account=a",
                                  "--sbatch-arg",
                                  "--qos=q",
                                  "--dry-run",
                                  "--resume",
                                  "--engine",
                                  "cmd=e",
                                  "name=n",
                                  "--out=p",
                                  "--json",
                                  "--time",
                                  "1:00",
                                  "--web",
                                  "8080",
                                  "--web=0"}) ==
        std::vector<std::string>{"--config", "x.yaml", "--rounds", "10", "--engine", "cmd=e", "name=n"});
}

TEST_CASE("the coordinator decides on the complete prefix, stops the array, requeues failures") {
  TempDir d("coord");
  fs::create_directories(d.path / "segments");
  FakeScheduler slurm;
  slurm.states = {task(0, "RUNNING"), task(1, "RUNNING")};
  CoordinatorOptions o;
  o.grace = std::chrono::milliseconds(0);
  CoordinatorState st;
  std::vector<std::string> log;
  auto logger = [&](const std::string& l) { log.push_back(l); };

  // Shard 0 has pairs 0, 2, 4, ... 20; shard 1 has nothing yet: the prefix is 1 pair, nothing decided.
  sprt_segment(d.path, 0, 0, 21, 2);
  REQUIRE(coordinate_once(d.path.string(), slurm, o, st, logger));
  CHECK(st.sprt);
  CHECK_FALSE(st.verdict);
  CHECK_FALSE(fs::exists(stop_file(d.path.string())));
  CHECK(slurm.actions.empty());

  // A failed task is requeued, a few times at most, and not again before Slurm shows the requeue (Restarts).
  slurm.states[1] = task(1, "FAILED");
  o.max_requeues = 2;
  REQUIRE(coordinate_once(d.path.string(), slurm, o, st, logger));
  REQUIRE(coordinate_once(d.path.string(), slurm, o, st, logger));  // still FAILED with Restarts=0: wait
  CHECK(slurm.actions == std::vector<std::string>{"requeue 7_1"});
  slurm.states[1].restarts = 1;  // it ran again and failed again
  REQUIRE(coordinate_once(d.path.string(), slurm, o, st, logger));
  slurm.states[1].restarts = 2;
  REQUIRE(coordinate_once(d.path.string(), slurm, o, st, logger));  // given up
  CHECK(slurm.actions == std::vector<std::string>{"requeue 7_1", "requeue 7_1"});
  CHECK(st.abandoned == std::set<int>{1});
  CHECK(log.back().find("given up") != std::string::npos);
  CHECK_FALSE(st.array_over);  // task 0 runs
  slurm.actions.clear();

  // Shard 1 fills in the odd pairs: the prefix grows and the test decides.
  slurm.states = {task(0, "RUNNING"), task(1, "RUNNING"), task(2, "PENDING")};
  sprt_segment(d.path, 1, 1, 21, 2);
  REQUIRE(coordinate_once(d.path.string(), slurm, o, st, logger));
  REQUIRE(st.verdict);
  CHECK(*st.verdict == stats::SprtVerdict::AcceptH1);
  CHECK(st.decided_pairs > 1);
  CHECK(st.decided_pairs < 21);
  std::ifstream stop(stop_file(d.path.string()));
  std::string text;
  std::getline(stop, text);
  CHECK(text.find("\"verdict\":\"H1\"") != std::string::npos);
  CHECK(text.find("\"prefix_pairs\":" + std::to_string(st.decided_pairs)) != std::string::npos);
  // Pending tasks at once; running ones after the grace (0 here). The decision's lines are kept.
  CHECK(slurm.actions == std::vector<std::string>{"cancel pending", "cancel all"});
  CHECK(fs::exists(journal::decision_path(d.path.string())));
  // A task that shows up pending again (Slurm requeued it) is cancelled again.
  slurm.actions.clear();
  REQUIRE(coordinate_once(d.path.string(), slurm, o, st, logger));
  CHECK(slurm.actions == std::vector<std::string>{"cancel pending"});
  slurm.actions.clear();
  // After STOP, a failed task is not requeued, and a cancelled array is over.
  slurm.states = {task(0, "CANCELLED"), task(1, "FAILED"), task(2, "CANCELLED")};
  REQUIRE(coordinate_once(d.path.string(), slurm, o, st, logger));
  CHECK(st.array_over);
  CHECK(slurm.actions.empty());
}
