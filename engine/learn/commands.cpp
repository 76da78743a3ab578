#include "learn/commands.h"

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <concepts>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iomanip>
#include <map>
#include <ostream>
#include <random>
#include <sstream>
#include <string_view>
#include <thread>
#include <unordered_set>
#include <utility>

#include "learn/gensfen.h"
#include "learn/rescore.h"
#include "learn/trainer.h"
#include "learn/training_record.h"
#include "rules/notation.h"

namespace shogi::learn {

namespace {

std::atomic<bool> g_stop{false};
extern "C" void on_stop_signal(int) { g_stop = true; }

// `--key value` pairs and bare words, checked against the keys a command knows.
struct Args {
  std::map<std::string, std::string> values;
  std::vector<std::string> words;
};

std::expected<Args, std::string> parse_args(const std::vector<std::string>& args,
                                            const std::vector<std::string>& keys) {
  Args out;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.rfind("--", 0) != 0) {
      out.words.push_back(a);
      continue;
    }
    std::string key = a.substr(2), value;
    if (const size_t eq = key.find('='); eq != std::string::npos) {
      value = key.substr(eq + 1);
      key.resize(eq);
    } else {
      if (i + 1 >= args.size()) return std::unexpected("--" + key + " needs a value");
      value = args[++i];
    }
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
      std::string known;
      for (const auto& k : keys) known += (known.empty() ? "--" : ", --") + k;
      return std::unexpected("unknown option --" + key + "; expected one of " + known);
    }
    out.values[key] = value;
  }
  return out;
}

// Each command's whole usage, for --help and for a call that lacks what the command needs.
std::string usage(const std::string& command) {
  if (command == "gensfen")
    return "gensfen --output FILE --positions N [--threads N] [--nodes N | --depth D] [--hash MB] [--openings FILE] "
           "[--eval-file W] [--random-moves N] [--random-max-ply P] [--random-multipv N] [--random-margin CP] "
           "[--write-min-ply P] [--eval-limit CP] [--max-plies P] [--seed S] [--progress SECONDS]";
  if (command == "rescore")
    return "rescore --output FILE [--nodes N | --depth D] [--threads N] [--hash MB] [--eval-file W] "
           "[--score-limit CP] [--progress SECONDS] INPUT";
  if (command == "shuffle")
    return "shuffle --train FILE --validation FILE [--validation-fraction F] [--seed S] [--dedup on|off] "
           "[--exclude FILE] INPUT...";
  if (command == "records") return "records FILE [--first N] [--count N]";
  return "learn --output WEIGHTS [--validation FILE] [--init WEIGHTS] [--base hand|none] [--epochs N] [--batch N] "
         "[--lr R] [--lr-decay D] [--net-lr R] [--lambda L] [--scale S] [--l2 X] [--pairs on|off] "
         "[--king-buckets on|off] [--net on|off] [--freeze-tables on|off] [--threads N] [--seed S] TRAIN...";
}

template <typename T>
std::expected<T, std::string> number(const Args& a, const std::string& key, T fallback, T min, T max) {
  const auto it = a.values.find(key);
  if (it == a.values.end()) return fallback;
  T v{};
  const std::string& s = it->second;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size() || v < min || v > max)
    return std::unexpected("--" + key + " '" + s + "': expected a number from " + std::to_string(min) + " to " +
                           std::to_string(max));
  return v;
}

// Whether a real option's upper limit is itself allowed (a learning-rate decay of 1) or not (a validation share
// of 1 would leave nothing to train on).
enum class Upper { Included, Excluded };

// A floating-point option within [min, max], or [min, max) with Upper::Excluded.
std::expected<double, std::string> real(const Args& a, const std::string& key, double fallback, double min,
                                        double max, Upper upper = Upper::Included) {
  const auto it = a.values.find(key);
  if (it == a.values.end()) return fallback;
  char* end = nullptr;
  const double v = std::strtod(it->second.c_str(), &end);
  const bool below_max = upper == Upper::Included ? v <= max : v < max;
  if (it->second.empty() || *end || !(v >= min && below_max)) {
    std::ostringstream message;  // 0 to 1, 1e-09 to 1e+06: std::to_string would say 0.000000 for 1e-09
    message << "--" << key << " '" << it->second << "': expected a number from " << min
            << (upper == Upper::Included ? " to " : " up to (not including) ") << max;
    return std::unexpected(message.str());
  }
  return v;
}

