#include "spsa/run.h"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <thread>

#include "config/values.h"
#include "game/game.h"
#include "journal/run_start.h"
#include "journal/segments.h"
#include "journal/spsa_pair.h"
#include "process/engine_process.h"
#include "spsa/applier.h"
#include "tournament/engines.h"
#include "usi/usi_client.h"

namespace arena::spsa {

namespace fs = std::filesystem;

namespace {

constexpr size_t kRecentPairs = 100;
constexpr int kMaxStartFailures = 3;  // in a row, for one side of one worker: then the run stops

tournament::Schedule make_schedule(const config::Config& c, size_t openings) {
  tournament::Schedule::Params p;
  p.type = config::TournamentType::Spsa;
  p.engines = 2;
  p.rounds = int(c.spsa.schedule.iterations);
  p.openings = int(openings);
  p.order = c.openings.order;
  p.seed = c.openings.seed;
  p.games_per_pair = 2;
  return tournament::Schedule(p);
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

// One worker's two engine processes (theta+ and theta-) on one event loop, kept across pairs.
class Run::Worker {
 public:
  Worker(const Run& run, int id) : loop_(std::make_shared<process::EventLoop>()) {
    for (int side = 0; side < 2; ++side) {
      game::EngineConfig c = run.config_.engines[0];
      c.name = run.names_[side];
      // This worker's thread starts, plays and stops these engines: they may die with it (kill -9 of the runner).
      c.die_with_starting_thread = true;
      run.logs_.configure(c, id);
      c.rules = game::GameRules{run.config_.game.entering_king, run.config_.game.max_plies};
      c.interrupt = &run.stop_;  // a stopping run does not wait out an engine's start
      configs_[side] = std::move(c);
    }
  }

  // The side running with `options` set; the error says why not (a dead engine that cannot be restarted).
  std::expected<void, std::string> ready(int side, const std::vector<std::pair<std::string, std::string>>& options) {
    auto& p = players_[side];
    if (!p || !p->running()) {
      if (!p) p = std::make_unique<game::Player>(configs_[side], loop_);
      auto started = p->start();
      notices_.add(p->take_notices());
      if (!started) {
        ++failures_[side];
        return started;
      }
    }
    if (auto set = p->set_options(options); !set) {
      ++failures_[side];
      return set;
    }
    failures_[side] = 0;
    return {};
  }
  int failures(int side) const { return failures_[side]; }
  // What the starts and games since the last call showed of the engines (game::Player::take_notices).
  game::Player::Notices take_notices() {
    for (auto& p : players_)
      if (p) notices_.add(p->take_notices());
    return std::exchange(notices_, {});
  }
  const game::EngineConfig& config(int side) const { return configs_[side]; }
  game::Player& player(int side) { return *players_[side]; }
  void release_dead(bool always) {
    for (auto& p : players_)
      if (p && (always || !p->running())) {
        p->stop();
        p.reset();
      }
  }

 private:
  std::shared_ptr<process::EventLoop> loop_;
  game::EngineConfig configs_[2];
  std::unique_ptr<game::Player> players_[2];
  int failures_[2] = {0, 0};
  game::Player::Notices notices_;
};

Run::Run(config::Config config, std::vector<tournament::Opening> openings, std::optional<journal::Shard> shard)
    : config_(std::move(config)),
      openings_(std::move(openings)),
      schedule_(make_schedule(config_, openings_.size())),
      shard_(shard),
      journal_path_(config_.output.journal),
      tally_({}, {}, 2) {
  const std::string& name = config_.engines.at(0).name;
  names_[0] = name + "+";
  names_[1] = name + "-";
  tally_ = tournament::Tally({names_[0], names_[1]}, schedule_.pairings(), 2);
  if (config_.output.csa || config_.output.kif)
    records_ = tournament::RecordSettings{(fs::path(config_.output.dir) / "games").string(), config_.output.csa,
                                          config_.output.kif};
}

Run::~Run() = default;

std::expected<std::vector<bool>, std::string> Run::check_engine_options() {
  game::EngineConfig c = config_.engines[0];
  game::Player player(c);
  if (auto started = player.start(); !started) return std::unexpected(started.error());
  std::vector<bool> rounded;
  std::string offered;
  for (const usi::OptionSpec& o : player.client().options()) offered += (offered.empty() ? "" : ", ") + o.name;
  for (const stats::SpsaParam& p : config_.spsa.params) {
    const std::string who = "parameter '" + p.name + "'";
    std::optional<usi::OptionSpec> o = player.client().find_option(p.name);
    if (!o)
      return std::unexpected(who + ": engine '" + player.name() + "' has no option '" + p.name +
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
  player.stop();
  return rounded;
}

std::expected<void, std::string> Run::open(Observer& observer) {
  auto rounded = check_engine_options();
  if (!rounded) return std::unexpected(rounded.error());
  tuner_ = std::make_unique<Tuner>(config_.spsa.params, config_.spsa.schedule, config_.spsa.seed, *rounded);

  if (auto made = journal::make_output_folders(config_, records_.dir); !made) return made;
  auto logs = tournament::engine_logs_of(config_, shard_);
  if (!logs) return std::unexpected(logs.error());
  logs_ = std::move(*logs);

  std::vector<std::string> positions;
  for (const tournament::Opening& o : openings_) positions.push_back(o.position);
  journal::JournalHeader header;
  header.type = "spsa";
  header.engines = {names_[0], names_[1]};
  header.games = schedule_.games();
  header.games_per_pair = 2;
  header.schedule = tournament::schedule_id(schedule_, header.engines, positions);
  if (auto stamped = journal::stamp_header(header, config_); !stamped) return stamped;
  header.spsa = journal::SpsaSpec{config_.engines[0].name, config_.spsa.params, config_.spsa.schedule,
                                  config_.spsa.seed, *rounded};
  if (shard_) return open_segment(std::move(header), observer);

  const std::string& path = config_.output.journal;
  auto resumed = journal::read_journal_to_resume(config_.output.dir, path, header, config_.resume, config_.overwrite);
  if (!resumed) return std::unexpected(resumed.error());
  if (!*resumed) {
    auto writer = journal::JournalWriter::create(path, header);
    if (!writer) return std::unexpected(writer.error());
    journal_ = std::move(*writer);
    return {};
  }
  journal::JournalContents& contents = **resumed;
  for (const std::string& w : contents.warnings) observer.warning(w);
  if (!contents.header->spsa || !same_params(contents.header->spsa->params, config_.spsa.params))
    return std::unexpected(path + ": the journal tunes other parameters (or from other starts or ranges)");
  for (const journal::SpsaPair& p : contents.spsa_pairs) {
    if (p.k > config_.spsa.schedule.iterations || !done_.insert(p.k).second)
      return std::unexpected(path + ": pair " + std::to_string(p.k) + " is beyond the run or journaled twice");
    if (p.theta) tuner_->restore(*p.theta);
    recent_.push_back(p.result);
    if (recent_.size() > kRecentPairs) recent_.pop_front();
  }
  for (const journal::JournalGame& g : contents.games) tally_.add(g);
  resumed_ = int64_t(done_.size());
  resumed_history_ = std::move(contents.spsa_pairs);
  auto writer = journal::JournalWriter::append_to(path, contents.valid_size);
  if (!writer) return std::unexpected(writer.error());
  journal_ = std::move(*writer);
  return {};
}

std::expected<void, std::string> Run::open_segment(journal::JournalHeader header, Observer& observer) {
  header.shard = *shard_;
  // Every pair journaled in any segment is done, whichever process played it; a segment of another run is refused.
  auto merged =
      journal::read_segments_to_resume(config_.output.dir, header, *shard_, config_.resume, config_.overwrite);
  if (!merged) return std::unexpected(merged.error());
  for (const std::string& w : merged->warnings) observer.warning(w);
  for (const journal::JournalGame& g : merged->games) {
    tally_.add(g);
    if (g.game_in_pair == 0) done_.insert(g.pair + 1);
  }
  resumed_ = int64_t(done_.size());
  journal_path_ = journal::new_segment_path(config_.output.dir, *shard_);
  auto writer = journal::JournalWriter::create(journal_path_, header, true);
  if (!writer) return std::unexpected(writer.error());
  journal_ = std::move(*writer);
  return {};
}

bool Run::stop_file_seen() {
  if (!shard_ || stopped_by_file_) return stopped_by_file_;
  std::error_code ec;
  stopped_by_file_ = fs::exists(fs::path(config_.output.dir) / "STOP", ec);
  return stopped_by_file_;
}

bool Run::reserve_pair(int64_t& k) {
  // Called with mutex_ held.
  while (!stop_ && next_k_ <= config_.spsa.schedule.iterations) {
    k = next_k_++;
    if (done_.contains(k) || (shard_ && !shard_->owns_pair(k - 1))) continue;
    return !stop_file_seen();
  }
  return false;
}

bool Run::wait_for_theta(int64_t k, Observer& observer) {
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
      std::lock_guard lock(mutex_);
      if (stop_ || stop_file_seen()) return false;
      const auto seconds = [](clock::duration d) {
        return std::to_string(std::chrono::duration_cast<std::chrono::seconds>(d).count());
      };
      if (now - changed >= timeout) {
        if (fatal_.empty())
          fatal_ = path + ": the coordinator has not published theta for " + seconds(now - changed) +
                   " s (is its job running?); the pairs played are journaled: submit the run again to go on";
        stop_ = true;
        return false;
      }
      if (now - noted >= std::chrono::seconds(60)) {
        noted = now;
        observer.warning("pair " + std::to_string(k) + " waits for the coordinator to apply pair " +
                         std::to_string(k - window) + " (" + std::to_string(applied) + " applied; waiting " +
                         seconds(now - waiting_since) + " s)");
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

void Run::fatal(const std::string& error) {
  std::lock_guard lock(mutex_);
  if (fatal_.empty()) fatal_ = error;
  stop_ = true;
}

void Run::worker(int id, Observer& observer) {
  try {
    play_pairs(id, observer);
  } catch (const std::exception& e) {
    fatal(std::string("runner error: ") + e.what());
  }
  std::lock_guard lock(mutex_);
  --running_workers_;
  cv_.notify_all();
}

void Run::play_pairs(int id, Observer& observer) {
  Worker engines(*this, id);
  for (;;) {
    int64_t k = 0;
    {
      std::lock_guard lock(mutex_);
      if (!reserve_pair(k)) break;
    }
    if (shard_ && !wait_for_theta(k, observer)) return;
    // The signs and values of pair k come from theta as it is now: a shard's, as the coordinator published it (read
    // outside the lock: a file on NFS may be slow).
    std::optional<PublishedTheta> published;
    if (shard_) published = read_published_theta(config_.output.dir, config_.spsa.params.size());
    journal::SpsaPair pair;
    {
      std::lock_guard lock(mutex_);
      if (published)
        tuner_->restore(published->theta);
      else if (shard_ && k > 2 * int64_t(shard_->count) * std::max(1, config_.concurrency))
        observer.warning(theta_path(config_.output.dir) + ": cannot read theta; pair " + std::to_string(k) +
                         " plays the last theta read");
      pair = tuner_->dispatch(k);
    }
    const int64_t first_game = 2 * (pair.k - 1);
    const std::string& start = openings_[size_t(schedule_.game(first_game).opening)].position;
    const std::vector<std::pair<std::string, std::string>> options[2] = {tuner_->options(pair.plus),
                                                                         tuner_->options(pair.minus)};
    // What the engines' starts and games showed of them, each line once a run.
    auto say_notices = [&] {
      std::lock_guard lock(mutex_);
      tournament::say_once(
          engines.take_notices(), said_, [&](const std::string& n) { observer.note(n); },
          [&](const std::string& w) { observer.warning(w); });
    };
    PlayedGame games[2];
    for (int g = 0; g < 2; ++g) {
      const int black = g;  // theta+ is black in the pair's first game
      bool ready = true;
      for (int side : {black, 1 - black}) {
        auto r = engines.ready(side, options[side]);
        say_notices();
        if (r) continue;
        if (engines.failures(side) >= kMaxStartFailures) {
          fatal(names_[side] + ": " + r.error());
          return;
        }
        games[g] = game::unstarted_game(config_.game, engines.config(black), engines.config(1 - black), start,
                                        side == black ? shogi::BLACK : shogi::WHITE, r.error());
        ready = false;
        break;
      }
      if (ready) {
        std::unique_ptr<game::GameWatcher> watcher = observer.watch_game(first_game + g, pair.k - 1);
        games[g] = game::play_game(engines.player(black), engines.player(1 - black), start, config_.game, &stop_,
                                   watcher.get());
      }
      // A game the runner stopped is not journaled: its pair is played again by a resumed run. Nor is one whose
      // engine died of the signal that stops the runner (a batch system's): its result says nothing of theta.
      if (games[g].result.termination == Termination::Interrupted && stop_) return;
      if (games[g].result.termination == Termination::Disconnect && tournament::signalled_soon(external_stop_)) return;
      say_notices();
      engines.release_dead(config_.restart == config::RestartPolicy::Always);
    }
    if (!record(pair, games, observer)) return;
  }
}

bool Run::record(journal::SpsaPair& pair, PlayedGame games[2], Observer& observer) {
  const double plus_wins =
      double(games[0].result.outcome == Outcome::BlackWin) + double(games[1].result.outcome == Outcome::WhiteWin);
  const double minus_wins =
      double(games[0].result.outcome == Outcome::WhiteWin) + double(games[1].result.outcome == Outcome::BlackWin);
  pair.result = plus_wins - minus_wins;
  // Kifu and game lines outside the lock; the update, the pair's line and the standings under it.
  std::vector<std::string> warnings;
  journal::JournaledGame journaled[2];
  for (int g = 0; g < 2; ++g) {
    const tournament::ScheduledGame s = schedule_.game(2 * (pair.k - 1) + g);
    if (!records_.dir.empty()) tournament::write_records(records_, s, 0, games[g], warnings);
    journaled[g] = journal::journaled({.game = s.index,
                                       .pair = s.pair,
                                       .game_in_pair = s.game_in_pair,
                                       .round = s.round,
                                       .attempt = 0,
                                       .opening = s.opening,
                                       .replay = false},
                                      games[g]);
  }
  std::lock_guard lock(mutex_);
  for (const std::string& w : warnings) observer.warning(w);
  if (!shard_) tuner_->apply(pair);  // a shard's pairs are the coordinator's to apply
  if (auto w = journal_.append(journal::spsa_pair_line(pair, journaled[0].line, journaled[1].line)); !w) {
    if (fatal_.empty()) fatal_ = w.error();
    stop_ = true;
    return false;
  }
  done_.insert(pair.k);
  ++played_;
  for (const journal::JournaledGame& j : journaled) tally_.add(j.summary);
  recent_.push_back(pair.result);
  if (recent_.size() > kRecentPairs) recent_.pop_front();
  observer.pair_finished(pair, journaled[0], journaled[1], progress_locked());
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
  std::lock_guard lock(mutex_);
  return progress_locked();
}

RunResult Run::run(Observer& observer, const std::atomic<bool>* stop) {
  external_stop_ = stop;
  const int64_t remaining = config_.spsa.schedule.iterations - int64_t(done_.size());
  const int workers = int(std::max<int64_t>(1, std::min<int64_t>(config_.concurrency, remaining)));
  if (std::string w = config::oversubscription_warning(workers, config::default_concurrency()); !w.empty())
    observer.warning(w);
  std::vector<std::thread> threads;
  running_workers_ = workers;
  for (int i = 0; i < workers; ++i) threads.emplace_back([this, i, &observer] { worker(i, observer); });
  {
    std::unique_lock lock(mutex_);
    while (running_workers_ > 0) {
      cv_.wait_for(lock, std::chrono::milliseconds(100));
      if (stop && stop->load() && !stop_) {
        interrupted_ = true;
        stop_ = true;
      }
      // Under the lock, as every other call of the observer: the console is not for two threads at once.
      observer.tick(progress_locked());
    }
  }
  for (std::thread& t : threads) t.join();
  RunResult r;
  r.pairs_played = played_;
  if (!fatal_.empty())
    r.end = RunEnd::Error, r.error = fatal_;
  else if (interrupted_ || (!shard_ && int64_t(done_.size()) < config_.spsa.schedule.iterations))
    r.end = RunEnd::Interrupted;
  return r;
}

}  // namespace arena::spsa
