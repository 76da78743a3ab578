#pragma once
// An SPSA tuning run on this machine: one engine, its parameters perturbed both ways (theta+ plays theta-), a pair
// of games at a time on a pool of worker threads, theta updated as each pair arrives (stats/spsa.h).
//
// Each worker owns two processes of the engine, "<name>+" and "<name>-", kept across pairs: before each game the
// side's values are sent with setoption, then isready, and the game's usinewgame follows. Pair k plays the
// schedule's opening of pair k - 1, theta+ as black first. With C workers, up to C pairs are in flight, each with
// the k, signs and theta of the moment it was dispatched (as fishtest's workers do).
//
// Nothing is lost: every finished pair is one journal line (journal/spsa_pair.h: its signs, the values sent, both
// games, the result and theta after it), written with one write(2) and synced. --resume rebuilds theta from the
// journal and plays the pairs still missing (those in flight when the run stopped). With concurrency 1 a run is
// deterministic for a seed, resumed or not, when the engine's games are (as the mock's strength model is).
//
// A shard of a run spread over a cluster (journal/shard.h) plays the pairs k with (k - 1) mod N = I, into a
// segment of its own, and applies nothing: before each pair it reads theta as the coordinator published it
// (spsa/applier.h), and journals the pair without theta for the coordinator to apply. It starts pair k only when
// the coordinator has applied at least k - W pairs (W: twice the shards' concurrency in all), so that no pair is
// played on a theta far behind the run. It stops when OUT/STOP appears (the coordinator has applied every pair, or
// given a shard up) or when its pairs are all journaled.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <expected>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "config/config.h"
#include "game/game_watch.h"
#include "journal/journal.h"
#include "journal/shard.h"
#include "spsa/tuner.h"
#include "tournament/engines.h"
#include "tournament/openings.h"
#include "tournament/records.h"
#include "tournament/schedule.h"
#include "tournament/tally.h"

namespace arena::spsa {

// Where the run stands, for status lines and pages.
struct Progress {
  int64_t pairs_done = 0;   // applied, resumed ones included
  int64_t pairs_total = 0;  // N
  std::vector<double> theta;
  double recent_mean = 0;  // mean result of the last (up to) 100 pairs
  int64_t recent_pairs = 0;
  tournament::EngineRecord faults;  // both sides' crashes, stalls, time losses, illegal moves
};

// Told about the run as it goes, always under the run's lock (keep the calls short): pair_finished() and warning()
// from worker threads, tick() from the thread that called run(), watch_game() excepted (see there).
class Observer {
 public:
  virtual ~Observer() = default;
  // A pair applied: its line's contents (theta after it included) and its two games.
  virtual void pair_finished(const journal::SpsaPair& /*pair*/, const journal::JournaledGame& /*first*/,
                             const journal::JournaledGame& /*second*/, const Progress& /*progress*/) {}
  virtual void tick(const Progress& /*progress*/) {}
  virtual void warning(const std::string& /*text*/) {}
  virtual void note(const std::string& /*text*/) {}
  // A watcher for game `game` (0-based, two per pair) about to be played, from its worker without the lock.
  virtual std::unique_ptr<game::GameWatcher> watch_game(int64_t /*game*/, int64_t /*pair*/) { return nullptr; }
};

// Several observers told in turn (the console and the live page); a game is watched by the first that wants to.
class Observers final : public Observer {
 public:
  explicit Observers(std::vector<Observer*> observers) : observers_(std::move(observers)) {}
  void pair_finished(const journal::SpsaPair& pair, const journal::JournaledGame& first,
                     const journal::JournaledGame& second, const Progress& progress) override {
    for (Observer* o : observers_) o->pair_finished(pair, first, second, progress);
  }
  void tick(const Progress& progress) override {
    for (Observer* o : observers_) o->tick(progress);
  }
  void warning(const std::string& text) override {
    for (Observer* o : observers_) o->warning(text);
  }
  void note(const std::string& text) override {
    for (Observer* o : observers_) o->note(text);
  }
  std::unique_ptr<game::GameWatcher> watch_game(int64_t game, int64_t pair) override {
    for (Observer* o : observers_)
      if (auto w = o->watch_game(game, pair)) return w;
    return nullptr;
  }

