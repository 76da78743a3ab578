#pragma once
// The core every kind of run shares (a tournament, an SPSA tune, and whatever schedules games next): a pool of
// worker threads, each holding its engines through the WorkerEngines seam (run/engines.h), that claim jobs from
// the run's kind until none is left or the run stops; the ways a run stops and the end it reports.
//
// A run stops when
//   - a signal raises the external stop: the running games are interrupted and not journaled (Interrupted; a
//     resumed run plays them again);
//   - the kind's test decides (an SPRT): decide_locked() interrupts the running games (SprtDecided);
//   - a shard finds OUT/STOP between jobs: the coordinator has decided, no further job starts (Stopped);
//   - a fatal error (an engine that cannot be started, a journal that cannot be written): Error.
// Otherwise it ends Completed when every job is claimed and played.
//
// Locking: one mutex per run, taken by the core around claim() and tick(), and by a kind around its own journal
// lines and standings (mutex()). Games are played without it.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "config/config.h"
#include "game/game.h"
#include "game/game_result.h"
#include "game/game_watch.h"
#include "journal/shard.h"
#include "run/engines.h"
#include "run/schedule.h"

namespace arena::run {

enum class RunEnd {
  Completed,    // every job is played (an SPRT that reached its maximum: inconclusive)
  SprtDecided,  // the SPRT accepted H0 or H1
  Stopped,      // a shard saw OUT/STOP (the coordinator has decided or is done): it started no further job
  Interrupted,  // stopped by a signal; resume to continue
  Error,        // a fatal error (an engine that cannot start, a journal that cannot be written)
};
// "completed", "sprt-decided", "stopped", "interrupted", "error".
const char* to_string(RunEnd end);

struct RunResult {
  RunEnd end = RunEnd::Completed;
  std::string error;  // for RunEnd::Error
};

// Told about a run as it goes: what every kind says. Each kind's observer adds its own events (a game journaled,
// a pair applied). Calls come under the run's lock (keep them short), watch_game() excepted.
class Observer {
 public:
  virtual ~Observer() = default;
  virtual void warning(const std::string& /*text*/) {}
  virtual void note(const std::string& /*text*/) {}
  // A watcher for a game about to be played (nullptr: none), called from its worker thread without the lock. The
  // run keeps it until that game has ended.
  virtual std::unique_ptr<game::GameWatcher> watch_game(const ScheduledGame& /*scheduled*/, int /*attempt*/) {
    return nullptr;
  }
};

// Several observers of kind O told in turn (the console and the live page); a game is watched by the first that
// wants to. A kind's own list derives from it and adds its events.
template <class O>
class ObserverList : public O {
 public:
  explicit ObserverList(std::vector<O*> observers) : observers_(std::move(observers)) {}
  void warning(const std::string& text) override {
    for (O* o : observers_) o->warning(text);
  }
  void note(const std::string& text) override {
    for (O* o : observers_) o->note(text);
  }
  std::unique_ptr<game::GameWatcher> watch_game(const ScheduledGame& scheduled, int attempt) override {
    for (O* o : observers_)
      if (auto w = o->watch_game(scheduled, attempt)) return w;
    return nullptr;
  }

 protected:
  std::vector<O*> observers_;
};

class RunCore;

// One worker's engines and the run's rules for starting them and playing a game on them.
class Worker {
 public:
  Worker(RunCore& core, int id);
  ~Worker();
  int id() const { return id_; }

  // One game of the run. Before it, the worker stops the engines that do not play it (it keeps at most two) and
  // makes both ready, starting them if need be and sending `options` (one list per side, black's first; empty:
  // none) before the game. After it, engines that died, or all of them under `restart: always`, are stopped.
  struct Game {
    PlayedGame game;
    bool started = true;  // false: an engine could not be (re)started and the game is scored as its failure
    // The runner failed while playing it (an exception): the game is an Interrupted one with this detail. A
    // tournament replays its pair; a kind that cannot replay makes it the run's error.
    std::string runner_error;
  };
  // nullopt: the game is not to be journaled (the run is stopping, or the start failure is fatal).
  std::optional<Game> play(const ScheduledGame& scheduled, int attempt, const std::string& start_position,
                           const game::OptionList (*options)[2] = nullptr);

