#include "cluster/coordinator.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "journal/journal.h"
#include "journal/segments.h"
#include "tournament/tally.h"

namespace arena::cluster {

namespace fs = std::filesystem;

namespace {

// Written to a temporary name and renamed, so a shard never reads half of it (it only checks that it exists).
bool write_stop(const std::string& out_dir, const std::string& text) {
  const std::string path = stop_file(out_dir), temp = path + ".tmp";
  {
    std::ofstream out(temp, std::ios::trunc);
    out << text << '\n';
    if (!out.flush()) return false;
  }
  std::error_code ec;
  fs::rename(temp, path, ec);
  return !ec;
}

// The lines of pairs 0..pairs-1 as the merge reads them now, into OUT/sprt-decision.jsonl (segments.h).
std::expected<void, std::string> write_decision(const std::string& out_dir, int64_t pairs) {
  auto merged = journal::read_segments(out_dir, nullptr, true);
  if (!merged) return std::unexpected(merged.error());
  const std::string path = journal::decision_path(out_dir), temp = path + ".tmp";
  {
    auto w = journal::JournalWriter::create(temp, *merged->header);
    if (!w) return std::unexpected(w.error());
    w->set_sync_each_line(false);
    for (size_t i = 0; i < merged->games.size(); ++i)
      if (merged->games[i].pair < pairs)
        if (auto a = w->append(merged->lines[i]); !a) return std::unexpected(a.error());
    if (auto a = w->sync(); !a) return std::unexpected(a.error());
  }
  std::error_code ec;
  fs::rename(temp, path, ec);
  if (ec) return std::unexpected(path + ": cannot write it: " + ec.message());
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
  auto merged = journal::read_segments(out_dir, nullptr);
  if (!merged) return std::unexpected(merged.error());

  if (merged->header && merged->header->sprt) state.sprt = true;
  if (!state.verdict && merged->header && merged->header->sprt) {
    const journal::JournalHeader& h = *merged->header;
    tournament::Tally tally(h.engines, {tournament::Pairing{0, 1}}, h.games_per_pair);
    tally.decide_sprt(*h.sprt);
    for (const journal::JournalGame& g : merged->games) tally.add(g);
    if (tally.sprt_decided()) {
      const tournament::SprtStatus s = tournament::sprt_status(tally, *h.sprt);
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
  bool pending = false;
  for (const TaskState& t : *tasks) pending = pending || t.state == "PENDING";
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
  for (const TaskState& t : *tasks) {
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
      if (state.abandoned.insert(t.task).second)
        log("shard task " + t.job_id + " ended " + t.state + " (exit " + t.exit_code + ") after " + std::to_string(n) +
            " requeues: given up; its pairs are missing from the run");
    }
    if (!t.finished()) over = false;
  }
  state.array_over = over;
  return {};
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
    }
  }
  if (state.verdict)
    return *state.verdict == stats::SprtVerdict::AcceptH1 ? 0 : *state.verdict == stats::SprtVerdict::AcceptH0 ? 1 : 2;
  if (!state.abandoned.empty()) return 2;  // pairs are missing
  if (!state.sprt) return 0;
  return 2;  // every pair played and still undecided: inconclusive, as a local run
}

}  // namespace arena::cluster
