#pragma once
// An SPSA tuning run on this machine: one engine, its parameters perturbed both ways (theta+ plays theta-), a pair
// of games at a time on the run core's workers (run/run_core.h), theta updated as each pair arrives
// (stats/spsa.h).
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
#include <cstdint>
#include <deque>
#include <expected>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "config/config.h"
#include "journal/journal.h"
#include "journal/shard.h"
#include "openings/openings.h"
#include "provision/findings.h"
#include "run/engines.h"
#include "run/records.h"
#include "run/run_core.h"
#include "run/schedule.h"
#include "spsa/tuner.h"
#include "standings/tally.h"

namespace arena::spsa {

using run::RunEnd;
using run::RunResult;

// Where the run stands, for status lines and pages.
struct Progress {
  int64_t pairs_done = 0;   // applied, resumed ones included
  int64_t pairs_total = 0;  // N
  std::vector<double> theta;
  double recent_mean = 0;  // mean result of the last (up to) 100 pairs
  int64_t recent_pairs = 0;
  standings::EngineRecord faults;  // both sides' crashes, stalls, time losses, illegal moves
};

// Told about the run as it goes, always under the run's lock (keep the calls short): pair_finished() and warning()
// from worker threads, tick() from the thread that called run(), watch_game() excepted (run/run_core.h).
class Observer : public run::Observer {
 public:
  // A pair applied: its line's contents (theta after it included) and its two games.
  virtual void pair_finished(const journal::SpsaPair& /*pair*/, const journal::JournaledGame& /*first*/,
                             const journal::JournaledGame& /*second*/, const Progress& /*progress*/) {}
  virtual void tick(const Progress& /*progress*/) {}
};

// Several observers told in turn (the console and the live page).
class Observers final : public run::ObserverList<Observer> {
 public:
  using ObserverList::ObserverList;
  void pair_finished(const journal::SpsaPair& pair, const journal::JournaledGame& first,
                     const journal::JournaledGame& second, const Progress& progress) override {
    for (Observer* o : observers_) o->pair_finished(pair, first, second, progress);
  }
  void tick(const Progress& progress) override {
    for (Observer* o : observers_) o->tick(progress);
  }
};

// The two sides of an SPSA run as engines of a run: "<name>+" (engine 0) and "<name>-" (engine 1), copies of the
// tuned engine's configuration.
std::vector<game::EngineConfig> spsa_sides(const game::EngineConfig& engine);

// The SPSA pairs for the run core.
class Run final : private run::JobSource {
 public:
  // `config.type` is Spsa with one engine; `openings` must not be empty. `factory` makes the two sides' engines
  // (spsa_sides()).
  Run(config::Config config, std::vector<openings::Opening> openings, run::EngineFactory factory,
      std::optional<journal::Shard> shard = {});
  ~Run() override;

  // Starts the engine once to check every parameter against its own options (a name it lacks, or a spin whose
  // range does not hold MIN..MAX, is a one-line error naming the parameter); creates the output folder and the
  // journal, or reads it back for --resume (refusing one of another run); `findings` (provisioning's) go to its
  // header. Errors are one line.
  std::expected<void, std::string> open(Observer& observer, const provision::Findings& findings = {});
  // Plays the missing pairs. `stop` (a signal) is polled every 100 ms: the running games are interrupted and not
  // journaled (a resumed run plays their pairs again).
  RunResult run(Observer& observer, const std::atomic<bool>* stop);

  const config::Config& config() const { return config_; }
  const Tuner& tuner() const { return *tuner_; }
  Progress progress() const;
  const std::string& journal_path() const { return journal_path_; }
  const std::optional<journal::Shard>& shard() const { return shard_; }
  int64_t resumed_pairs() const { return resumed_; }
  int64_t pairs_played() const { return played_; }
  // The pairs read back by --resume, in journal order (for the charts of theta).
  const std::vector<journal::SpsaPair>& resumed_history() const { return resumed_history_; }
  // The names of the two sides: "<name>+" and "<name>-".
  const std::string& plus_name() const { return names_[0]; }
  const std::string& minus_name() const { return names_[1]; }

 private:
  std::expected<std::vector<bool>, std::string> check_engine_options();
  std::optional<int64_t> claim() override;
  void play(int64_t k, run::Worker& worker) override;
  void tick() override;
  // A shard: waits (without the lock) until the coordinator has applied enough pairs for pair k; false if the run
  // stops meanwhile. Gives up (fatal) when the coordinator has not published theta for
  // spsa.coordinator_timeout_s.
  bool wait_for_theta(int64_t k);
  // Journals a finished pair and applies it; false when the run is over (a journal error).
  bool record(journal::SpsaPair& pair, PlayedGame games[2]);
  Progress progress_locked() const;

  config::Config config_;
  std::vector<openings::Opening> openings_;
  run::Schedule schedule_;
  std::optional<journal::Shard> shard_;
  std::string journal_path_;
  std::string names_[2];
  run::RecordSettings records_;
  run::RunCore core_;
  std::unique_ptr<Tuner> tuner_;
  Observer* observer_ = nullptr;

  // Guarded by the core's lock while run() runs.
  standings::Tally tally_;
  journal::JournalWriter journal_;
  std::set<int64_t> done_;  // pairs journaled
  int64_t next_k_ = 1;
  int64_t resumed_ = 0;
  std::vector<journal::SpsaPair> resumed_history_;
  int64_t played_ = 0;
  std::deque<double> recent_;
};

}  // namespace arena::spsa
