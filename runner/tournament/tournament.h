#pragma once
// A tournament: the schedule played on the run core's workers (run/run_core.h), each owning its own engines
// (processes reused across games and restarted after a crash), every finished game journaled at once.
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
#include <cstdint>
#include <expected>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "config/config.h"
#include "journal/journal.h"
#include "journal/shard.h"
#include "openings/openings.h"
#include "provision/findings.h"
#include "run/engines.h"
#include "run/records.h"
#include "run/resume.h"
#include "run/run_core.h"
#include "run/schedule.h"
#include "standings/tally.h"

namespace arena::tournament {

using run::RunEnd;
using run::RunResult;

// Told about the run as it goes. Calls come from worker threads under the run's lock (keep them short), except
// tick(), which comes from the thread that called run(), and watch_game() (run/run_core.h).
class Observer : public run::Observer {
 public:
  // A game journaled: its line and summary, the kifu files written for it, the standings with it.
  virtual void game_finished(const journal::JournaledGame& /*game*/, const std::vector<std::string>& /*records*/,
                             const standings::Tally& /*tally*/) {}
  virtual void tick(const standings::Tally& /*tally*/) {}
};

// Several observers told in turn (the console and the web page).
class Observers final : public run::ObserverList<Observer> {
 public:
  using ObserverList::ObserverList;
  void game_finished(const journal::JournaledGame& game, const std::vector<std::string>& records,
                     const standings::Tally& tally) override {
    for (Observer* o : observers_) o->game_finished(game, records, tally);
  }
  void tick(const standings::Tally& tally) override {
    for (Observer* o : observers_) o->tick(tally);
  }
};

// The tournament's jobs for the run core: the pairs of its schedule.
class Tournament final : private run::JobSource {
 public:
  // `openings` must not be empty (use {"startpos"} for none). With a shard, only its pairs are played, into a
  // segment of OUT/segments.
  Tournament(config::Config config, std::vector<openings::Opening> openings, run::EngineFactory factory,
             std::optional<journal::Shard> shard = std::nullopt);
  ~Tournament() override;

  const run::Schedule& schedule() const { return schedule_; }
  const config::Config& config() const { return config_; }
  const standings::Tally& tally() const { return tally_; }
  const std::vector<std::string>& engine_names() const { return names_; }
  const std::optional<journal::Shard>& shard() const { return shard_; }
  // The games this process is to play in all: the schedule's, or a shard's part of it.
  int64_t games_to_play() const;
  // The journal written: OUT/journal.jsonl (or --journal), or this shard's new segment. Set by open().
  const std::string& journal_path() const { return journal_path_; }

  // Creates the output folders and the journal, or reads it back for --resume (checking that it was written for
  // this schedule). `findings`: what provisioning found of the engines, for the header. The error is one line
  // naming the file.
  std::expected<void, std::string> open(Observer& observer, const provision::Findings& findings = {});
  // Plays what remains. `external_stop` (set by a signal handler) is polled every 100 ms.
  RunResult run(Observer& observer, const std::atomic<bool>* external_stop);

  // Games journaled before this run (from --resume) and games that count now.
  int64_t resumed_games() const { return resumed_games_; }
  int64_t games_played() const { return played_; }
  // Moves the engines played in the games this run journaled (opening moves and resumed games excluded): the
  // denominator of the runner's cost per move. Read it after run().
  int64_t engine_moves() const { return engine_moves_; }

 private:
  std::optional<int64_t> claim() override;
  void play(int64_t pair, run::Worker& worker) override;
  void tick() override;
  // Journals a finished game (and writes its kifu when `kifu`); false when the run is over (a journal error, or the
  // SPRT has already decided and the game is dropped).
  bool record(const run::ScheduledGame& s, int attempt, bool replay, const PlayedGame& game, bool kifu);

  config::Config config_;
  std::vector<openings::Opening> openings_;
  run::Schedule schedule_;
  std::vector<std::string> names_;
  run::RecordSettings records_;
  std::optional<journal::Shard> shard_;
  run::RunCore core_;
  std::string journal_path_;
  Observer* observer_ = nullptr;

  // Guarded by the core's lock while run() runs.
  standings::Tally tally_;
  run::ResumePlan plan_;
  journal::JournalWriter journal_;
  int64_t next_pair_ = 0;
  int64_t resumed_games_ = 0;
  int64_t engine_moves_ = 0;
  int64_t played_ = 0;
};

// The exit code for a finished run: 0 completed (SPRT: H1 accepted), 1 SPRT H0 accepted, 2 SPRT inconclusive,
// interrupted or error. A shard: 0 when it played its part or was stopped by OUT/STOP, else 2.
int exit_code(const RunResult& result, const config::Config& config, const standings::Tally& tally, bool shard = false);

}  // namespace arena::tournament