// Reads numeric options into their fields, each within its range; an option left out keeps its field's value.
// The first bad option's message is kept, so a command can read all of them and then report one error.
class OptionReader {
 public:
  explicit OptionReader(const Args& args) : args_(args) {}

  template <typename T, typename Min, typename Max>
  requires std::integral<T>
  void operator()(const char* key, T& field, Min min, Max max) {
    keep(number<T>(args_, key, field, T(min), T(max)), field);
  }
  void operator()(const char* key, double& field, double min, double max, Upper upper = Upper::Included) {
    keep(real(args_, key, field, min, max, upper), field);
  }
  // A word option: one of `words`, each with the value it gives the field; `expected` says what they mean.
  template <typename T>
  void choice(const char* key, T& field, std::initializer_list<std::pair<std::string_view, T>> words,
              std::string_view expected) {
    const auto it = args_.values.find(key);
    if (it == args_.values.end()) return;
    for (const auto& [word, value] : words)
      if (it->second == word) {
        field = value;
        return;
      }
    if (error_.empty()) error_ = "--" + std::string(key) + " '" + it->second + "': expected " + std::string(expected);
  }
  const std::string& error() const { return error_; }

 private:
  template <typename T>
  void keep(const std::expected<T, std::string>& r, T& field) {
    if (r)
      field = *r;
    else if (error_.empty())
      error_ = r.error();
  }

  const Args& args_;
  std::string error_;
};

// Runs a long job that SIGINT and SIGTERM stop cleanly (it sees `stop` turn true and returns what it has done),
// then gives the signals back to their previous handlers.
template <typename Job>
auto run_stoppable(Job&& job) {
  g_stop = false;
  const auto old_int = std::signal(SIGINT, on_stop_signal);
  const auto old_term = std::signal(SIGTERM, on_stop_signal);
  auto result = job(g_stop);
  std::signal(SIGINT, old_int);
  std::signal(SIGTERM, old_term);
  return result;
}

int usable_cpus() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return int(std::max(1u, std::thread::hardware_concurrency()));
}

int gensfen(const std::vector<std::string>& raw, std::ostream& out, std::ostream& err) {
  auto args = parse_args(raw, {"output", "positions", "threads", "nodes", "depth", "hash", "openings", "eval-file",
                               "random-moves", "random-max-ply", "random-multipv", "random-margin", "write-min-ply",
                               "eval-limit", "max-plies", "seed", "progress"});
  if (!args || !args->words.empty()) {
    err << "gensfen: " << (args ? "unexpected argument '" + args->words[0] + "'" : args.error()) << '\n';
    return 2;
  }
  GensfenOptions o;
  const auto& v = args->values;
  if (!v.contains("output")) {
    err << "gensfen: --output FILE is required\n";
    return 2;
  }
  o.output = v.at("output");
  if (v.contains("openings")) o.openings = v.at("openings");
  if (v.contains("eval-file")) o.eval_file = v.at("eval-file");
  OptionReader get(*args);
  o.threads = usable_cpus();
  get("positions", o.positions, 1, uint64_t(1) << 40);
  get("threads", o.threads, 1, 1024);
  get("nodes", o.nodes, 0, uint64_t(1) << 40);
  get("depth", o.depth, 0, 100);
  get("hash", o.hash_mb, 1, 65536);
  get("random-moves", o.random_moves, 0, 100);
  get("random-max-ply", o.random_max_ply, 0, 1000);
  get("random-multipv", o.random_multipv, 1, 600);
  get("random-margin", o.random_margin, 0, 30000);
  get("write-min-ply", o.write_min_ply, 1, 10000);
  get("eval-limit", o.eval_limit, 1, 30000);
  get("max-plies", o.max_plies, 0, 10000);
  get("seed", o.seed, 0, UINT64_MAX);
  int progress = 10;
  get("progress", progress, 0, 86400);
  o.progress_seconds = progress;
  if (v.contains("depth") && !v.contains("nodes")) o.nodes = 0;
  if (!get.error().empty()) {
    err << "gensfen: " << get.error() << '\n';
    return 2;
  }
  auto summary = run_stoppable([&](const std::atomic<bool>& stop) { return run_gensfen(o, err, stop); });
  if (!summary) {
    err << "gensfen: " << summary.error() << '\n';
    return 1;
  }
  const GensfenSummary& s = *summary;
  if (s.torn_bytes_dropped) out << "gensfen: cut off a torn last record (" << s.torn_bytes_dropped << " bytes)\n";
  out << "gensfen: " << s.positions_written << " positions written (" << s.positions_before + s.positions_written
      << " in " << o.output << ") from " << s.games << " games (black won " << s.wins_black << ", white won "
      << s.wins_white << ", drawn " << s.draws << ") in " << uint64_t(s.seconds) << " s";
  if (s.seconds > 0) out << ", " << uint64_t(double(s.positions_written) / s.seconds) << " positions/s";
  out << '\n';
  if (s.interrupted) {
    out << "gensfen: interrupted; run the same command again to continue\n";
    return 130;
  }
  return 0;
}

