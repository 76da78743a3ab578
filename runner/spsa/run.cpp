#include "spsa/run.h"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <thread>

#include "config/values.h"
#include "game/game.h"
#include "journal/spsa_pair.h"
#include "run/run_journal.h"
#include "spsa/applier.h"
#include "usi/usi_option.h"

namespace arena::spsa {

namespace fs = std::filesystem;

namespace {

constexpr size_t kRecentPairs = 100;

run::Schedule make_schedule(const config::Config& c, size_t openings) {
  run::Schedule::Params p;
  p.type = config::TournamentType::Spsa;
  p.engines = 2;
  p.rounds = int(c.spsa.schedule.iterations);
  p.openings = int(openings);
  p.order = c.openings.order;
  p.seed = c.openings.seed;
  p.games_per_pair = 2;
  return run::Schedule(p);
}

bool same_params(const std::vector<stats::SpsaParam>& a, const std::vector<stats::SpsaParam>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].name != b[i].name || a[i].integer != b[i].integer || a[i].start != b[i].start || a[i].min != b[i].min ||
        a[i].max != b[i].max || a[i].c_end != b[i].c_end || a[i].r_end != b[i].r_end)
      return false;
  return true;
}

}  // namespace

std::vector<game::EngineConfig> spsa_sides(const game::EngineConfig& engine) {
  std::vector<game::EngineConfig> sides(2, engine);
  sides[0].name = engine.name + "+";
  sides[1].name = engine.name + "-";
  return sides;
}

Run::Run(config::Config config, std::vector<openings::Opening> openings, run::EngineFactory factory,
         std::optional<journal::Shard> shard)
    : config_(std::move(config)),
      openings_(std::move(openings)),
      schedule_(make_schedule(config_, openings_.size())),
      shard_(shard),
      journal_path_(config_.output.journal),
      core_({.output_dir = config_.output.dir,
             .shard = shard,
             .engines = spsa_sides(config_.engines.at(0)),
             .game = config_.game,
             .restart = config_.restart,
             .factory = std::move(factory)}),
      tally_({}, {}, 2) {
  names_[0] = core_.settings().engines[0].name;
  names_[1] = core_.settings().engines[1].name;
  tally_ = standings::Tally({names_[0], names_[1]}, schedule_.pairings(), 2);
  if (config_.output.csa || config_.output.kif)
    records_ = run::RecordSettings{(fs::path(config_.output.dir) / "games").string(), config_.output.csa,
                                   config_.output.kif};
}

Run::~Run() = default;

std::expected<std::vector<bool>, std::string> Run::check_engine_options() {
  // The plus side's engine, started once by the engines the run plays with, then stopped.
  std::unique_ptr<run::WorkerEngines> engines = core_.settings().factory(0);
  if (auto started = engines->prepare(0); !started) return std::unexpected(started.error());
  const std::vector<usi::OptionSpec> declared = engines->declared_options(0);
  engines->release(0);
  std::vector<bool> rounded;
  std::string offered;
  for (const usi::OptionSpec& o : declared) offered += (offered.empty() ? "" : ", ") + o.name;
  for (const stats::SpsaParam& p : config_.spsa.params) {
    const std::string who = "parameter '" + p.name + "'";
    const std::optional<usi::OptionSpec> o = usi::find_option(declared, p.name);
    if (!o)
      return std::unexpected(who + ": engine '" + config_.engines[0].name + "' has no option '" + p.name +
                             "' (it offers: " + (offered.empty() ? "none" : offered) + ")");
    if (o->type == usi::OptionType::Spin) {
      const double low = std::ceil(p.min), high = std::floor(p.max);
      if (high - low < 1)
        return std::unexpected(who + ": the engine's option " + o->name +
                               " is a spin, which takes whole numbers, and the range " + config::number_text(p.min) +
                               ".." + config::number_text(p.max) +
                               " holds fewer than two; give the range in the option's own units");
      if (!o->min || !o->max || double(*o->min) > low || double(*o->max) < high)
        return std::unexpected(who + ": the engine's spin option " + o->name + " takes " +
                               (o->min && o->max ? std::to_string(*o->min) + ".." + std::to_string(*o->max)
                                                 : std::string("no declared range")) +
                               ", which does not hold the parameter's range " + config::number_text(p.min) + ".." +
                               config::number_text(p.max));
      rounded.push_back(true);  // a spin takes whole numbers: floats too are sent by stochastic rounding
    } else if (o->type == usi::OptionType::String) {
      rounded.push_back(p.integer);
    } else {
      return std::unexpected(who + ": the engine's option " + o->name + " is a " +
                             std::string(usi::to_string(o->type)) +
                             "; a tuned parameter needs a spin (or a string option for a float)");
    }
  }
  return rounded;
}

