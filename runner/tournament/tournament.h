#pragma once
// A tournament: the schedule played by a pool of worker threads, each owning its own engines (processes reused
// across games and restarted after a crash), every finished game journaled at once.
//
// Work is handed out a pair at a time: a worker plays both games of a pair, so a pair broken by an engine crash
// or a runner-side error can be replayed as a whole (a new attempt) when the configuration says so.
// Stopping (a signal, an SPRT verdict, a fatal error) interrupts the running games; interrupted games are not
// journaled, so a resumed run plays them again. After an SPRT verdict no further game is journaled, so the journal
// ends exactly where the test decided.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <expected>
#include <mutex>
#include <string>
#include <vector>

#include "config/config.h"
#include "tournament/engines.h"
#include "tournament/journal.h"
#include "tournament/openings.h"
#include "tournament/records.h"
#include "tournament/schedule.h"
#include "tournament/tally.h"

namespace arena::tournament {

// Told about the run as it goes. Calls come from worker threads under the tournament's lock (keep them short),
// except tick(), which comes from the thread that called run().
class Observer {
 public:
  virtual ~Observer() = default;
  virtual void game_finished(const ScheduledGame& /*scheduled*/, int /*attempt*/, bool /*replay*/,
                             const PlayedGame& /*game*/, const std::vector<std::string>& /*records*/,
                             const Tally& /*tally*/) {}
  virtual void tick(const Tally& /*tally*/) {}
  virtual void warning(const std::string& /*text*/) {}
};

enum class RunEnd {
  Completed,    // every scheduled game is in the journal (an SPRT that reached its maximum: inconclusive)
  SprtDecided,  // the SPRT accepted H0 or H1
  Interrupted,  // stopped by a signal; resume to continue
  Error,        // a fatal error (an engine that cannot start, a journal that cannot be written)
};

struct RunResult {
  RunEnd end = RunEnd::Completed;
  std::string error;         // for RunEnd::Error
  int64_t games_played = 0;  // journaled by this run
};

class Tournament {
 public:
  // `openings` must not be empty (use {"startpos"} for none).
  Tournament(config::Config config, std::vector<Opening> openings, EngineFactory factory);
  ~Tournament();

  const Schedule& schedule() const { return schedule_; }
  const config::Config& config() const { return config_; }
  const Tally& tally() const { return tally_; }
  const std::vector<std::string>& engine_names() const { return names_; }

  // Creates the output folders and the journal, or reads the journal back for --resume (checking that it was
  // written for this schedule). The error is one line naming the file.
  std::expected<void, std::string> open(Observer& observer);
  // Plays what remains. `external_stop` (set by a signal handler) is polled every 100 ms.
  RunResult run(Observer& observer, const std::atomic<bool>* external_stop);

  // Games journaled before this run (from --resume) and games that count now.
  int64_t resumed_games() const { return resumed_games_; }
  // Moves the engines played in the games this run journaled (opening moves and resumed games excluded): the
  // denominator of the runner's cost per move. Read it after run().
  int64_t engine_moves() const { return engine_moves_; }

 private:
  struct PairJob {
    int64_t pair = -1;
    PairProgress progress;
  };
  bool stopping();
  bool next_job(PairJob& job);
  void worker(int id, Observer& observer);
  void play_pair(WorkerEngines& engines, std::vector<int>& held, const PairJob& job, Observer& observer);
  PlayedGame failed_start(const ScheduledGame& s, int engine, const std::string& why) const;
  // Journals a finished game (and writes its kifu when `kifu`); false when the run is over (a journal error, or the
  // SPRT has already decided and the game is dropped).
  bool record(const ScheduledGame& s, int attempt, bool replay, const PlayedGame& game, bool kifu, Observer& observer);
  void fatal(const std::string& error);

  config::Config config_;
  std::vector<Opening> openings_;
  EngineFactory factory_;
  Schedule schedule_;
  std::vector<std::string> names_;
  RecordSettings records_;

  std::mutex mutex_;
  std::condition_variable cv_;
  Tally tally_;
  ResumePlan plan_;
  JournalWriter journal_;
  int64_t next_pair_ = 0;
  int64_t resumed_games_ = 0;
  int64_t engine_moves_ = 0;  // guarded by mutex_
  int64_t played_ = 0;
  int running_workers_ = 0;
  std::atomic<bool> stop_{false};  // passed to play_game: set to interrupt the running games
  const std::atomic<bool>* external_stop_ = nullptr;
  bool interrupted_ = false;
  std::atomic<bool> sprt_decided_{false};
  std::string fatal_;
  std::vector<bool> ever_started_;
  std::vector<int> start_failures_;  // consecutive, per engine
};

// The exit code for a finished run: 0 completed (SPRT: H1 accepted), 1 SPRT H0 accepted, 2 SPRT inconclusive,
// interrupted or error.
int exit_code(const RunResult& result, const config::Config& config, const Tally& tally);

}  // namespace arena::tournament