int rescore(const std::vector<std::string>& raw, std::ostream& out, std::ostream& err) {
  auto args = parse_args(raw, {"output", "threads", "nodes", "depth", "hash", "eval-file", "score-limit", "progress"});
  if (!args || args->words.size() != 1 || !args->values.contains("output")) {
    err << "rescore: " << (args ? "usage: " + usage("rescore") : args.error()) << '\n';
    return 2;
  }
  RescoreOptions o;
  const auto& v = args->values;
  o.input = args->words[0];
  o.output = v.at("output");
  if (v.contains("eval-file")) o.eval_file = v.at("eval-file");
  OptionReader get(*args);
  o.threads = usable_cpus();
  get("threads", o.threads, 1, 1024);
  get("nodes", o.nodes, 0, uint64_t(1) << 40);
  get("depth", o.depth, 0, 100);
  get("hash", o.hash_mb, 1, 65536);
  get("score-limit", o.score_limit, 1, 30000);
  int progress = 10;
  get("progress", progress, 0, 86400);
  o.progress_seconds = progress;
  if (v.contains("depth") && !v.contains("nodes")) o.nodes = 0;
  if (!get.error().empty()) {
    err << "rescore: " << get.error() << '\n';
    return 2;
  }
  auto summary = run_stoppable([&](const std::atomic<bool>& stop) { return run_rescore(o, err, stop); });
  if (!summary) {
    err << "rescore: " << summary.error() << '\n';
    return 1;
  }
  const RescoreSummary& s = *summary;
  if (s.torn_bytes_dropped) out << "rescore: cut off a torn last record (" << s.torn_bytes_dropped << " bytes)\n";
  const uint64_t relabelled = s.searched - s.kept;
  out << "rescore: " << s.done_before + s.searched << " of " << s.records << " records in " << o.output << "; "
      << s.searched << " searched in " << uint64_t(s.seconds) << " s";
  if (s.seconds > 0) out << " (" << uint64_t(double(s.searched) / s.seconds) << " records/s)";
  out << ", " << s.kept << " kept as they were";
  if (relabelled)
    out << "; best move unchanged in " << std::fixed << std::setprecision(1)
        << 100.0 * double(s.same_move) / double(relabelled) << " %, mean score change " << s.mean_abs_change << " cp";
  out << '\n';
  if (s.interrupted) {
    out << "rescore: interrupted; run the same command again to continue\n";
    return 130;
  }
  return 0;
}