 private:
  std::vector<Observer*> observers_;
};

enum class RunEnd { Completed, Interrupted, Error };

struct RunResult {
  RunEnd end = RunEnd::Completed;
  std::string error;
  int64_t pairs_played = 0;  // by this run
};

class Run {
 public:
  // `config.type` is Spsa with one engine; `openings` must not be empty.
  Run(config::Config config, std::vector<tournament::Opening> openings, std::optional<journal::Shard> shard = {});
  ~Run();

  // Starts the engine once to check every parameter against its own options (a name it lacks, or a spin whose
  // range does not hold MIN..MAX, is a one-line error naming the parameter); creates the output folder and the
  // journal, or reads it back for --resume (refusing one of another run). Errors are one line.
  std::expected<void, std::string> open(Observer& observer);
  // Plays the missing pairs. `stop` (a signal) is polled every 100 ms: the running games are interrupted and not
  // journaled (a resumed run plays their pairs again).
  RunResult run(Observer& observer, const std::atomic<bool>* stop);

  const config::Config& config() const { return config_; }
  const Tuner& tuner() const { return *tuner_; }
  Progress progress() const;
  const std::string& journal_path() const { return journal_path_; }
  const std::optional<journal::Shard>& shard() const { return shard_; }
  int64_t resumed_pairs() const { return resumed_; }
  // The pairs read back by --resume, in journal order (for the charts of theta).
  const std::vector<journal::SpsaPair>& resumed_history() const { return resumed_history_; }
  // The names of the two sides: "<name>+" and "<name>-".
  const std::string& plus_name() const { return names_[0]; }
  const std::string& minus_name() const { return names_[1]; }

 private:
  class Worker;
  std::expected<std::vector<bool>, std::string> check_engine_options();
  std::expected<void, std::string> open_segment(journal::JournalHeader header, Observer& observer);
  // The next pair for this process to play (with mutex_ held); false when there is none (or the run stops).
  bool reserve_pair(int64_t& k);
  // A shard: waits (without the lock) until the coordinator has applied enough pairs for pair k; false if the run
  // stops meanwhile.
  // Gives up (fatal) when the coordinator has not published theta for spsa.coordinator_timeout_s.
  bool wait_for_theta(int64_t k, Observer& observer);
  bool stop_file_seen();
  void worker(int id, Observer& observer);
  void play_pairs(int id, Observer& observer);
  // Journals a finished pair and applies it; false when the run is over (a journal error).
  bool record(journal::SpsaPair& pair, PlayedGame games[2], Observer& observer);
  Progress progress_locked() const;
  void fatal(const std::string& error);

  config::Config config_;
  std::vector<tournament::Opening> openings_;
  tournament::Schedule schedule_;
  std::optional<journal::Shard> shard_;
  std::string journal_path_;
  std::string names_[2];
  tournament::RecordSettings records_;
  tournament::EngineLogs logs_;
  const std::atomic<bool>* external_stop_ = nullptr;  // the signal run() polls
  std::unique_ptr<Tuner> tuner_;

  mutable std::mutex mutex_;
  std::set<std::string> said_;  // the engines' rule notices said so far (tournament/engines.h say_once)
  tournament::Tally tally_;
  journal::JournalWriter journal_;
  std::set<int64_t> done_;  // pairs journaled
  int64_t next_k_ = 1;
  int64_t resumed_ = 0;
  std::vector<journal::SpsaPair> resumed_history_;
  int64_t played_ = 0;
  std::deque<double> recent_;
  std::atomic<bool> stop_{false};
  bool interrupted_ = false;
  bool stopped_by_file_ = false;
  std::string fatal_;
  int running_workers_ = 0;
  std::condition_variable cv_;
};

}  // namespace arena::spsa