std::expected<void, std::string> Run::open(Observer& observer, const provision::Findings& findings) {
  auto rounded = check_engine_options();
  if (!rounded) return std::unexpected(rounded.error());
  // Both sides are the engine just started: a side that later fails to start has crashed, as in a tournament.
  core_.started_before_run(0);
  core_.started_before_run(1);
  tuner_ = std::make_unique<Tuner>(config_.spsa.params, config_.spsa.schedule, config_.spsa.seed, *rounded);

  std::vector<std::string> positions;
  for (const openings::Opening& o : openings_) positions.push_back(o.position);
  journal::JournalHeader header;
  header.type = "spsa";
  header.engines = {names_[0], names_[1]};
  header.games = schedule_.games();
  header.games_per_pair = 2;
  header.schedule = run::schedule_id(schedule_, header.engines, positions);
  header.spsa = journal::SpsaSpec{config_.engines[0].name, config_.spsa.params, config_.spsa.schedule,
                                  config_.spsa.seed, *rounded};
  auto opened = run::open_run_journal(config_, findings, std::move(header), shard_, records_.dir);
  if (!opened) return std::unexpected(opened.error());
  for (const std::string& w : opened->warnings) observer.warning(w);
  journal_path_ = opened->path;
  if (shard_) {
    // Every pair journaled in any segment is done, whichever process played it.
    for (const journal::JournalGame& g : opened->games) {
      tally_.add(g);
      if (g.game_in_pair == 0) done_.insert(g.pair + 1);
    }
  } else if (opened->resumed) {
    journal::JournalContents& contents = *opened->resumed;
    if (!contents.header->spsa || !same_params(contents.header->spsa->params, config_.spsa.params))
      return std::unexpected(journal_path_ + ": the journal tunes other parameters (or from other starts or ranges)");
    for (const journal::SpsaPair& p : contents.spsa_pairs) {
      if (p.k > config_.spsa.schedule.iterations || !done_.insert(p.k).second)
        return std::unexpected(journal_path_ + ": pair " + std::to_string(p.k) +
                               " is beyond the run or journaled twice");
      if (p.theta) tuner_->restore(*p.theta);
      recent_.push_back(p.result);
      if (recent_.size() > kRecentPairs) recent_.pop_front();
    }
    for (const journal::JournalGame& g : contents.games) tally_.add(g);
    resumed_history_ = std::move(contents.spsa_pairs);
  }
  resumed_ = int64_t(done_.size());
  journal_ = std::move(opened->writer);
  return {};
}

std::optional<int64_t> Run::claim() {
  while (next_k_ <= config_.spsa.schedule.iterations) {
    const int64_t k = next_k_++;
    if (done_.contains(k) || (shard_ && !shard_->owns_pair(k - 1))) continue;
    return k;
  }
  return std::nullopt;
}

void Run::tick() { observer_->tick(progress_locked()); }

