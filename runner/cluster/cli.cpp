#include "cluster/cli.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <thread>

#include "cluster/coordinator.h"
#include "cluster/slurm.h"
#include "config/config.h"
#include "journal/segments.h"
#include "output/local_time.h"
#include "provision/provision.h"
#include "spsa/console.h"
#include "standings/journal_stats.h"
#include "standings/summary.h"
#include "tournament/console.h"
#include "web/journal_feed.h"
#include "web/live_page.h"

namespace arena::cluster {

namespace fs = std::filesystem;

namespace {

// OUT/slurm/jobs.txt: "array=ID", "coordinator=ID", "merge=ID", one per line.
struct Jobs {
  std::string array, coordinator, merge;
};

std::string jobs_file(const std::string& out) { return (fs::path(out) / "slurm" / "jobs.txt").string(); }

std::optional<Jobs> read_jobs(const std::string& out) {
  std::ifstream in(jobs_file(out));
  if (!in) return std::nullopt;
  Jobs j;
  std::string line;
  while (std::getline(in, line)) {
    const size_t eq = line.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = line.substr(0, eq), value = line.substr(eq + 1);
    (key == "array" ? j.array : key == "coordinator" ? j.coordinator : j.merge) = value;
  }
  if (j.array.empty() || j.merge.empty()) return std::nullopt;
  return j;
}

// Whether a job still has a task that may run. An error (the controller unreachable) is an error value: the
// caller decides how long to tolerate it.
std::expected<bool, std::string> job_active(const std::string& id) {
  if (id.empty()) return false;
  auto tasks = job_tasks(id);
  if (!tasks) return std::unexpected(tasks.error());
  for (const TaskState& t : *tasks)
    if (!t.finished()) return true;
  return false;
}

void write_file(const fs::path& path, const std::string& text, bool executable) {
  std::ofstream out(path, std::ios::trunc);
  out << text;
  if (!out.flush()) throw config::ConfigError(path.string() + ": cannot write it");
  out.close();
  if (executable) fs::permissions(path, fs::perms::owner_exec | fs::perms::group_exec, fs::perm_options::add);
}

std::string now_text() { return output::format_local_time(std::chrono::system_clock::now(), "%Y-%m-%d %H:%M:%S"); }

// "shards: 2 running, 1 pending, 1 done" from the array's tasks.
std::string shard_counts(const std::vector<TaskState>& tasks) {
  std::map<std::string, int> by_state;
  for (const TaskState& t : tasks) ++by_state[t.state];
  std::string out;
  for (const auto& [state, n] : by_state) out += (out.empty() ? "" : ", ") + std::to_string(n) + " " + state;
  return out.empty() ? "no shard task left in the queue" : out;
}

// The live page of a run on the cluster (slurm --web), fed from the shards' journal segments by the process that
// follows the run. Started before anything is submitted: a port in use is an error while nothing runs yet.
struct SlurmPage {
  std::unique_ptr<web::LivePage> page;
  std::unique_ptr<web::JournalFeed> feed;  // last: gone before the page whose state it feeds
};

std::optional<SlurmPage> start_live_page(const std::string& web, const std::string& out) {
  if (web.empty()) return std::nullopt;
  auto page = web::LivePage::start(web, "slurm: " + out);
  if (!page) throw config::ConfigError(page.error());
  SlurmPage slurm;
  slurm.page = std::move(*page);
  slurm.feed = std::make_unique<web::JournalFeed>(slurm.page->state(), out);
  return slurm;
}

// Follows a submitted run until its merge job is over. New lines of the coordinator's log are shown as they come,
// and the live page (when there is one) is fed meanwhile.
int follow(const std::string& out, const Jobs& jobs, const config::Config& c, std::optional<SlurmPage> page,
           const std::atomic<bool>* stop) {
  web::JournalFeed* feed = page ? page->feed.get() : nullptr;
  size_t feed_warnings = 0;
  auto last_note = std::chrono::steady_clock::now() - std::chrono::hours(1);
  auto feed_page = [&](bool final) {
    if (!feed) return;
    feed->poll();
    for (; feed_warnings < feed->warnings().size(); ++feed_warnings)
      std::cerr << "warning: " << feed->warnings()[feed_warnings] << std::endl;
    const auto now = std::chrono::steady_clock::now();
    if (final) {
      feed->set_note("the run is over: see " + (fs::path(out) / "journal.jsonl").string());
    } else if (now - last_note >= std::chrono::seconds(5)) {
      last_note = now;
      auto tasks = job_tasks(jobs.array);
      feed->set_note("Slurm shards: " + (tasks ? shard_counts(*tasks) : tasks.error()) +
                     " (the shards publish no boards: games appear as they are journaled)");
    }
  };
  std::FILE* status_out = c.json ? stderr : stdout;
  const bool terminal = isatty(fileno(status_out)) != 0;
  std::optional<tournament::ConsoleReporter> reporter;
  std::streamoff coordinator_seen = 0;
  auto last_status = std::chrono::steady_clock::now() - std::chrono::hours(1);
  int query_errors = 0;
  std::string last_shards;
  for (;;) {
    if (stop && stop->load()) {
      if (reporter) reporter->finish(standings::Tally({}, {}, 2));
      std::cerr << "Detached: the run goes on in Slurm. Follow it again with `shogi-arena slurm --attach " << out
                << "`, or cancel it with `shogi-arena slurm --cancel " << out << "`." << std::endl;
      return 2;
    }
    // The coordinator's news.
    if (std::ifstream log((fs::path(out) / "slurm" / "coordinator.out").string()); log) {
      log.seekg(coordinator_seen);
      std::string line;
      while (std::getline(log, line) && !log.eof()) {
        coordinator_seen = log.tellg();
        if (!c.quiet) std::fprintf(status_out, "%scoordinator: %s\n", terminal ? "\r\033[K" : "", line.c_str());
      }
    }
    auto active = job_active(jobs.merge);
    if (!active) {
      // The controller may be restarting: give it a while, then say what is wrong.
      if (++query_errors >= 120)
        throw config::ConfigError("cannot follow the run: " + active.error() + " (re-attach with --attach " + out +
                                  " once Slurm answers)");
      std::this_thread::sleep_for(std::chrono::milliseconds(1000));
      continue;
    }
    query_errors = 0;
    const bool merge_over = !*active;
    feed_page(merge_over);
    const auto now = std::chrono::steady_clock::now();
    if (!c.quiet && (merge_over || now - last_status >= std::chrono::seconds(terminal ? 1 : c.status_interval_s))) {
      last_status = now;
      auto merged = journal::read_segments(out, nullptr);
      auto tasks = job_tasks(jobs.array);
      const std::string shards = tasks ? shard_counts(*tasks) : tasks.error();
      if (merged && merged->header) {
        journal::JournalContents contents;
        contents.header = merged->header;
        contents.games = std::move(merged->games);
        standings::JournalStandings st = standings::standings_of(contents);
        if (!reporter) {
          tournament::ConsoleReporter::Options ro;
          ro.out = status_out;
          ro.terminal = terminal;
          ro.interval_s = 0;
          reporter.emplace(st.info, ro);
        }
        reporter->tick(st.tally);
        if (shards != last_shards && !terminal) std::fprintf(status_out, "  shards: %s\n", shards.c_str());
      } else if (shards != last_shards) {
        std::fprintf(status_out, "%s  waiting for the first games; shards: %s\n", now_text().c_str(), shards.c_str());
      }
      last_shards = shards;
      std::fflush(status_out);
    }
    if (merge_over) break;
    for (int i = 0; i < 10 && !(stop && stop->load()); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  if (reporter) reporter->finish(standings::Tally({}, {}, 2));
  const std::string journal = (fs::path(out) / "journal.jsonl").string();
  auto contents = journal::read_journal(journal);
  if (!contents || !contents->header || contents->header->merged_segments == 0)
    throw config::ConfigError("the merge job did not write " + journal + " (see " +
                              (fs::path(out) / "slurm" / "merge.out").string() + ")");
  standings::StatsRequest stats_request;
  stats_request.json = c.json;
  const int code = standings::print_journal_stats(*contents, journal, stats_request);
  if (contents->header->spsa) {
    // The tuned values, as a local SPSA run prints them.
    (c.json ? std::cerr : std::cout) << spsa::applied_text(*contents, c.engines.at(0)) << std::flush;
    return code == 0 && int64_t(contents->spsa_pairs.size()) == contents->header->spsa->schedule.iterations ? 0 : 2;
  }
  // A run with missing pairs is not done, whatever its games say (an SPRT that decided stopped early on purpose).
  standings::JournalStandings st = standings::standings_of(*contents);
  const bool decided = st.info.sprt && st.tally.sprt_decided();
  const int64_t pairs = contents->header->games / std::max(1, contents->header->games_per_pair);
  auto merged = journal::read_segments(out, nullptr);
  if (!decided && merged && merged->complete_pairs < pairs) {
    std::cerr << "shogi-arena: the run is incomplete: " << merged->complete_pairs << " of " << pairs
              << " pairs complete (see " << (fs::path(out) / "slurm" / "coordinator.out").string()
              << "); submit it again with the same command to play the rest" << std::endl;
    return 2;
  }
  return code;
}

}  // namespace

void SlurmCli::add_to(CLI::App& app) {
  app.footer(
      "Every option of `run` is forwarded to the shards. Paths must be on a filesystem every node sees.\n"
      "Examples:\n"
      "  shogi-arena slurm --config /shared/sprt.yaml --out /shared/sprt-1 --shards 40 --time 4:00:00\n"
      "  shogi-arena slurm --attach /shared/sprt-1\n"
      "  shogi-arena slurm --cancel /shared/sprt-1");
  app.add_option("--shards", shards_, "Number of shards: the job array's size")->type_name("N");
  app.add_option("--cpus-per-shard", cpus_per_shard_, "CPUs per shard task (its concurrency follows)")->type_name("C");
  app.add_option("--time", time_, "Time limit per shard task (sbatch --time)")->type_name("T");
  app.add_option("--partition", partition_, "Slurm partition")->type_name("P");
  app.add_option("--sbatch-arg", sbatch_args_, "An extra sbatch option for every job, e.g. --sbatch-arg=--account=x")
      ->type_name("ARG");
  app.add_option("--grace", grace_s_, "Seconds between an SPRT's STOP and the cancelling of running shards")
      ->type_name("S");
  app.add_option("--poll", poll_s_, "Seconds between the coordinator's looks at the run")->type_name("S");
  app.add_flag("--dry-run", dry_run_, "Write the batch scripts and show the sbatch commands; submit nothing");
  app.add_option("--attach", attach_, "Follow a run submitted earlier into OUT")->type_name("OUT");
  app.add_option("--cancel", cancel_, "Cancel the jobs of a run submitted into OUT")->type_name("OUT");
}

std::vector<std::string> SlurmCli::forwarded_args(const std::vector<std::string>& args) {
  // Options with a value, and switches, that are not forwarded.
  static const std::vector<std::string> with_value = {
      "--out",        "--journal", "--shard", "--shards", "--cpus-per-shard", "--time", "--partition",
      "--sbatch-arg", "--grace",   "--poll",  "--attach", "--cancel",         "--web"};
  static const std::vector<std::string> switches = {"--resume", "--overwrite", "--quiet",  "--no-quiet",
                                                    "--json",   "--no-json",   "--dry-run"};
  std::vector<std::string> out;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const std::string name = a.substr(0, a.find('='));
    if (std::find(with_value.begin(), with_value.end(), name) != with_value.end()) {
      if (name == a) ++i;  // "--out DIR": the value is the next word
      continue;
    }
    if (std::find(switches.begin(), switches.end(), name) != switches.end()) continue;
    out.push_back(a);
  }
  return out;
}

int SlurmCli::run(const config::CliOptions& tournament, const std::vector<std::string>& args,
                  const std::atomic<bool>* stop) const {
  if (!cancel_.empty()) {
    auto jobs = read_jobs(cancel_);
    if (!jobs) throw config::ConfigError(jobs_file(cancel_) + ": no submitted run there");
    int failures = 0;
    for (const std::string& id : {jobs->array, jobs->coordinator, jobs->merge})
      if (!id.empty())
        if (auto r = scancel(id); !r) std::cerr << "shogi-arena: " << r.error() << "\n", ++failures;
    std::cout << "Cancelled jobs " << jobs->array << " (shards), " << jobs->coordinator << " (coordinator), "
              << jobs->merge << " (merge) of " << cancel_ << "\n";
    return failures ? 2 : 0;
  }
  if (!attach_.empty()) {
    auto jobs = read_jobs(attach_);
    if (!jobs) throw config::ConfigError(jobs_file(attach_) + ": no submitted run there");
    config::Config c;
    return follow(attach_, *jobs, c,
                  start_live_page(tournament.web_option() == "off" ? "" : tournament.web_option(), attach_), stop);
  }

  config::Config c = tournament.build();
  if (shards_ < 1) throw config::ConfigError("--shards: the number of shards is required (1 or more)");
  if (cpus_per_shard_ < 1) throw config::ConfigError("--cpus-per-shard: must be 1 or more");
  if (c.type == config::TournamentType::Play) throw config::ConfigError("slurm: a single game has no shards");
  if (c.type == config::TournamentType::Spsa && c.spsa.then_sprt)
    throw config::ConfigError(
        "then_sprt: not on a cluster (the shards end with the SPSA); once it is over, submit the SPRT of the tuned "
        "values it prints against the start values as its own run (README: tuning on a cluster)");
  const std::string out = fs::absolute(c.output.dir).lexically_normal().string();
  if (auto old = read_jobs(out))
    for (const std::string& id : {old->array, old->coordinator, old->merge})
      if (auto active = job_active(id); !active || *active)
        throw config::ConfigError(out + ": a run submitted there is still in Slurm (job " + id +
                                  "); follow it with --attach " + out + ", cancel it with --cancel " + out +
                                  ", or use another --out");
  std::error_code ec;
  fs::create_directories(fs::path(out) / "slurm", ec);
  if (ec) throw config::ConfigError(out + "/slurm: cannot create it: " + ec.message());
  // A new submission resumes what the directory holds; an old STOP would stop it at once.
  fs::remove(stop_file(out), ec);

  // Each git engine is built once, here, into OUT (a filesystem every node sees) unless --build-cache says where;
  // the shards play exactly those binaries (--prebuilt), each checking its digest.
  std::vector<std::string> run_args = forwarded_args(args);
  if (c.prebuilt.empty() &&
      std::any_of(c.sources.begin(), c.sources.end(), [](const config::EngineSource& e) { return e.from_git(); })) {
    if (c.build_cache.empty()) c.build_cache = (fs::path(out) / "builds").string();
    auto built = provision::build_git_engines(c, std::cout);
    if (!built) throw config::ConfigError(built.error());
    const fs::path list = fs::path(out) / "slurm" / "prebuilt.tsv";
    write_file(list, provision::prebuilt_text(c, *built), false);
    run_args.insert(run_args.end(), {"--prebuilt", list.string()});
  }

  SlurmSettings s;
  s.shards = shards_;
  s.cpus_per_shard = cpus_per_shard_;
  s.time = time_;
  s.partition = partition_;
  s.sbatch_args = sbatch_args_;
  s.grace_s = grace_s_;
  s.poll_s = poll_s_;
  const std::string arena = fs::read_symlink("/proc/self/exe", ec).string();
  if (ec) throw config::ConfigError("cannot find this program's own path: " + ec.message());
  const BatchScripts scripts = batch_scripts(s, arena, run_args, out, fs::current_path().string());
  const fs::path dir = fs::path(out) / "slurm";
  write_file(dir / "shards.sbatch", scripts.shards, true);
  write_file(dir / "coordinator.sbatch", scripts.coordinator, true);
  write_file(dir / "merge.sbatch", scripts.merge, true);
  if (dry_run_) {
    std::cout << "Wrote " << (dir / "shards.sbatch").string() << ", coordinator.sbatch and merge.sbatch. Would run:\n"
              << "  sbatch --parsable --hold " << (dir / "shards.sbatch").string() << "          -> ARRAY\n"
              << "  sbatch --parsable " << (dir / "coordinator.sbatch").string() << " ARRAY     -> COORD\n"
              << "  sbatch --parsable --dependency=afterany:ARRAY:COORD " << (dir / "merge.sbatch").string() << "\n";
    return 0;
  }
  std::optional<SlurmPage> page = start_live_page(c.web, out);
  // The array is held until the coordinator is queued: on a busy cluster the coordinator must not wait behind it.
  auto array = sbatch((dir / "shards.sbatch").string(), {"--hold"});
  if (!array)
    throw config::ConfigError(array.error() + (array.error().find("no answer in time") != std::string::npos
                                                   ? " (a job may have been submitted all the same: check squeue)"
                                                   : ""));
  auto coordinator = sbatch((dir / "coordinator.sbatch").string(), {}, {*array});
  if (!coordinator) {
    (void)scancel(*array);
    throw config::ConfigError(coordinator.error() + " (the shards' job " + *array + " was cancelled)");
  }
  // After the coordinator too: it may still requeue a failed shard when the array looks over.
  auto merge = sbatch((dir / "merge.sbatch").string(), {"--dependency=afterany:" + *array + ":" + *coordinator});
  if (!merge) {
    (void)scancel(*array), (void)scancel(*coordinator);
    throw config::ConfigError(merge.error() + " (the other jobs were cancelled)");
  }
  write_file(dir / "jobs.txt", "array=" + *array + "\ncoordinator=" + *coordinator + "\nmerge=" + *merge + "\n", false);
  if (auto r = release(*array); !r)
    throw config::ConfigError(r.error() + " (the shards' job " + *array +
                              " is held: release it with scontrol release " + *array +
                              ", or cancel the run with --cancel " + out + ")");
  std::fprintf(c.json ? stderr : stdout, "Submitted: shards %s_[0-%d], coordinator %s, merge %s; output %s\n",
               array->c_str(), shards_ - 1, coordinator->c_str(), merge->c_str(), out.c_str());
  return follow(out, Jobs{*array, *coordinator, *merge}, c, std::move(page), stop);
}

void CoordinateCli::add_to(CLI::App& app) {
  app.add_option("out", out_, "The run's output directory")->required();
  app.add_option("--array-job", array_job_, "The shards' job array id")->required();
  app.add_option("--grace", grace_s_, "Seconds between STOP and the cancelling of running shards");
  app.add_option("--poll", poll_s_, "Seconds between looks");
}

int CoordinateCli::run(const std::atomic<bool>* stop) const {
  SlurmArray array(array_job_);
  CoordinatorOptions o;
  o.grace = std::chrono::seconds(grace_s_);
  o.poll = std::chrono::seconds(poll_s_);
  auto log = [](const std::string& line) { std::cout << now_text() << "  " << line << std::endl; };
  log("watching " + out_ + ", shards job " + array_job_);
  const int code = coordinate(out_, array, o, stop, log);
  log("the shards are over; exit " + std::to_string(code));
  return code;
}

}  // namespace arena::cluster