int shuffle(const std::vector<std::string>& raw, std::ostream& out, std::ostream& err) {
  auto args = parse_args(raw, {"train", "validation", "validation-fraction", "seed", "dedup", "exclude"});
  if (!args || args->words.empty() || !args->values.contains("train") || !args->values.contains("validation")) {
    err << "shuffle: " << (args ? "usage: " + usage("shuffle") : args.error()) << '\n';
    return 2;
  }
  double fraction = 0.05;
  uint64_t seed = 1;
  bool dedup = false;
  OptionReader get(*args);
  get("validation-fraction", fraction, 0.0, 1.0, Upper::Excluded);
  get("seed", seed, 0, UINT64_MAX);
  get.choice("dedup", dedup, {{"on", true}, {"off", false}}, "on or off");
  if (!get.error().empty()) {
    err << "shuffle: " << get.error() << '\n';
    return 2;
  }
  // --exclude: the positions of another record file (a validation set made before) are left out, so that records
  // added to a training set later cannot hold what that set validates.
  auto position_hash = [](const TrainingRecord& r) {
    return std::hash<std::string_view>{}(
        std::string_view(reinterpret_cast<const char*>(r.position.data()), r.position.size()));
  };
  std::unordered_set<uint64_t> excluded;
  if (args->values.contains("exclude")) {
    auto records = read_record_file(args->values.at("exclude"));
    if (!records) {
      err << "shuffle: --exclude " << records.error() << '\n';
      return 1;
    }
    for (const TrainingRecord& r : *records) excluded.insert(position_hash(r));
  }
  std::vector<TrainingRecord> all;
  for (const std::string& path : args->words) {
    auto records = read_record_file(path);
    if (!records) {
      err << "shuffle: " << records.error() << '\n';
      return 1;
    }
    all.insert(all.end(), records->begin(), records->end());
  }
  // The validation set takes whole games: positions of one game share its result, so a game split between the
  // sets would let the validation loss see what training saw. gensfen writes a game's positions together with
  // rising move numbers, so a move number that does not rise starts another game.
  std::vector<std::pair<size_t, size_t>> games;  // [begin, end) in `all`
  for (size_t i = 0; i < all.size(); ++i)
    if (i == 0 || all[i].ply <= all[i - 1].ply)
      games.push_back({i, i + 1});
    else
      games.back().second = i + 1;
  std::mt19937_64 rng(seed);
  std::shuffle(games.begin(), games.end(), rng);
  const size_t wanted = size_t(double(all.size()) * fraction);
  std::vector<TrainingRecord> split;
  split.reserve(all.size());
  size_t validation = 0;
  // --dedup: a position (board, hands, side to move) met before is left out, wherever it was (self-play games
  // from one opening suite repeat their early positions). 64-bit hashes: a false match among 10^8 positions is
  // about one chance in 3,700.
  std::unordered_set<uint64_t> seen;
  size_t repeated = 0, left_out = 0;
  for (const auto& [begin, end] : games) {
    for (size_t i = begin; i < end; ++i) {
      const uint64_t hash = position_hash(all[i]);
      if (excluded.contains(hash)) {
        ++left_out;
        continue;
      }
      if (dedup && !seen.insert(hash).second) {
        ++repeated;
        continue;
      }
      split.push_back(all[i]);
    }
    if (validation < wanted) validation = split.size();
  }
  all = std::move(split);
  std::shuffle(all.begin(), all.begin() + std::ptrdiff_t(validation), rng);
  std::shuffle(all.begin() + std::ptrdiff_t(validation), all.end(), rng);
  for (auto [path, first, n] : {std::tuple{args->values.at("validation"), size_t(0), validation},
                                std::tuple{args->values.at("train"), validation, all.size() - validation}}) {
    if (auto r = write_record_file(path, all.data() + first, n); !r) {
      err << "shuffle: " << r.error() << '\n';
      return 1;
    }
  }
  out << "shuffle: " << all.size() << " positions: " << all.size() - validation << " to " << args->values.at("train")
      << ", " << validation << " to " << args->values.at("validation");
  if (dedup) out << "; " << repeated << " repeated positions left out";
  if (args->values.contains("exclude"))
    out << "; " << left_out << " positions of " << args->values.at("exclude") << " left out";
  out << '\n';
  return 0;
}