 private:
  // What the engines' starts and games showed of them, each line once a run (with the core's lock held).
  void say_notices();
  RunCore& core_;
  int id_;
  std::unique_ptr<WorkerEngines> engines_;
  std::vector<int> held_;  // engines whose processes this worker keeps running
};

// What one kind of run gives the core: its jobs.
class JobSource {
 public:
  virtual ~JobSource() = default;
  // The next job for this process (an index of the kind's own), with the run's lock held; nullopt when none is
  // left.
  virtual std::optional<int64_t> claim() = 0;
  // Plays `job` on `worker`, without the lock (taking it to journal what it finished). Returns early when the run
  // stops (RunCore::stopping()).
  virtual void play(int64_t job, Worker& worker) = 0;
  // Every 100 ms from the thread that called run(), with the lock held: status lines.
  virtual void tick() {}
};

class RunCore {
 public:
  struct Settings {
    std::string output_dir;               // OUT; a shard polls OUT/STOP
    std::optional<journal::Shard> shard;  // a shard stops when OUT/STOP appears
    std::vector<game::EngineConfig> engines;  // as the factory's engines are numbered (for names and failures)
    game::GameOptions game;
    config::RestartPolicy restart = config::RestartPolicy::OnCrash;
    EngineFactory factory;
  };
  explicit RunCore(Settings settings);

  // Plays `source`'s jobs on `workers` threads. `external_stop` (set by a signal handler) is polled every 100 ms.
  RunResult run(JobSource& source, int workers, Observer& observer, const std::atomic<bool>* external_stop);

  // For the kind of run, while run() runs:
  std::mutex& mutex() const { return mutex_; }
  // No new game starts: the run is stopping for any reason (lock not needed).
  bool stopping() const;
  // Interrupts the running games when raised (what play_game polls).
  const std::atomic<bool>& interrupt() const { return stop_; }
  const std::atomic<bool>* external_stop() const { return external_stop_; }
  // A fatal error: the first one is the run's error; the run stops. fatal() takes the lock, fatal_locked() not.
  void fatal(const std::string& error);
  void fatal_locked(const std::string& error);
  // The kind's test has decided (with the lock held): the running games are interrupted and not journaled.
  void decide_locked();
  // A shard: whether OUT/STOP has appeared (with the lock held; one stat(2) a call until it has). For a kind that
  // waits between claiming a job and playing it (an SPSA shard waiting for theta).
  bool stop_file_seen_locked() { return stop_file_seen(); }
  // Engine `engine` has been started once before the run (a kind's own check of it): a later failure to start it
  // is scored as a crash, as after a worker's first start, not taken for a bad configuration.
  void started_before_run(int engine) { ever_started_[size_t(engine)] = true; }
  bool decided() const { return decided_; }
  Observer& observer() { return *observer_; }
  const Settings& settings() const { return settings_; }

 private:
  friend class Worker;
  void worker(int id, JobSource& source);
  bool stop_file_seen();  // with the lock held, between jobs: one stat(2) a job

  Settings settings_;
  std::string stop_file_;
  Observer* observer_ = nullptr;
  const std::atomic<bool>* external_stop_ = nullptr;

  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> decided_{false};
  bool interrupted_ = false;
  bool stopped_by_file_ = false;
  std::string fatal_;
  int running_workers_ = 0;
  std::set<std::string> said_;       // the engines' notices said so far (say_once)
  std::vector<bool> ever_started_;   // per engine
  std::vector<int> start_failures_;  // consecutive, per engine
};

}  // namespace arena::run
