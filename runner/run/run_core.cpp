#include "run/run_core.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <thread>

#include "rules/game_end.h"

namespace arena::run {

namespace fs = std::filesystem;

namespace {

// An engine that cannot be started this many times in a row stops the run: it is not a crash any more.
constexpr int MAX_START_FAILURES = 3;

}  // namespace

const char* to_string(RunEnd end) {
  switch (end) {
    case RunEnd::Completed:
      return "completed";
    case RunEnd::SprtDecided:
      return "sprt-decided";
    case RunEnd::Stopped:
      return "stopped";
    case RunEnd::Interrupted:
      return "interrupted";
    case RunEnd::Error:
      return "error";
  }
  return "error";
}

RunCore::RunCore(Settings settings) : settings_(std::move(settings)) {
  stop_file_ = (fs::path(settings_.output_dir) / "STOP").string();
  ever_started_.assign(settings_.engines.size(), false);
  start_failures_.assign(settings_.engines.size(), 0);
}

bool RunCore::stopping() const {
  // A signal noticed here first: no new game starts; run() interrupts the running ones.
  return stop_ || (external_stop_ && external_stop_->load());
}

void RunCore::fatal(const std::string& error) {
  std::lock_guard lock(mutex_);
  fatal_locked(error);
}

void RunCore::fatal_locked(const std::string& error) {
  if (fatal_.empty()) fatal_ = error;
  stop_ = true;
}

void RunCore::decide_locked() {
  decided_ = true;
  stop_ = true;
}

bool RunCore::stop_file_seen() {
  if (!settings_.shard || stopped_by_file_) return stopped_by_file_;
  std::error_code ec;
  stopped_by_file_ = fs::exists(stop_file_, ec);
  return stopped_by_file_;
}

RunResult RunCore::run(JobSource& source, int workers, Observer& observer, const std::atomic<bool>* external_stop) {
  observer_ = &observer;
  external_stop_ = external_stop;
  workers = std::max(1, workers);
  if (std::string w = config::oversubscription_warning(workers, config::default_concurrency()); !w.empty())
    observer.warning(w);
  auto signalled = [&] { return external_stop && external_stop->load(); };
  std::vector<std::thread> threads;
  running_workers_ = workers;
  for (int i = 0; i < workers; ++i) threads.emplace_back([this, i, &source] { worker(i, source); });
  {
    std::unique_lock lock(mutex_);
    while (running_workers_ > 0) {
      cv_.wait_for(lock, std::chrono::milliseconds(100));
      if (signalled() && !stop_) interrupted_ = true, stop_ = true;
      source.tick();
    }
    // A worker that ended on the signal before this thread saw it.
    if (signalled() && !decided_ && fatal_.empty() && !stopped_by_file_) interrupted_ = true;
  }
  for (std::thread& t : threads) t.join();

  RunResult r;
  if (!fatal_.empty())
    r.end = RunEnd::Error, r.error = fatal_;
  else if (interrupted_)
    r.end = RunEnd::Interrupted;
  else if (decided_)
    r.end = RunEnd::SprtDecided;
  else if (stopped_by_file_)
    r.end = RunEnd::Stopped;
  else
    r.end = RunEnd::Completed;
  return r;
}

void RunCore::worker(int id, JobSource& source) {
  try {
    Worker worker(*this, id);
    for (;;) {
      std::optional<int64_t> job;
      {
        std::lock_guard lock(mutex_);
        if (stopping()) break;
        job = source.claim();
        // A shard looks for OUT/STOP only when it has a job to start: one with nothing left has completed.
        if (!job || stop_file_seen()) break;
      }
      source.play(*job, worker);
    }
  } catch (const std::exception& e) {
    fatal(std::string("runner error: ") + e.what());
  }
  std::lock_guard lock(mutex_);
  --running_workers_;
  cv_.notify_all();
}

Worker::Worker(RunCore& core, int id) : core_(core), id_(id), engines_(core.settings_.factory(id)) {}

Worker::~Worker() {
  for (int e : held_) engines_->release(e);
}

void Worker::say_notices() {
  // With the core's lock held: each line once a run.
  say_once(
      engines_->take_notices(), core_.said_, [&](const std::string& n) { core_.observer_->note(n); },
      [&](const std::string& w) { core_.observer_->warning(w); });
}

std::optional<Worker::Game> Worker::play(const ScheduledGame& s, int attempt, const std::string& start,
                                         const game::OptionList (*options)[2]) {
  const RunCore::Settings& settings = core_.settings_;
  // Keep at most the two engines of this game running in this worker.
  for (auto it = held_.begin(); it != held_.end();) {
    if (*it != s.black && *it != s.white) {
      engines_->release(*it);
      it = held_.erase(it);
    } else {
      ++it;
    }
  }
  Game result;
  for (int e : {s.black, s.white}) {
    auto ready = engines_->prepare(e);
    const game::OptionList* to_set = options ? &(*options)[e == s.black ? 0 : 1] : nullptr;
    if (ready && to_set && !to_set->empty()) ready = engines_->set_options(e, *to_set);
    if (std::find(held_.begin(), held_.end(), e) == held_.end()) held_.push_back(e);
    std::lock_guard lock(core_.mutex_);
    say_notices();
    if (ready) {
      core_.ever_started_[size_t(e)] = true;
      core_.start_failures_[size_t(e)] = 0;
      continue;
    }
    // A start cut short by the stop (Ctrl-C while an engine starts) is the interruption, not the engine's fault.
    if (core_.stopping()) return std::nullopt;
    // A bad configuration shows on the first start; after that, a failed restart is scored as a crash unless it
    // keeps failing.
    if (!core_.ever_started_[size_t(e)] || ++core_.start_failures_[size_t(e)] >= MAX_START_FAILURES) {
      core_.fatal_locked(settings.engines[size_t(e)].name + ": " + ready.error());
      return std::nullopt;
    }
    result.game = game::unstarted_game(settings.game, settings.engines[size_t(s.black)],
                                       settings.engines[size_t(s.white)], start,
                                       e == s.black ? shogi::BLACK : shogi::WHITE, ready.error());
    result.started = false;
    break;
  }
  if (result.started) {
    std::unique_ptr<game::GameWatcher> watcher = core_.observer_->watch_game(s, attempt);
    engines_->watch_with(watcher.get());
    try {
      result.game = engines_->play(s.black, s.white, start, &core_.stop_);
    } catch (const std::exception& e) {
      result.game = PlayedGame{};
      result.game.names[shogi::BLACK] = settings.engines[size_t(s.black)].name;
      result.game.names[shogi::WHITE] = settings.engines[size_t(s.white)].name;
      result.game.start_sfen = std::string(shogi::START_SFEN);
      result.game.result.termination = Termination::Interrupted;
      result.game.result.detail = std::string("runner error: ") + e.what();
      result.runner_error = result.game.result.detail;
    }
    engines_->watch_with(nullptr);
    std::lock_guard lock(core_.mutex_);
    say_notices();
  }
  const Termination t = result.game.result.termination;
  // A game the runner stopped is not journaled: a resumed run plays it again. Nor is one whose engine died of the
  // signal that stops the runner (a batch system's): it says nothing of the engine.
  if (t == Termination::Interrupted && core_.stopping()) return std::nullopt;
  if (t == Termination::Disconnect && signalled_soon(core_.external_stop_)) return std::nullopt;

  for (int e : {s.black, s.white}) {
    if (settings.restart == config::RestartPolicy::Always || !engines_->alive(e)) {
      engines_->release(e);
      held_.erase(std::remove(held_.begin(), held_.end(), e), held_.end());
    }
  }
  return result;
}

}  // namespace arena::run
