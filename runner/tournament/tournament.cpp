#include "tournament/tournament.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <thread>

#include <unistd.h>

#include "journal/run_identity.h"
#include "journal/run_start.h"
#include "journal/segments.h"
#include "rules/game_end.h"

namespace arena::tournament {

namespace fs = std::filesystem;

namespace {

// An engine that cannot be started this many times in a row stops the tournament: it is not a crash any more.
constexpr int MAX_START_FAILURES = 3;

bool broken(const PlayedGame& game) {
  return game.result.termination == Termination::Disconnect || game.result.termination == Termination::Interrupted;
}

Schedule make_schedule(const config::Config& c, size_t openings) {
  Schedule::Params p;
  p.type = c.type;
  p.engines = int(c.engines.size());
  p.rounds = c.rounds;
  p.openings = int(openings);
  p.order = c.openings.order;
  p.seed = c.openings.seed;
  p.games_per_pair = c.type == config::TournamentType::Play && !c.pair ? 1 : 2;
  return Schedule(p);
}

}  // namespace

Tournament::Tournament(config::Config config, std::vector<Opening> openings, EngineFactory factory,
                       std::optional<journal::Shard> shard)
    : config_(std::move(config)),
      openings_(std::move(openings)),
      factory_(std::move(factory)),
      schedule_(make_schedule(config_, openings_.size())),
      shard_(shard),
      tally_({}, {}, 2) {
  stop_file_ = (fs::path(config_.output.dir) / "STOP").string();
  for (const game::EngineConfig& e : config_.engines) names_.push_back(e.name);
  tally_ = Tally(names_, schedule_.pairings(), schedule_.games_per_pair());
  // A shard's part of an SPRT decides nothing: the coordinator tests all shards' games.
  if (config_.type == config::TournamentType::Sprt && !shard_) tally_.decide_sprt(config_.sprt);
  ever_started_.assign(names_.size(), false);
  start_failures_.assign(names_.size(), 0);
  if (config_.output.csa || config_.output.kif)
    records_ =
        RecordSettings{(fs::path(config_.output.dir) / "games").string(), config_.output.csa, config_.output.kif};
}

Tournament::~Tournament() = default;

std::expected<void, std::string> Tournament::open(Observer& observer) {
  if (auto made = journal::make_output_folders(config_, records_.dir); !made) return made;
  const std::string& path = config_.output.journal;

  std::vector<std::string> positions;
  for (const Opening& o : openings_) positions.push_back(o.position);
  journal::JournalHeader header;
  header.type = std::string(to_string(config_.type));
  header.engines = names_;
  header.games = schedule_.games();
  header.games_per_pair = schedule_.games_per_pair();
  header.schedule = schedule_id(schedule_, names_, positions);
  if (config_.type == config::TournamentType::Sprt) header.sprt = config_.sprt;
  header.rating_anchor = config_.rating_anchor;
  header.rating_anchor_elo = config_.rating_anchor_elo;
  if (auto stamped = journal::stamp_header(header, config_); !stamped) return stamped;
  if (shard_) return open_segment(std::move(header), observer);
  journal_path_ = path;

  auto resumed = journal::read_journal_to_resume(config_.output.dir, path, header, config_.resume, config_.overwrite);
  if (!resumed) return std::unexpected(resumed.error());
  if (*resumed) {
    const journal::JournalContents& contents = **resumed;
    auto plan = ResumePlan::make(contents.games, schedule_, names_);
    if (!plan) return std::unexpected(path + ": " + plan.error());
    for (const std::string& w : contents.warnings) observer.warning(w);
    for (const std::string& w : plan->warnings()) observer.warning(w);
    plan_ = std::move(*plan);
    for (const journal::JournalGame& g : contents.games) tally_.add(g);
    resumed_games_ = int64_t(contents.games.size());
    auto writer = journal::JournalWriter::append_to(path, contents.valid_size);
    if (!writer) return std::unexpected(writer.error());
    journal_ = std::move(*writer);
  } else {
    auto writer = journal::JournalWriter::create(path, header);
    if (!writer) return std::unexpected(writer.error());
    journal_ = std::move(*writer);
  }
  return {};
}

std::expected<void, std::string> Tournament::open_segment(journal::JournalHeader header, Observer& observer) {
  const journal::Shard shard = *shard_;
  header.shard = shard;
  const std::string dir = journal::segments_dir(config_.output.dir);
  auto merged = journal::read_segments_to_resume(config_.output.dir, header, shard, config_.resume, config_.overwrite);
  if (!merged) return std::unexpected(merged.error());
  for (const std::string& w : merged->warnings) observer.warning(w);
  auto plan = ResumePlan::make(merged->games, schedule_, names_);
  if (!plan) return std::unexpected(dir + ": " + plan.error());
  plan_ = std::move(*plan);
  // The standings of this shard: its own pairs, whoever played them.
  for (const journal::JournalGame& g : merged->games)
    if (shard.owns_pair(g.pair)) tally_.add(g), ++resumed_games_;
  journal_path_ = journal::new_segment_path(config_.output.dir, shard);
  auto writer = journal::JournalWriter::create(journal_path_, header, true);
  if (!writer) return std::unexpected(writer.error());
  journal_ = std::move(*writer);
  return {};
}

void Observers::game_finished(const journal::JournaledGame& game, const std::vector<std::string>& records,
                              const Tally& tally) {
  for (Observer* o : observers_) o->game_finished(game, records, tally);
}
void Observers::tick(const Tally& tally) {
  for (Observer* o : observers_) o->tick(tally);
}
void Observers::warning(const std::string& text) {
  for (Observer* o : observers_) o->warning(text);
}
void Observers::note(const std::string& text) {
  for (Observer* o : observers_) o->note(text);
}
std::unique_ptr<game::GameWatcher> Observers::watch_game(const ScheduledGame& scheduled, int attempt) {
  for (Observer* o : observers_)
    if (auto w = o->watch_game(scheduled, attempt)) return w;
  return nullptr;
}

int64_t Tournament::games_to_play() const {
  if (!shard_) return schedule_.games();
  const int64_t pairs = schedule_.pairs();
  const int64_t owned = pairs > shard_->index ? (pairs - shard_->index + shard_->count - 1) / shard_->count : 0;
  return owned * schedule_.games_per_pair();
}

bool Tournament::stop_file_seen() {
  // Called with mutex_ held, between pairs: one stat(2) per pair.
  if (!shard_ || stopped_by_file_) return stopped_by_file_;
  std::error_code ec;
  stopped_by_file_ = fs::exists(stop_file_, ec);
  return stopped_by_file_;
}

bool Tournament::stopping() {
  if (stop_) return true;
  if (external_stop_ && external_stop_->load()) {
    // Noticed here first: no new game starts; the coordinator interrupts the running ones.
    return true;
  }
  return false;
}

bool Tournament::next_job(PairJob& job) {
  // Called with mutex_ held.
  while (!stopping() && next_pair_ < schedule_.pairs()) {
    const int64_t pair = next_pair_++;
    if (shard_ && !shard_->owns_pair(pair)) continue;
    PairProgress p = plan_.pair(pair);
    bool all_done = true;
    for (int g = 0; g < schedule_.games_per_pair(); ++g) all_done = all_done && p.done[g];
    if (all_done) continue;
    if (stop_file_seen()) return false;
    job = PairJob{pair, p};
    return true;
  }
  return false;
}

RunResult Tournament::run(Observer& observer, const std::atomic<bool>* external_stop) {
  external_stop_ = external_stop;
  {
    std::lock_guard lock(mutex_);
    if (tally_.sprt_decided()) sprt_decided_ = true, stop_ = true;
  }
  const int workers = int(std::max<int64_t>(1, std::min<int64_t>(config_.concurrency, schedule_.pairs())));
  if (std::string w = config::oversubscription_warning(workers, config::default_concurrency()); !w.empty())
    observer.warning(w);
  std::vector<std::thread> threads;
  running_workers_ = workers;
  for (int i = 0; i < workers; ++i) threads.emplace_back([this, i, &observer] { worker(i, observer); });
  {
    std::unique_lock lock(mutex_);
    while (running_workers_ > 0) {
      cv_.wait_for(lock, std::chrono::milliseconds(100));
      if (external_stop && external_stop->load() && !stop_) {
        interrupted_ = true;
        stop_ = true;
      }
      observer.tick(tally_);
    }
  }
  for (std::thread& t : threads) t.join();

  RunResult r;
  r.games_played = played_;
  if (!fatal_.empty())
    r.end = RunEnd::Error, r.error = fatal_;
  else if (interrupted_)
    r.end = RunEnd::Interrupted;
  else if (sprt_decided_)
    r.end = RunEnd::SprtDecided;
  else if (stopped_by_file_)
    r.end = RunEnd::Stopped;
  else
    r.end = RunEnd::Completed;
  return r;
}

void Tournament::worker(int id, Observer& observer) {
  std::unique_ptr<WorkerEngines> engines;
  std::vector<int> held;  // engines whose processes this worker keeps running
  try {
    engines = factory_(id);
    for (;;) {
      PairJob job;
      {
        std::lock_guard lock(mutex_);
        if (!next_job(job)) break;
      }
      play_pair(*engines, held, job, observer);
    }
  } catch (const std::exception& e) {
    fatal(std::string("runner error: ") + e.what());
  }
  if (engines)
    for (int e : held) engines->release(e);
  std::lock_guard lock(mutex_);
  --running_workers_;
  cv_.notify_all();
}

void Tournament::fatal(const std::string& error) {
  std::lock_guard lock(mutex_);
  if (fatal_.empty()) fatal_ = error;
  stop_ = true;
}

void Tournament::play_pair(WorkerEngines& engines, std::vector<int>& held, const PairJob& job, Observer& observer) {
  const int gpp = schedule_.games_per_pair();
  int attempt = job.progress.attempt;
  bool done[2] = {job.progress.done[0], job.progress.done[1]};
  for (int g = 0; g < gpp;) {
    if (done[g]) {
      ++g;
      continue;
    }
    if (stopping()) return;
    const ScheduledGame s = schedule_.game(job.pair * gpp + g);

    // Keep at most the two engines of this game running in this worker.
    for (auto it = held.begin(); it != held.end();) {
      if (*it != s.black && *it != s.white) {
        engines.release(*it);
        it = held.erase(it);
      } else {
        ++it;
      }
    }
    // What the engines' starts and games showed of them, each line once a run (under the lock).
    auto say_notices = [&] {
      say_once(
          engines.take_notices(), said_, [&](const std::string& n) { observer.note(n); },
          [&](const std::string& w) { observer.warning(w); });
    };
    PlayedGame game;
    bool started = true;
    for (int e : {s.black, s.white}) {
      auto ready = engines.prepare(e);
      if (std::find(held.begin(), held.end(), e) == held.end()) held.push_back(e);
      std::lock_guard lock(mutex_);
      say_notices();
      if (ready) {
        ever_started_[size_t(e)] = true;
        start_failures_[size_t(e)] = 0;
        continue;
      }
      // A start cut short by the stop (Ctrl-C while an engine starts) is the interruption, not the engine's fault.
      if (stopping()) return;
      // A bad configuration shows on the first start; after that, a failed restart is scored as a crash unless
      // it keeps failing.
      if (!ever_started_[size_t(e)] || ++start_failures_[size_t(e)] >= MAX_START_FAILURES) {
        if (fatal_.empty()) fatal_ = names_[size_t(e)] + ": " + ready.error();
        stop_ = true;
        return;
      }
      game = game::unstarted_game(config_.game, config_.engines[size_t(s.black)], config_.engines[size_t(s.white)],
                                  openings_[size_t(s.opening)].position, e == s.black ? shogi::BLACK : shogi::WHITE,
                                  ready.error());
      started = false;
      break;
    }
    if (started) {
      std::unique_ptr<game::GameWatcher> watcher = observer.watch_game(s, attempt);
      engines.watch_with(watcher.get());
      try {
        game = engines.play(s.black, s.white, openings_[size_t(s.opening)].position, &stop_);
      } catch (const std::exception& e) {
        game = PlayedGame{};
        game.names[shogi::BLACK] = names_[size_t(s.black)];
        game.names[shogi::WHITE] = names_[size_t(s.white)];
        game.start_sfen = std::string(shogi::START_SFEN);
        game.result.termination = Termination::Interrupted;
        game.result.detail = std::string("runner error: ") + e.what();
      }
      engines.watch_with(nullptr);
      std::lock_guard lock(mutex_);
      say_notices();
    }
    if (game.result.termination == Termination::Interrupted && stopping()) return;  // not journaled: replayed on resume
    if (game.result.termination == Termination::Disconnect && signalled_soon(external_stop_)) return;  // likewise

    const bool replay = broken(game) && config_.replay_broken_pairs && attempt < config_.max_replays;
    if (!record(s, attempt, replay, game, started, observer)) return;

    for (int e : {s.black, s.white}) {
      if (config_.restart == config::RestartPolicy::Always || !engines.alive(e)) {
        engines.release(e);
        held.erase(std::remove(held.begin(), held.end(), e), held.end());
      }
    }
    if (replay) {
      ++attempt;
      done[0] = done[1] = false;
      g = 0;
      continue;
    }
    done[g] = true;
    ++g;
  }
}

bool Tournament::record(const ScheduledGame& s, int attempt, bool replay, const PlayedGame& game, bool kifu,
                        Observer& observer) {
  if (sprt_decided_) return false;  // checked again under the lock below
  // Formatting and kifu files outside the lock; the journal line and the standings under it.
  std::vector<std::string> warnings;
  std::vector<std::string> records;
  if (kifu) records = write_records(records_, s, attempt, game, warnings);
  const journal::JournaledGame journaled = journal::journaled({.game = s.index,
                                                               .pair = s.pair,
                                                               .game_in_pair = s.game_in_pair,
                                                               .round = s.round,
                                                               .attempt = attempt,
                                                               .opening = s.opening,
                                                               .replay = replay},
                                                              game);

  std::lock_guard lock(mutex_);
  for (const std::string& w : warnings) observer.warning(w);
  // The journal ends where the SPRT decided: a game finishing after the verdict is dropped like an interrupted
  // one, so the stats command and a resume see the same verdict as this run.
  if (sprt_decided_) return false;
  if (auto w = journal_.append(journaled.line); !w) {
    if (fatal_.empty()) fatal_ = w.error();
    stop_ = true;
    return false;
  }
  ++played_;
  for (const MoveRecord& m : game.moves) engine_moves_ += m.opening ? 0 : 1;
  tally_.add(journaled.summary);
  observer.game_finished(journaled, records, tally_);
  if (!sprt_decided_ && tally_.sprt_decided()) {
    sprt_decided_ = true;
    stop_ = true;  // the test has decided: the running games are interrupted and not journaled
  }
  return true;
}

int exit_code(const RunResult& result, const config::Config& config, const Tally& tally, bool shard) {
  if (result.end == RunEnd::Error || result.end == RunEnd::Interrupted) return 2;
  if (shard) return 0;
  if (config.type != config::TournamentType::Sprt) return 0;
  switch (sprt_status(tally, config.sprt).verdict) {
    case stats::SprtVerdict::AcceptH1:
      return 0;
    case stats::SprtVerdict::AcceptH0:
      return 1;
    case stats::SprtVerdict::Continue:
      return 2;
  }
  return 2;
}

}  // namespace arena::tournament