int learn(const std::vector<std::string>& raw, std::ostream& out, std::ostream& err) {
  auto args =
      parse_args(raw, {"validation", "output", "init", "base", "epochs", "batch", "lr", "lr-decay", "lambda", "scale",
                       "l2", "pairs", "king-buckets", "net", "net-lr", "freeze-tables", "threads", "seed"});
  if (!args || args->words.empty() || !args->values.contains("output")) {
    err << "learn: " << (args ? "usage: " + usage("learn") : args.error()) << '\n';
    return 2;
  }
  TrainOptions o;
  o.train = args->words;
  o.output = args->values.at("output");
  if (args->values.contains("validation")) o.validation = args->values.at("validation");
  if (args->values.contains("init")) o.init = args->values.at("init");
  o.threads = usable_cpus();
  OptionReader get(*args);
  get("epochs", o.epochs, 1, 100000);
  get("batch", o.batch, 1, 1 << 24);
  get("threads", o.threads, 1, 1024);
  get("seed", o.seed, 0, UINT64_MAX);
  get("lr", o.learning_rate, 1e-9, 1e6);
  get("lr-decay", o.lr_decay, 0.0, 1.0);
  get("net-lr", o.net_learning_rate, 1e-9, 1e6);
  get("lambda", o.lambda, 0.0, 1.0);
  get("scale", o.scale, 0.0, 1e6);
  get("l2", o.l2, 0.0, 1e6);
  get.choice("base", o.base, {{"hand", kp::Base::HandWritten}, {"none", kp::Base::None}},
             "hand (tables on top of the hand-written evaluation) or none");
  get.choice("pairs", o.pairs, {{"on", true}, {"off", false}}, "on (train pair terms near the kings too) or off");
  get.choice("king-buckets", o.king_buckets, {{"on", true}, {"off", false}},
             "on (a KP row per king region beside each square's) or off");
  get.choice("net", o.net, {{"on", true}, {"off", false}}, "on (train a network beside the tables) or off");
  get.choice("freeze-tables", o.freeze_tables, {{"on", true}, {"off", false}}, "on (only the network learns) or off");
  if (!get.error().empty()) {
    err << "learn: " << get.error() << '\n';
    return 2;
  }
  auto summary = train(o, out);
  if (!summary) {
    err << "learn: " << summary.error() << '\n';
    return 1;
  }
  out << "learn: wrote " << o.output << " (the weights of epoch " << summary->best_epoch << " of "
      << summary->epochs.size() << ")\n";
  return 0;
}

int records(const std::vector<std::string>& raw, std::ostream& out, std::ostream& err) {
  auto args = parse_args(raw, {"first", "count"});
  if (!args || args->words.size() != 1) {
    err << "records: " << (args ? "usage: " + usage("records") : args.error()) << '\n';
    return 2;
  }
  auto first = number<uint64_t>(*args, "first", 0, 0, UINT64_MAX);
  auto count = number<uint64_t>(*args, "count", UINT64_MAX, 0, UINT64_MAX);
  if (!first || !count) {
    err << "records: " << (first ? count.error() : first.error()) << '\n';
    return 2;
  }
  const std::string& path = args->words[0];
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    err << "records: " << path << ": cannot open\n";
    return 1;
  }
  in.seekg(std::streamoff(*first * RECORD_SIZE));
  TrainingRecord r;
  for (uint64_t i = 0; i < *count && in.read(reinterpret_cast<char*>(&r), RECORD_SIZE); ++i) {
    auto sfen = record_sfen(r);
    if (!sfen) {
      err << "records: " << path << ": record " << *first + i << ": " << sfen.error() << '\n';
      return 1;
    }
    out << "sfen " << *sfen << " score " << r.score << " move " << to_usi(Move(r.move)) << " result " << int(r.result)
        << '\n';
  }
  if (in.gcount() != 0 && in.gcount() != std::streamsize(RECORD_SIZE)) {
    err << "records: " << path << ": a torn last record of " << in.gcount() << " bytes\n";
    return 1;
  }
  return 0;
}

}  // namespace

bool is_learn_command(const std::string& name) {
  return name == "gensfen" || name == "rescore" || name == "shuffle" || name == "records" || name == "learn";
}

int run_learn_command(const std::string& name, const std::vector<std::string>& args, std::ostream& out,
                      std::ostream& err) {
  // --help anywhere, before the options parser takes it for an option wanting a value.
  if (is_learn_command(name) &&
      std::ranges::any_of(args, [](const std::string& a) { return a == "--help" || a == "-h"; })) {
    out << "usage: " << usage(name) << '\n';
    return 0;
  }
  if (name == "gensfen") return gensfen(args, out, err);
  if (name == "rescore") return rescore(args, out, err);
  if (name == "shuffle") return shuffle(args, out, err);
  if (name == "records") return records(args, out, err);
  if (name == "learn") return learn(args, out, err);
  err << "unknown command " << name << '\n';
  return 2;
}

}  // namespace shogi::learn