bool Run::wait_for_theta(int64_t k) {
  using clock = std::chrono::steady_clock;
  const int64_t window = 2 * int64_t(shard_->count) * std::max(1, config_.concurrency);
  const std::string path = theta_path(config_.output.dir);
  // The coordinator republishes theta every 30 s while it runs: a file that stops changing means its job is gone.
  // Its time stamp is compared with itself only (the nodes' clocks may differ).
  std::optional<fs::file_time_type> stamp;
  const auto waiting_since = clock::now();
  auto changed = waiting_since, noted = waiting_since;
  const auto timeout = std::chrono::seconds(config_.spsa.coordinator_timeout_s);
  for (;;) {
    const auto published = read_published_theta(config_.output.dir, config_.spsa.params.size());
    const int64_t applied = published ? published->applied : 0;
    if (applied >= k - window) return true;
    const auto now = clock::now();
    std::error_code ec;
    if (const fs::file_time_type t = fs::last_write_time(path, ec); !ec && (!stamp || t != *stamp))
      stamp = t, changed = now;
    {
      std::lock_guard lock(core_.mutex());
      // Stopping (a signal, a fatal error), or OUT/STOP: the coordinator has given up waiting for some pairs.
      if (core_.stopping() || core_.stop_file_seen_locked()) return false;
      const auto seconds = [](clock::duration d) {
        return std::to_string(std::chrono::duration_cast<std::chrono::seconds>(d).count());
      };
      if (now - changed >= timeout) {
        core_.fatal_locked(path + ": the coordinator has not published theta for " + seconds(now - changed) +
                           " s (is its job running?); the pairs played are journaled: submit the run again to go on");
        return false;
      }
      if (now - noted >= std::chrono::seconds(60)) {
        noted = now;
        observer_->warning("pair " + std::to_string(k) + " waits for the coordinator to apply pair " +
                           std::to_string(k - window) + " (" + std::to_string(applied) + " applied; waiting " +
                           seconds(now - waiting_since) + " s)");
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

void Run::play(int64_t k, run::Worker& worker) {
  if (shard_ && !wait_for_theta(k)) return;
  // The signs and values of pair k come from theta as it is now: a shard's, as the coordinator published it (read
  // outside the lock: a file on NFS may be slow).
  std::optional<PublishedTheta> published;
  if (shard_) published = read_published_theta(config_.output.dir, config_.spsa.params.size());
  journal::SpsaPair pair;
  {
    std::lock_guard lock(core_.mutex());
    if (published)
      tuner_->restore(published->theta);
    else if (shard_ && k > 2 * int64_t(shard_->count) * std::max(1, config_.concurrency))
      observer_->warning(theta_path(config_.output.dir) + ": cannot read theta; pair " + std::to_string(k) +
                         " plays the last theta read");
    pair = tuner_->dispatch(k);
  }
  const int64_t first_game = 2 * (pair.k - 1);
  const std::string& start = openings_[size_t(schedule_.game(first_game).opening)].position;
  const game::OptionList plus = tuner_->options(pair.plus), minus = tuner_->options(pair.minus);
  PlayedGame games[2];
  for (int g = 0; g < 2; ++g) {
    if (core_.stopping()) return;
    // theta+ (engine 0) is black in the pair's first game.
    const run::ScheduledGame s = schedule_.game(first_game + g);
    const game::OptionList options[2] = {s.black == 0 ? plus : minus, s.black == 0 ? minus : plus};
    auto played = worker.play(s, 0, start, &options);
    if (!played) return;  // not journaled: a resumed run plays the pair again
    // A pair is never replayed: a game the runner failed in would tell theta nothing.
    if (!played->runner_error.empty()) {
      core_.fatal(played->runner_error);
      return;
    }
    games[g] = std::move(played->game);
  }
  record(pair, games);
}

bool Run::record(journal::SpsaPair& pair, PlayedGame games[2]) {
  const double plus_wins =
      double(games[0].result.outcome == Outcome::BlackWin) + double(games[1].result.outcome == Outcome::WhiteWin);
  const double minus_wins =
      double(games[0].result.outcome == Outcome::WhiteWin) + double(games[1].result.outcome == Outcome::BlackWin);
  pair.result = plus_wins - minus_wins;
  // Kifu and game lines outside the lock; the update, the pair's line and the standings under it.
  std::vector<std::string> warnings;
  journal::JournaledGame journaled[2];
  for (int g = 0; g < 2; ++g) {
    const run::ScheduledGame s = schedule_.game(2 * (pair.k - 1) + g);
    if (!records_.dir.empty()) run::write_records(records_, s, 0, games[g], warnings);
    journaled[g] = journal::journaled({.game = s.index,
                                       .pair = s.pair,
                                       .game_in_pair = s.game_in_pair,
                                       .round = s.round,
                                       .attempt = 0,
                                       .opening = s.opening,
                                       .replay = false},
                                      games[g]);
  }
  std::lock_guard lock(core_.mutex());
  for (const std::string& w : warnings) observer_->warning(w);
  if (!shard_) tuner_->apply(pair);  // a shard's pairs are the coordinator's to apply
  if (auto w = journal_.append(journal::spsa_pair_line(pair, journaled[0].line, journaled[1].line)); !w) {
    core_.fatal_locked(w.error());
    return false;
  }
  done_.insert(pair.k);
  ++played_;
  for (const journal::JournaledGame& j : journaled) tally_.add(j.summary);
  recent_.push_back(pair.result);
  if (recent_.size() > kRecentPairs) recent_.pop_front();
  observer_->pair_finished(pair, journaled[0], journaled[1], progress_locked());
  return true;
}

Progress Run::progress_locked() const {
  Progress p;
  p.pairs_done = int64_t(done_.size());
  p.pairs_total = config_.spsa.schedule.iterations;
  p.theta = tuner_->theta();
  double sum = 0;
  for (double r : recent_) sum += r;
  p.recent_pairs = int64_t(recent_.size());
  p.recent_mean = recent_.empty() ? 0 : sum / double(recent_.size());
  p.faults = tally_.faults();
  return p;
}

Progress Run::progress() const {
  std::lock_guard lock(core_.mutex());
  return progress_locked();
}

RunResult Run::run(Observer& observer, const std::atomic<bool>* stop) {
  observer_ = &observer;
  const int64_t remaining = config_.spsa.schedule.iterations - int64_t(done_.size());
  const int workers = int(std::max<int64_t>(1, std::min<int64_t>(config_.concurrency, remaining)));
  return core_.run(*this, workers, observer, stop);
}

}  // namespace arena::spsa
