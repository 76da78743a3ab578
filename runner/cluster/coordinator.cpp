#include "cluster/coordinator.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "journal/journal.h"
#include "journal/segments.h"
#include "output/atomic_file.h"
#include "standings/tally.h"

namespace arena::cluster {

namespace fs = std::filesystem;

namespace {

// Replaced whole, so a shard never reads half of it (it only checks that it exists).
bool write_stop(const std::string& out_dir, const std::string& text) {
  return output::write_file_atomically(stop_file(out_dir), text + "\n").has_value();
}

// The lines of pairs 0..pairs-1 as the merge reads them now, into OUT/sprt-decision.jsonl (segments.h).
std::expected<void, std::string> write_decision(const std::string& out_dir, int64_t pairs) {
  auto merged = journal::read_segments(out_dir, nullptr, true);
  if (!merged) return std::unexpected(merged.error());
  std::string text = journal::to_json(*merged->header) + "\n";
  for (size_t i = 0; i < merged->games.size(); ++i)
    if (merged->games[i].pair < pairs) text += merged->lines[i] + "\n";
  return output::write_file_atomically(journal::decision_path(out_dir), text);
}

// The header of the first segment there, if any (every segment of a run starts with the same).
std::optional<journal::JournalHeader> first_segment_header(const std::string& out_dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(journal::segments_dir(out_dir), ec))
    if (journal::is_segment_name(entry.path().filename().string())) files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  for (const std::string& f : files) {
    std::ifstream in(f, std::ios::binary);
    std::string line;
    if (std::getline(in, line) && in.good())
      if (auto h = journal::parse_journal_header(line)) return *h;
  }
  return std::nullopt;
}

// An SPSA run: the new pairs applied, theta published; STOP once every pair is applied.
std::expected<void, std::string> apply_spsa(const std::string& out_dir, CoordinatorState& state,
                                            const std::function<void(const std::string&)>& log) {
  if (!state.spsa) {
    const auto header = first_segment_header(out_dir);
    if (!header || !header->spsa) return {};  // no shard has started yet
    auto applier = spsa::Applier::open(out_dir, *header);
    if (!applier) return std::unexpected(applier.error());
    state.spsa = std::move(*applier);
    log("SPSA: theta published in " + spsa::theta_path(out_dir) + " (" + std::to_string(state.spsa->applied()) +
        " pairs applied before)");
  }
  std::vector<std::string> warnings;
  auto applied = state.spsa->poll(warnings);
  for (const std::string& w : warnings) log("warning: " + w);
  if (!applied) {
    state.spsa.reset();  // the next look rebuilds theta from the applied journal and reads the segments again
    return std::unexpected(applied.error());
  }
  if (state.spsa->complete() && !state.stop_written) {
    if (!write_stop(out_dir, "{\"spsa\":\"complete\"}"))
      return std::unexpected(stop_file(out_dir) + ": cannot write it");
    state.stop_written = std::chrono::steady_clock::now();
    log("SPSA: all " + std::to_string(state.spsa->pairs_total()) + " pairs applied; wrote " + stop_file(out_dir));
  }
  return {};
}

// After STOP: cancels the pending tasks at once and the running ones after the grace period. Requeues a failed task
// a few times; one given up stops an SPSA run (its pairs would be waited for). Sets state.array_over.
std::expected<void, std::string> follow_tasks(const std::string& out_dir, const std::vector<TaskState>& tasks,
                                              Scheduler& scheduler, const CoordinatorOptions& options,
                                              CoordinatorState& state,
                                              const std::function<void(const std::string&)>& log) {
  bool pending = false;
  for (const TaskState& t : tasks) pending = pending || t.state == "PENDING";
  if (state.stop_written && (!state.cancelled_pending || pending)) {
    // Again whenever a task is pending: Slurm may requeue one by itself (a node failure) after STOP.
    if (auto c = scheduler.cancel(true); !c && !state.cancelled_pending) log("warning: " + c.error());
    if (!state.cancelled_pending) log("cancelled the pending shards");
    state.cancelled_pending = true;
  }
  if (state.stop_written && !state.cancelled_running &&
      std::chrono::steady_clock::now() - *state.stop_written >= options.grace) {
    if (auto c = scheduler.cancel(false); !c) log("warning: " + c.error());
    state.cancelled_running = true;
    log("grace period over: cancelled the running shards");
  }

  bool over = true;
  for (const TaskState& t : tasks) {
    if (t.failed() && !state.stop_written) {
      int& n = state.requeues[t.task];
      if (t.restarts < n) {  // our last requeue has not shown yet
        over = false;
        continue;
      }
      if (n < options.max_requeues) {
        ++n;
        if (auto r = scheduler.requeue(t); r)
          log("shard task " + t.job_id + " ended " + t.state + " (exit " + t.exit_code + "): requeued (" +
              std::to_string(n) + " of " + std::to_string(options.max_requeues) + ")");
        else
          log("warning: " + r.error());
        over = false;
        continue;
      }
      if (state.abandoned.insert(t.task).second) {
        log("shard task " + t.job_id + " ended " + t.state + " (exit " + t.exit_code + ") after " + std::to_string(n) +
            " requeues: given up; its pairs are missing from the run");
        if (state.spsa && !state.stop_written && write_stop(out_dir, "{\"spsa\":\"a shard was given up\"}")) {
          state.stop_written = std::chrono::steady_clock::now();
          log("SPSA: wrote " + stop_file(out_dir) + " (the other shards would wait for its pairs)");
        }
      }
    }
    if (!t.finished()) over = false;
  }
  state.array_over = over;
  return {};
}

}  // namespace

