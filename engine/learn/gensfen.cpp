#include "learn/gensfen.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <ostream>
#include <random>
#include <thread>

#include "eval/builtin_weights.h"
#include "learn/fixed_search.h"
#include "learn/progress.h"
#include "learn/training_record.h"
#include "rules/game_end.h"
#include "search/engine.h"

namespace shogi::learn {

namespace {

std::string trim(std::string s) {
  const auto not_space = [](unsigned char c) { return !std::isspace(c); };
  s.erase(s.begin(), std::find_if(s.begin(), s.end(), not_space));
  s.erase(std::find_if(s.rbegin(), s.rend(), not_space).base(), s.end());
  return s;
}

// The output file, shared by the threads: whole games go in with one write each, up to the target count.
class RecordSink {
 public:
  RecordSink(std::FILE* file, uint64_t already, uint64_t target) : file_(file), count_(already), target_(target) {}

  // Writes a finished game's records (or as many as the target still wants) and counts the game; false once the
  // target is reached or on error. A game that comes after the target is neither written nor counted.
  bool write(const std::vector<TrainingRecord>& records, const GameStatus& result) {
    std::lock_guard lock(mutex_);
    if (done_) return false;
    ++games_;
    if (result.draw)
      ++draws_;
    else
      ++(result.winner == BLACK ? wins_black_ : wins_white_);
    const size_t n = size_t(std::min<uint64_t>(records.size(), target_ - count_));
    if (n && (std::fwrite(records.data(), RECORD_SIZE, n, file_) != n || std::fflush(file_) != 0)) {
      error_ = "cannot write the output: " + std::string(std::strerror(errno));
      done_ = true;
      return false;
    }
    count_ += n;
    if (count_ >= target_) done_ = true;
    return !done_;
  }
  bool done() {
    std::lock_guard lock(mutex_);
    return done_;
  }
  void fill(GensfenSummary& s, uint64_t before) {
    std::lock_guard lock(mutex_);
    s.positions_written = count_ - before;
    s.games = games_;
    s.wins_black = wins_black_;
    s.wins_white = wins_white_;
    s.draws = draws_;
  }
  uint64_t count() {
    std::lock_guard lock(mutex_);
    return count_;
  }
  std::string error() {
    std::lock_guard lock(mutex_);
    return error_;
  }

 private:
  std::mutex mutex_;
  std::FILE* file_;
  uint64_t count_, target_;
  uint64_t games_ = 0, wins_black_ = 0, wins_white_ = 0, draws_ = 0;
  bool done_ = false;
  std::string error_;
};

// A self-playing engine of one thread, searching synchronously, with the run's weights.
class SelfPlayer {
 public:
  SelfPlayer(const GensfenOptions& options, std::shared_ptr<const kp::Weights> weights, uint64_t seed)
      : options_(options), rng_(seed), searcher_(std::move(weights), options.nodes, options.depth, options.hash_mb) {}

