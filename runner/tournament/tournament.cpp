#include "tournament/tournament.h"

#include <algorithm>
#include <filesystem>

#include "journal/segments.h"
#include "rules/game_end.h"
#include "run/run_journal.h"

namespace arena::tournament {

namespace fs = std::filesystem;

namespace {

bool broken(const PlayedGame& game) {
  return game.result.termination == Termination::Disconnect || game.result.termination == Termination::Interrupted;
}

run::Schedule make_schedule(const config::Config& c, size_t openings) {
  run::Schedule::Params p;
  p.type = c.type;
  p.engines = int(c.engines.size());
  p.rounds = c.rounds;
  p.openings = int(openings);
  p.order = c.openings.order;
  p.seed = c.openings.seed;
  p.games_per_pair = c.type == config::TournamentType::Play && !c.pair ? 1 : 2;
  return run::Schedule(p);
}

}  // namespace

Tournament::Tournament(config::Config config, std::vector<openings::Opening> openings, run::EngineFactory factory,
                       std::optional<journal::Shard> shard)
    : config_(std::move(config)),
      openings_(std::move(openings)),
      schedule_(make_schedule(config_, openings_.size())),
      shard_(shard),
      core_({.output_dir = config_.output.dir,
             .shard = shard,
             .engines = config_.engines,
             .game = config_.game,
             .restart = config_.restart,
             .factory = std::move(factory)}),
      tally_({}, {}, 2) {
  for (const game::EngineConfig& e : config_.engines) names_.push_back(e.name);
  tally_ = standings::Tally(names_, schedule_.pairings(), schedule_.games_per_pair());
  // A shard's part of an SPRT decides nothing: the coordinator tests all shards' games.
  if (config_.type == config::TournamentType::Sprt && !shard_) tally_.decide_sprt(config_.sprt);
  if (config_.output.csa || config_.output.kif)
    records_ =
        run::RecordSettings{(fs::path(config_.output.dir) / "games").string(), config_.output.csa, config_.output.kif};
}

Tournament::~Tournament() = default;

std::expected<void, std::string> Tournament::open(Observer& observer, const provision::Findings& findings) {
  std::vector<std::string> positions;
  for (const openings::Opening& o : openings_) positions.push_back(o.position);
  journal::JournalHeader header;
  header.type = std::string(to_string(config_.type));
  header.engines = names_;
  header.games = schedule_.games();
  header.games_per_pair = schedule_.games_per_pair();
  header.schedule = run::schedule_id(schedule_, names_, positions);
  if (config_.type == config::TournamentType::Sprt) header.sprt = config_.sprt;
  header.rating_anchor = config_.rating_anchor;
  header.rating_anchor_elo = config_.rating_anchor_elo;
  auto opened = run::open_run_journal(config_, findings, std::move(header), shard_, records_.dir);
  if (!opened) return std::unexpected(opened.error());
  for (const std::string& w : opened->warnings) observer.warning(w);
  auto plan = run::ResumePlan::make(opened->games, schedule_, names_);
  if (!plan) return std::unexpected((shard_ ? journal::segments_dir(config_.output.dir) : opened->path) + ": " +
                                    plan.error());
  for (const std::string& w : plan->warnings()) observer.warning(w);
  plan_ = std::move(*plan);
  // The standings of this process: all the journal's games, or a shard's own pairs, whoever played them.
  for (const journal::JournalGame& g : opened->games)
    if (!shard_ || shard_->owns_pair(g.pair)) tally_.add(g), ++resumed_games_;
  journal_path_ = opened->path;
  journal_ = std::move(opened->writer);
  return {};
}

int64_t Tournament::games_to_play() const {
  if (!shard_) return schedule_.games();
  const int64_t pairs = schedule_.pairs();
  const int64_t owned = pairs > shard_->index ? (pairs - shard_->index + shard_->count - 1) / shard_->count : 0;
  return owned * schedule_.games_per_pair();
}

std::optional<int64_t> Tournament::claim() {
  while (next_pair_ < schedule_.pairs()) {
    const int64_t pair = next_pair_++;
    if (shard_ && !shard_->owns_pair(pair)) continue;
    const run::PairProgress p = plan_.pair(pair);
    bool all_done = true;
    for (int g = 0; g < schedule_.games_per_pair(); ++g) all_done = all_done && p.done[g];
    if (!all_done) return pair;
  }
  return std::nullopt;
}

void Tournament::tick() { observer_->tick(tally_); }

RunResult Tournament::run(Observer& observer, const std::atomic<bool>* external_stop) {
  observer_ = &observer;
  {
    std::lock_guard lock(core_.mutex());
    if (tally_.sprt_decided()) core_.decide_locked();
  }
  const int workers = int(std::max<int64_t>(1, std::min<int64_t>(config_.concurrency, schedule_.pairs())));
  return core_.run(*this, workers, observer, external_stop);
}

void Tournament::play(int64_t pair, run::Worker& worker) {
  const int gpp = schedule_.games_per_pair();
  run::PairProgress progress;
  {
    std::lock_guard lock(core_.mutex());
    progress = plan_.pair(pair);
  }
  int attempt = progress.attempt;
  bool done[2] = {progress.done[0], progress.done[1]};
  for (int g = 0; g < gpp;) {
    if (done[g]) {
      ++g;
      continue;
    }
    if (core_.stopping()) return;
    const run::ScheduledGame s = schedule_.game(pair * gpp + g);
    auto played = worker.play(s, attempt, openings_[size_t(s.opening)].position);
    if (!played) return;
    const PlayedGame& game = played->game;
    const bool replay = broken(game) && config_.replay_broken_pairs && attempt < config_.max_replays;
    if (!record(s, attempt, replay, game, played->started)) return;
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

bool Tournament::record(const run::ScheduledGame& s, int attempt, bool replay, const PlayedGame& game, bool kifu) {
  if (core_.decided()) return false;  // checked again under the lock below
  // Formatting and kifu files outside the lock; the journal line and the standings under it.
  std::vector<std::string> warnings;
  std::vector<std::string> records;
  if (kifu) records = run::write_records(records_, s, attempt, game, warnings);
  const journal::JournaledGame journaled = journal::journaled({.game = s.index,
                                                               .pair = s.pair,
                                                               .game_in_pair = s.game_in_pair,
                                                               .round = s.round,
                                                               .attempt = attempt,
                                                               .opening = s.opening,
                                                               .replay = replay},
                                                              game);

  std::lock_guard lock(core_.mutex());
  for (const std::string& w : warnings) observer_->warning(w);
  // The journal ends where the SPRT decided: a game finishing after the verdict is dropped like an interrupted
  // one, so the stats command and a resume see the same verdict as this run.
  if (core_.decided()) return false;
  if (auto w = journal_.append(journaled.line); !w) {
    core_.fatal_locked(w.error());
    return false;
  }
  ++played_;
  for (const MoveRecord& m : game.moves) engine_moves_ += m.opening ? 0 : 1;
  tally_.add(journaled.summary);
  observer_->game_finished(journaled, records, tally_);
  // The test has decided: the running games are interrupted and not journaled.
  if (tally_.sprt_decided()) core_.decide_locked();
  return true;
}

int exit_code(const RunResult& result, const config::Config& config, const standings::Tally& tally, bool shard) {
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