std::string stop_file(const std::string& out_dir) { return (fs::path(out_dir) / "STOP").string(); }

std::expected<void, std::string> coordinate_once(const std::string& out_dir, Scheduler& scheduler,
                                                 const CoordinatorOptions& options, CoordinatorState& state,
                                                 const std::function<void(const std::string&)>& log) {
  // Tasks first: a task that ends between the two looks has its last games in the segments read after.
  auto tasks = scheduler.tasks();
  if (!tasks) return std::unexpected(tasks.error());
  if (auto spsa_run = first_segment_header(out_dir); spsa_run && spsa_run->spsa) {
    if (auto a = apply_spsa(out_dir, state, log); !a) return std::unexpected(a.error());
    return follow_tasks(out_dir, *tasks, scheduler, options, state, log);
  }
  auto merged = journal::read_segments(out_dir, nullptr);
  if (!merged) return std::unexpected(merged.error());

  if (merged->header && merged->header->sprt) state.sprt = true;
  if (!state.verdict && merged->header && merged->header->sprt) {
    const journal::JournalHeader& h = *merged->header;
    standings::Tally tally(h.engines, {run::Pairing{0, 1}}, h.games_per_pair);
    tally.decide_sprt(*h.sprt);
    for (const journal::JournalGame& g : merged->games) tally.add(g);
    if (tally.sprt_decided()) {
      const standings::SprtStatus s = standings::sprt_status(tally, *h.sprt);
      if (auto w = write_decision(out_dir, tally.prefix_pairs()); !w) return std::unexpected(w.error());
      state.verdict = s.verdict;
      state.decided_pairs = tally.prefix_pairs();
      state.llr = s.llr;
      char text[256];
      std::snprintf(text, sizeof text, "{\"verdict\":\"%s\",\"prefix_pairs\":%lld,\"llr\":%.4f}",
                    std::string(stats::to_string(s.verdict)).c_str(), static_cast<long long>(state.decided_pairs),
                    s.llr);
      if (!write_stop(out_dir, text)) return std::unexpected(stop_file(out_dir) + ": cannot write it");
      state.stop_written = std::chrono::steady_clock::now();
      log("SPRT decided on the first " + std::to_string(state.decided_pairs) +
          " pairs: " + std::string(stats::to_string(s.verdict)) + "; wrote " + stop_file(out_dir));
    }
  }
  return follow_tasks(out_dir, *tasks, scheduler, options, state, log);
}

int coordinate(const std::string& out_dir, Scheduler& scheduler, const CoordinatorOptions& options,
               const std::atomic<bool>* stop, const std::function<void(const std::string&)>& log) {
  CoordinatorState state;
  int errors_in_a_row = 0;
  for (;;) {
    if (auto r = coordinate_once(out_dir, scheduler, options, state, log); !r) {
      log("warning: " + r.error());
      // A segment of another run or an unreachable controller does not fix itself quickly; a few polls may.
      if (++errors_in_a_row >= 60) return 2;
    } else {
      errors_in_a_row = 0;
      if (state.array_over) break;
    }
    for (auto slept = std::chrono::milliseconds(0); slept < options.poll; slept += std::chrono::milliseconds(100)) {
      if (stop && stop->load()) return 2;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      // An SPSA run's shards wait for theta: its pairs are applied every 200 ms, more often than the tasks are
      // looked at.
      if (state.spsa && slept.count() % 200 == 100)
        if (auto a = apply_spsa(out_dir, state, log); !a) log("warning: " + a.error());
    }
  }
  if (state.verdict)
    return *state.verdict == stats::SprtVerdict::AcceptH1 ? 0 : *state.verdict == stats::SprtVerdict::AcceptH0 ? 1 : 2;
  if (!state.abandoned.empty()) return 2;  // pairs are missing
  if (state.spsa) return state.spsa->complete() ? 0 : 2;
  if (!state.sprt) return 0;
  return 2;  // every pair played and still undecided: inconclusive, as a local run
}

}  // namespace arena::cluster