  // Plays one game from `opening` and returns its records with their results filled in, and the game's end; an
  // empty game when `stop` or `halt` came first.
  std::pair<std::vector<TrainingRecord>, GameStatus> play(const std::string& opening, const std::atomic<bool>& stop,
                                                          const std::atomic<bool>& halt) {
    auto abandoned = [&] { return stop.load(std::memory_order_relaxed) || halt.load(std::memory_order_relaxed); };
    std::vector<TrainingRecord> records;
    std::vector<Color> movers;
    GameRecord game;
    (void)game.start(opening, PieceLimits::Relaxed);  // validated when the suite was loaded
    searcher_.engine().new_game();
    (void)searcher_.engine().set_position(opening);

    // The plies (after the opening) that get a random near-best move instead of the best.
    std::vector<int> random_plies(size_t(std::max(0, options_.random_max_ply)));
    for (int i = 0; i < options_.random_max_ply; ++i) random_plies[size_t(i)] = i;
    std::shuffle(random_plies.begin(), random_plies.end(), rng_);
    random_plies.resize(std::min(random_plies.size(), size_t(std::max(0, options_.random_moves))));

    GameStatus status;
    while (!abandoned()) {
      status = game.status(options_.max_plies);
      if (status.end != GameEnd::None) break;
      const Position& pos = game.position();
      const Color us = pos.side_to_move();
      const int ply_in_game = int(game.moves().size() - game.opening_plies());
      const bool random_move = std::find(random_plies.begin(), random_plies.end(), ply_in_game) != random_plies.end();
      const SearchAnswer answer = searcher_.search(random_move ? options_.random_multipv : 1);
      if (answer.best == MOVE_WIN || answer.best == MOVE_RESIGN || answer.best == MOVE_NONE) {
        // A declaration wins; a resignation (no legal move) loses.
        status = {GameEnd::NoLegalMoves, false, answer.best == MOVE_WIN ? us : ~us};
        break;
      }
      if (answer.score != VALUE_NONE && std::abs(answer.score) >= options_.eval_limit) {
        // Adjudicated: the rest of a won game teaches nothing but costs most of the time. Mates land here too.
        status = {GameEnd::NoLegalMoves, false, answer.score > 0 ? us : ~us};
        break;
      }
      if (answer.score != VALUE_NONE && pos.game_ply() >= options_.write_min_ply && !pos.in_check() &&
          !pos.is_capture_or_promotion(answer.best)) {
        TrainingRecord r;
        r.position = pack_position(pos);
        r.score = int16_t(answer.score);
        r.move = to_move16(answer.best);
        r.ply = uint16_t(std::min(pos.game_ply(), 65535));
        records.push_back(r);
        movers.push_back(us);
      }
      const Move played = random_move ? pick_random(answer) : answer.best;
      game.play(played);
      searcher_.engine().play(played);
    }
    if (abandoned()) return {{}, status};
    for (size_t i = 0; i < records.size(); ++i)
      records[i].result = int8_t(status.draw ? 0 : movers[i] == status.winner ? 1 : -1);
    return {std::move(records), status};
  }

 private:
  Move pick_random(const SearchAnswer& answer) {
    std::vector<Move> near;
    for (const auto& [move, value] : answer.lines)
      if (move != MOVE_NONE && value != VALUE_NONE && answer.score != VALUE_NONE &&
          value >= answer.score - options_.random_margin)
        near.push_back(move);
    if (near.empty()) return answer.best;
    return near[std::uniform_int_distribution<size_t>(0, near.size() - 1)(rng_)];
  }

  const GensfenOptions& options_;
  std::mt19937_64 rng_;
  FixedSearcher searcher_;  // its engine's position is kept equal to the game's
};

// SplitMix64's finaliser: every input bit reaches every output bit (std::seed_seq would keep only 32 of them).
uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

}  // namespace

std::expected<std::vector<std::string>, std::string> load_start_positions(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::unexpected(path + ": cannot open the openings file");
  std::vector<std::string> positions;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    line = trim(line);
    if (line.empty() || line[0] == '#') continue;
    if (line.rfind("position ", 0) == 0) line = trim(line.substr(9));
    GameRecord record;
    if (auto r = record.start(line, PieceLimits::Relaxed); !r)
      return std::unexpected(path + ":" + std::to_string(number) + ": " + r.error());
    if (record.status(0).end != GameEnd::None)
      return std::unexpected(path + ":" + std::to_string(number) + ": the game is already over");
    positions.push_back(line);
  }
  if (positions.empty()) return std::unexpected(path + ": no positions in the openings file");
  return positions;
}

