#pragma once
// A tournament: the schedule played by a pool of worker threads, each owning its own engines (processes reused
// across games and restarted after a crash), every finished game journaled at once.
//
// Work is handed out a pair at a time: a worker plays both games of a pair, so a pair broken by an engine crash
// or a runner-side error can be replayed as a whole (a new attempt) when the configuration says so.
// Stopping (a signal, an SPRT verdict, a fatal error) interrupts the running games; interrupted games are not
// journaled, so a resumed run plays them again. After an SPRT verdict no further game is journaled, so the journal
// ends exactly where the test decided.
//
// A shard of a run spread over a cluster (shard.h) plays only the pairs it owns and writes a journal segment of
// its own (segments.h). It reads every segment in the output directory first: pairs complete there are not
// played again, whichever shard or process played them, and a segment of another run is refused. A shard does
// not decide an SPRT on its part of the games (the coordinator does, on all of them): it stops starting pairs
// when the file OUT/STOP appears.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <expected>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "config/config.h"
#include "journal/journal.h"
#include "journal/shard.h"
#include "tournament/engines.h"
#include "tournament/openings.h"
#include "tournament/records.h"
#include "tournament/resume.h"
#include "tournament/schedule.h"
#include "tournament/tally.h"

namespace arena::tournament {

// Told about the run as it goes. Calls come from worker threads under the tournament's lock (keep them short),
// except tick(), which comes from the thread that called run().
class Observer {
 public:
  virtual ~Observer() = default;
  // A game journaled: its line and summary, the kifu files written for it, the standings with it.
  virtual void game_finished(const journal::JournaledGame& /*game*/, const std::vector<std::string>& /*records*/,
                             const Tally& /*tally*/) {}
  virtual void tick(const Tally& /*tally*/) {}
  // A watcher for a game about to be played (nullptr: none), called from its worker thread without the lock. The
  // tournament keeps it until that game has ended.
  virtual std::unique_ptr<game::GameWatcher> watch_game(const ScheduledGame& /*scheduled*/, int /*attempt*/) {
    return nullptr;
  }
  virtual void warning(const std::string& /*text*/) {}
  virtual void note(const std::string& /*text*/) {}
};

// Several observers told in turn (the console and the web page); a game is watched by the first that wants to.
class Observers final : public Observer {
 public:
  explicit Observers(std::vector<Observer*> observers) : observers_(std::move(observers)) {}
  void game_finished(const journal::JournaledGame& game, const std::vector<std::string>& records,
                     const Tally& tally) override;
  void tick(const Tally& tally) override;
  void warning(const std::string& text) override;
  void note(const std::string& text) override;
  std::unique_ptr<game::GameWatcher> watch_game(const ScheduledGame& scheduled, int attempt) override;

 private:
  std::vector<Observer*> observers_;
};

enum class RunEnd {
  Completed,    // every scheduled game is in the journal (an SPRT that reached its maximum: inconclusive)
  SprtDecided,  // the SPRT accepted H0 or H1
  Stopped,      // a shard saw OUT/STOP (the coordinator has decided): it started no further pair
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
  // `openings` must not be empty (use {"startpos"} for none). With a shard, only its pairs are played, into a
  // segment of OUT/segments.
  Tournament(config::Config config, std::vector<Opening> openings, EngineFactory factory,
             std::optional<journal::Shard> shard = std::nullopt);
  ~Tournament();

  const Schedule& schedule() const { return schedule_; }
  const config::Config& config() const { return config_; }
  const Tally& tally() const { return tally_; }
  const std::vector<std::string>& engine_names() const { return names_; }
  const std::optional<journal::Shard>& shard() const { return shard_; }
  // The games this process is to play in all: the schedule's, or a shard's part of it.
  int64_t games_to_play() const;
  // The journal written: OUT/journal.jsonl (or --journal), or this shard's new segment. Set by open().
  const std::string& journal_path() const { return journal_path_; }

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
  // Journals a finished game (and writes its kifu when `kifu`); false when the run is over (a journal error, or the
  // SPRT has already decided and the game is dropped).
  bool record(const ScheduledGame& s, int attempt, bool replay, const PlayedGame& game, bool kifu, Observer& observer);
  void fatal(const std::string& error);
  // open() for a shard: the segments of the directory, then a new segment.
  std::expected<void, std::string> open_segment(journal::JournalHeader header, Observer& observer);
  bool stop_file_seen();

  config::Config config_;
  std::vector<Opening> openings_;
  EngineFactory factory_;
  Schedule schedule_;
  std::vector<std::string> names_;
  RecordSettings records_;
  std::optional<journal::Shard> shard_;
  std::string journal_path_;
  std::string stop_file_;  // OUT/STOP, polled by shards between pairs
  bool stopped_by_file_ = false;

  std::mutex mutex_;
  std::condition_variable cv_;
  std::set<std::string> said_;  // the engines' rule notices said so far (tournament/engines.h say_once)
  Tally tally_;
  ResumePlan plan_;
  journal::JournalWriter journal_;
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
// interrupted or error. A shard: 0 when it played its part or was stopped by OUT/STOP, else 2.
int exit_code(const RunResult& result, const config::Config& config, const Tally& tally, bool shard = false);

}  // namespace arena::tournament
