#include "cluster/slurm.h"

#include <charconv>
#include <chrono>

#include "process/command.h"

namespace arena::cluster {

namespace {

using namespace std::chrono_literals;

// `with_time`: the shards' time limit. The coordinator and the merge job get none: the coordinator must outlive
// every wave of shards and every requeue, and a time limit would end it in the middle of the run.
std::string sbatch_header(const SlurmSettings& s, const std::string& name, const std::string& log,
                          const std::string& workdir, bool with_time) {
  std::string h = "#!/bin/bash\n";
  h += "#SBATCH --job-name=" + shell_quote(name) + "\n";
  h += "#SBATCH --output=" + shell_quote(log) + "\n";
  h += "#SBATCH --chdir=" + shell_quote(workdir) + "\n";
  h += "#SBATCH --open-mode=append\n";  // a requeued task would otherwise truncate its log
  if (with_time && !s.time.empty()) h += "#SBATCH --time=" + s.time + "\n";
  if (!s.partition.empty()) h += "#SBATCH --partition=" + s.partition + "\n";
  for (const std::string& a : s.sbatch_args) h += "#SBATCH " + a + "\n";
  return h;
}

std::string command_line(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) {
    if (!out.empty()) out += ' ';
    out += shell_quote(w);
  }
  return out;
}

std::optional<int> to_int(std::string_view text) {
  int v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

std::string field(const std::string& line, const std::string& key) {
  // Fields are " Key=Value" on one line; values have no spaces except in a few keys we do not read.
  const std::string needle = key + "=";
  size_t at = 0;
  while ((at = line.find(needle, at)) != std::string::npos) {
    if (at == 0 || line[at - 1] == ' ') {
      const size_t start = at + needle.size();
      const size_t end = line.find(' ', start);
      return line.substr(start, end == std::string::npos ? std::string::npos : end - start);
    }
    at += needle.size();
  }
  return {};
}

}  // namespace

std::string shell_quote(const std::string& text) {
  if (!text.empty() && text.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                              "_-./=:,+@%") == std::string::npos)
    return text;
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

BatchScripts batch_scripts(const SlurmSettings& s, const std::string& arena, const std::vector<std::string>& run_args,
                           const std::string& out_dir, const std::string& workdir) {
  const std::string dir = out_dir + "/slurm";
  BatchScripts b;
  std::vector<std::string> run = {arena, "run"};
  run.insert(run.end(), run_args.begin(), run_args.end());
  // The live page is the following process's (slurm --web): a shard never serves one, whatever --config says.
  for (const char* a : {"--shard", "auto", "--resume", "--quiet", "--web", "off", "--out"}) run.emplace_back(a);
  run.push_back(out_dir);
  b.shards = sbatch_header(s, s.job_name + "-shards", dir + "/shard-%a.out", workdir, true);
  b.shards += "#SBATCH --array=0-" + std::to_string(s.shards - 1) + "\n";
  b.shards += "#SBATCH --cpus-per-task=" + std::to_string(s.cpus_per_shard) + "\n";
  b.shards += "#SBATCH --ntasks=1\n";
  // A shard stopped by a time limit, a preemption or scancel gets SIGTERM: it finishes nothing more, exits, and
  // its unfinished pairs are played when the task runs again. exec: the signal reaches the runner itself.
  b.shards += "#SBATCH --requeue\n";
  b.shards += "# One shard of the run " + out_dir + " (shogi-arena slurm wrote this file).\n";
  b.shards += "exec " + command_line(run) + "\n";

  b.coordinator = sbatch_header(s, s.job_name + "-coordinator", dir + "/coordinator.out", workdir, false);
  b.coordinator += "#SBATCH --cpus-per-task=1\n#SBATCH --ntasks=1\n";
  b.coordinator +=
      "# Watches the shards of " + out_dir + ": the SPRT, the STOP file, requeues. $1: the array's job id.\n";
  b.coordinator += "exec " +
                   command_line({arena, "coordinate", out_dir, "--grace", std::to_string(s.grace_s), "--poll",
                                 std::to_string(s.poll_s), "--array-job"}) +
                   " \"$1\"\n";

  b.merge = sbatch_header(s, s.job_name + "-merge", dir + "/merge.out", workdir, false);
  b.merge += "#SBATCH --cpus-per-task=1\n#SBATCH --ntasks=1\n";
  b.merge += "# Merges the segments of " + out_dir + " once the array is over (submitted with afterany).\n";
  b.merge +=
      "exec " + command_line({arena, "merge", out_dir, "--json"}) + " >" + shell_quote(dir + "/summary.json") + "\n";
  return b;
}

bool TaskState::finished() const {
  // The terminal states; any other (PENDING, RUNNING, COMPLETING, REQUEUED, SUSPENDED, STOPPED, ...) may still run.
  return state == "COMPLETED" || state == "CANCELLED" || failed() || state == "REVOKED" || state == "SPECIAL_EXIT";
}

bool TaskState::failed() const {
  return state == "FAILED" || state == "TIMEOUT" || state == "NODE_FAIL" || state == "OUT_OF_MEMORY" ||
         state == "BOOT_FAIL" || state == "DEADLINE" || state == "PREEMPTED";
}

std::vector<int> parse_task_ranges(const std::string& text) {
  std::vector<int> out;
  if (text.find(':') != std::string::npos) return out;  // a stepped range ("0-15:2"): not ours to expand
  std::string list = text.substr(0, text.find('%'));
  size_t start = 0;
  while (start <= list.size()) {
    size_t comma = list.find(',', start);
    std::string part = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    size_t dash = part.find('-');
    std::optional<int> a = to_int(part.substr(0, dash)), b = a;
    if (dash != std::string::npos) b = to_int(part.substr(dash + 1));
    if (a && b && *a <= *b)
      for (int t = *a; t <= *b; ++t) out.push_back(t);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

std::vector<TaskState> parse_scontrol_jobs(const std::string& text) {
  std::vector<TaskState> out;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    std::string line = text.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
    start = nl == std::string::npos ? text.size() : nl + 1;
    if (line.find("JobId=") == std::string::npos) continue;
    TaskState t;
    t.state = field(line, "JobState");
    t.exit_code = field(line, "ExitCode");
    t.restarts = to_int(field(line, "Restarts")).value_or(0);
    const std::string array = field(line, "ArrayJobId"), task = field(line, "ArrayTaskId");
    if (array.empty() || task.empty()) {
      t.job_id = field(line, "JobId");
      out.push_back(t);
      continue;
    }
    const std::vector<int> ids = parse_task_ranges(task);
    if (ids.empty()) {
      // Not a task list: 4294967294 (NO_VAL), the one record Slurm keeps for the tasks `scancel --state=PENDING`
      // cancelled, or a form we do not know. Kept as a record of the array, so that its state still counts.
      t.job_id = field(line, "JobId");
      out.push_back(t);
      continue;
    }
    for (int id : ids) {
      TaskState one = t;
      one.task = id;
      one.job_id = array + "_" + std::to_string(id);
      out.push_back(one);
    }
  }
  return out;
}

std::expected<std::string, std::string> sbatch(const std::string& script, const std::vector<std::string>& options,
                                               const std::vector<std::string>& script_args) {
  std::vector<std::string> argv = {"sbatch", "--parsable"};
  argv.insert(argv.end(), options.begin(), options.end());
  argv.push_back(script);
  argv.insert(argv.end(), script_args.begin(), script_args.end());
  process::CommandResult r = process::run_command(argv, 60s);
  if (!r.ok()) return std::unexpected(r.describe("sbatch " + script));
  // "123" or "123;cluster".
  std::string id = r.out.substr(0, r.out.find_first_of(";\n"));
  if (id.empty() || !to_int(id)) return std::unexpected("sbatch " + script + ": unexpected answer '" + r.out + "'");
  return id;
}

std::expected<std::vector<TaskState>, std::string> job_tasks(const std::string& job_id) {
  process::CommandResult r = process::run_command({"scontrol", "-o", "show", "job", job_id}, 30s);
  if (r.started && !r.timed_out && r.exit_code != 0 && r.err.find("Invalid job id") != std::string::npos)
    return std::vector<TaskState>{};
  if (!r.ok()) return std::unexpected(r.describe("scontrol show job " + job_id));
  return parse_scontrol_jobs(r.out);
}

std::expected<void, std::string> scancel(const std::string& job_id, bool pending_only) {
  std::vector<std::string> argv = {"scancel"};
  if (pending_only) argv.push_back("--state=PENDING");
  argv.push_back(job_id);
  process::CommandResult r = process::run_command(argv, 30s);
  if (!r.ok()) return std::unexpected(r.describe("scancel " + job_id));
  return {};
}

std::expected<void, std::string> requeue(const std::string& job_id) {
  process::CommandResult r = process::run_command({"scontrol", "requeue", job_id}, 30s);
  if (!r.ok()) return std::unexpected(r.describe("scontrol requeue " + job_id));
  return {};
}

std::expected<void, std::string> release(const std::string& job_id) {
  process::CommandResult r = process::run_command({"scontrol", "release", job_id}, 30s);
  if (!r.ok()) return std::unexpected(r.describe("scontrol release " + job_id));
  return {};
}

}  // namespace arena::cluster