std::expected<GensfenSummary, std::string> run_gensfen(const GensfenOptions& options, std::ostream& log,
                                                       const std::atomic<bool>& stop) {
  if (options.output.empty()) return std::unexpected("no output file given");
  if (options.nodes == 0 && options.depth <= 0) return std::unexpected("give a node limit or a depth");
  if (options.threads < 1) return std::unexpected("threads must be at least 1");
  if (options.eval_limit < 1 || options.eval_limit > 30000)
    return std::unexpected("eval_limit must be 1..30000 centipawns (a record's score is 16 bits)");
  if (options.hash_mb < 1) return std::unexpected("hash must be at least 1 MB");

  auto weights = kp::weights_for_eval_file(options.eval_file);
  if (!weights) return std::unexpected(weights.error());

  std::vector<std::string> openings{"startpos"};
  if (!options.openings.empty()) {
    auto loaded = load_start_positions(options.openings);
    if (!loaded) return std::unexpected(loaded.error());
    openings = std::move(*loaded);
  }

  // Continue a file: count its whole records and cut off a torn last one.
  GensfenSummary summary;
  auto continued = inspect_record_file(options.output);
  if (!continued) return std::unexpected(continued.error());
  if (auto cut = cut_torn_record(options.output, *continued); !cut) return std::unexpected(cut.error());
  summary.torn_bytes_dropped = continued->torn_bytes;
  summary.positions_before = continued->records;
  if (summary.positions_before >= options.positions) return summary;

  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(options.output.c_str(), "ab"), &std::fclose);
  if (!file) return std::unexpected(options.output + ": cannot open for writing: " + std::strerror(errno));
  RecordSink sink(file.get(), summary.positions_before, options.positions);

  // Engines are built here, on one thread: their constructors fill shared tables.
  std::vector<std::unique_ptr<SelfPlayer>> players;
  for (int t = 0; t < options.threads; ++t) {
    // A continued run must not replay the games of the first one: its seeds include the records already there.
    const uint64_t seed = mix(mix(mix(options.seed) ^ summary.positions_before) ^ uint64_t(t));
    players.push_back(std::make_unique<SelfPlayer>(options, *weights, seed));
  }

  const auto start = std::chrono::steady_clock::now();
  std::atomic<bool> halt{false};  // the sink is full or failed, or stop was asked
  std::atomic<int> running{options.threads};
  std::mutex done_mutex;
  std::condition_variable done_cv;
  std::vector<std::thread> threads;
  for (int t = 0; t < options.threads; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937_64 pick(mix(mix(options.seed + 1) ^ summary.positions_before) + uint64_t(t));
      while (!halt.load() && !stop.load()) {
        const std::string& opening = openings[std::uniform_int_distribution<size_t>(0, openings.size() - 1)(pick)];
        auto [records, status] = players[size_t(t)]->play(opening, stop, halt);
        if (stop.load() || halt.load()) break;
        if (!sink.write(records, status)) halt = true;
      }
      halt = true;  // one thread is done: the target was reached, or an error or a stop came
      std::lock_guard lock(done_mutex);
      --running;
      done_cv.notify_all();
    });
  }

  ProgressRate rate(summary.positions_before, 0);
  auto progress = [&] {
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const uint64_t now = sink.count();
    GensfenSummary s;
    sink.fill(s, summary.positions_before);
    log << "gensfen: " << now << " of " << options.positions << " positions, " << s.games << " games, "
        << rate.line(now, options.positions, secs, "positions") << std::endl;
  };
  {
    std::unique_lock lock(done_mutex);
    const auto period = std::chrono::duration<double>(options.progress_seconds > 0 ? options.progress_seconds : 1e9);
    while (running > 0)
      if (!done_cv.wait_for(lock, period, [&] { return running == 0; }) && options.progress_seconds > 0) progress();
  }
  for (auto& th : threads) th.join();
  if (std::string error = sink.error(); !error.empty()) return std::unexpected(options.output + ": " + error);

  sink.fill(summary, summary.positions_before);
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  summary.interrupted = stop.load() && sink.count() < options.positions;
  return summary;
}

}  // namespace shogi::learn
