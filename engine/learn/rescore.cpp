#include "learn/rescore.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <ostream>
#include <thread>
#include <vector>

#include "eval/builtin_weights.h"
#include "learn/fixed_search.h"
#include "learn/progress.h"
#include "learn/training_record.h"

namespace shogi::learn {

namespace {

// Records a thread searches between two writes: each batch is written whole, so a stop loses at most one.
constexpr size_t RECORDS_PER_THREAD_BATCH = 64;

struct SliceTally {
  uint64_t searched = 0, kept = 0, same_move = 0;
  double abs_change = 0;
};

// Relabels records[begin, end) in place with a fresh hash table (so a slice's labels depend on nothing before it).
// Stops early when `stop` is set; returns whether the slice was finished.
bool rescore_slice(FixedSearcher& searcher, std::vector<TrainingRecord>& records, size_t begin, size_t end,
                   int score_limit, const std::atomic<bool>& stop, SliceTally& tally) {
  searcher.engine().new_game();
  for (size_t i = begin; i < end; ++i) {
    if (stop.load(std::memory_order_relaxed)) return false;
    TrainingRecord& r = records[i];
    // The input was checked when it was read: every record decodes.
    (void)searcher.engine().set_position("sfen " + *record_sfen(r));
    const SearchAnswer answer = searcher.search();
    ++tally.searched;
    // A best move found in an iteration the node limit cut short has a bound for its score: a better label than
    // the shallow one it replaces.
    const Value value = answer.score != VALUE_NONE ? answer.score : answer.bound_score;
    if (value == VALUE_NONE || answer.best == MOVE_NONE || answer.best == MOVE_WIN || answer.best == MOVE_RESIGN) {
      ++tally.kept;
      continue;
    }
    const int score = std::clamp(int(value), -score_limit, score_limit);
    tally.abs_change += std::abs(score - int(r.score));
    const uint16_t move = to_move16(answer.best);
    if (move == r.move) ++tally.same_move;
    r.score = int16_t(score);
    r.move = move;
  }
  return true;
}

bool same_position(const TrainingRecord& a, const TrainingRecord& b) {
  return a.position == b.position && a.ply == b.ply && a.result == b.result;
}

}  // namespace

std::expected<RescoreSummary, std::string> run_rescore(const RescoreOptions& options, std::ostream& log,
                                                       const std::atomic<bool>& stop) {
  if (options.input.empty() || options.output.empty()) return std::unexpected("give an input and an output file");
  if (options.nodes == 0 && options.depth <= 0) return std::unexpected("give a node limit or a depth");
  if (options.threads < 1) return std::unexpected("threads must be at least 1");
  if (options.hash_mb < 1) return std::unexpected("hash must be at least 1 MB");
  if (options.score_limit < 1 || options.score_limit > 30000)
    return std::unexpected("score_limit must be 1..30000 centipawns (a record's score is 16 bits)");
  std::error_code ec;
  if (std::filesystem::exists(options.output, ec) && std::filesystem::equivalent(options.input, options.output, ec))
    return std::unexpected(options.output + ": the output must not be the input");

  auto weights = kp::weights_for_eval_file(options.eval_file);
  if (!weights) return std::unexpected(weights.error());
  auto input = read_record_file(options.input);
  if (!input) return std::unexpected(input.error());
  std::vector<TrainingRecord>& records = *input;

  RescoreSummary summary;
  summary.records = records.size();
  auto continued = inspect_record_file(options.output);
  if (!continued) return std::unexpected(continued.error());
  summary.done_before = continued->records;
  if (summary.done_before == 0 && continued->torn_bytes > 0)
    return std::unexpected(options.output + " holds " + std::to_string(continued->torn_bytes) +
                           " bytes, less than one record: not a relabelling to continue (remove it to start afresh)");
  if (summary.done_before > records.size())
    return std::unexpected(options.output + " holds " + std::to_string(summary.done_before) + " records, more than " +
                           options.input + "'s " + std::to_string(records.size()) +
                           ": it is not this input's relabelling");
  if (summary.done_before > 0) {
    // Continue only our own output: its first and last records must hold the input's positions at those places.
    const size_t last = summary.done_before - 1;
    if (!same_position(continued->first, records[0]) || !same_position(continued->last, records[last]))
      return std::unexpected(options.output + " is not a relabelling of " + options.input +
                             " (its positions differ): give another output");
  }
  // Only now, the output being ours, may a torn last record be cut off.
  if (auto cut = cut_torn_record(options.output, *continued); !cut) return std::unexpected(cut.error());
  summary.torn_bytes_dropped = continued->torn_bytes;
  if (summary.done_before == records.size()) return summary;

  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(options.output.c_str(), "ab"), &std::fclose);
  if (!file) return std::unexpected(options.output + ": cannot open for writing: " + std::strerror(errno));

  // Searchers are built here, on one thread: their constructors fill shared tables.
  std::vector<std::unique_ptr<FixedSearcher>> searchers;
  for (int t = 0; t < options.threads; ++t)
    searchers.push_back(std::make_unique<FixedSearcher>(*weights, options.nodes, options.depth, options.hash_mb));

  const auto start = std::chrono::steady_clock::now();
  auto last_progress = start;
  ProgressRate rate(summary.done_before, 0);
  const size_t threads = size_t(options.threads);
  const size_t batch = RECORDS_PER_THREAD_BATCH * threads;
  SliceTally total;
  for (size_t begin = summary.done_before; begin < records.size() && !stop.load();) {
    const size_t end = std::min(records.size(), begin + batch);
    const size_t per = (end - begin + threads - 1) / threads;
    std::vector<SliceTally> tallies(threads);
    std::vector<char> finished(threads, 0);
    std::vector<std::thread> workers;
    for (size_t t = 0; t < threads; ++t) {
      const size_t a = std::min(end, begin + t * per), b = std::min(end, a + per);
      workers.emplace_back([&, t, a, b] {
        finished[t] = rescore_slice(*searchers[t], records, a, b, options.score_limit, stop, tallies[t]);
      });
    }
    for (auto& w : workers) w.join();
    if (std::find(finished.begin(), finished.end(), 0) != finished.end()) break;  // stopped: the batch is dropped
    const size_t n = end - begin;
    if (std::fwrite(records.data() + begin, RECORD_SIZE, n, file.get()) != n || std::fflush(file.get()) != 0)
      return std::unexpected(options.output + ": cannot write: " + std::strerror(errno));
    for (const SliceTally& s : tallies) {
      total.searched += s.searched;
      total.kept += s.kept;
      total.same_move += s.same_move;
      total.abs_change += s.abs_change;
    }
    begin = end;

    const auto now = std::chrono::steady_clock::now();
    if (options.progress_seconds > 0 &&
        std::chrono::duration<double>(now - last_progress).count() >= options.progress_seconds) {
      last_progress = now;
      const double secs = std::chrono::duration<double>(now - start).count();
      log << "rescore: " << end << " of " << records.size() << " records, "
          << rate.line(end, records.size(), secs, "records") << std::endl;
    }
  }

  summary.searched = total.searched;
  summary.kept = total.kept;
  summary.same_move = total.same_move;
  const uint64_t relabelled = total.searched - total.kept;
  summary.mean_abs_change = relabelled ? total.abs_change / double(relabelled) : 0;
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  summary.interrupted = summary.done_before + summary.searched < records.size();
  return summary;
}

}  // namespace shogi::learn
