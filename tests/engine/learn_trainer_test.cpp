// The trainer: the fitted sigmoid scale recovers a known one, training is deterministic for a seed (threads
// included), the weights it writes are mirror-symmetric, and on self-play data the validation loss falls.
#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <vector>

#include "eval/evaluate.h"
#include "eval/kp.h"
#include "learn/commands.h"
#include "learn/gensfen.h"
#include "learn/trainer.h"
#include "learn_files.h"
#include "rules/position.h"

using namespace shogi;
using namespace shogi::learn;
namespace fs = std::filesystem;

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Self-play data made once for the cases below: train and validation files split by game.
struct Data {
  fs::path dir;
  std::string train, validation;
  Data() {
    Position::init();
    dir = fs::temp_directory_path() / ("shogi-arena-trainer-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    // One thread: the same games on every run, so the checks below see the same data every time.
    GensfenOptions o = learn_test::small_selfplay(dir / "all.bin", 16000);
    o.nodes = 300;
    learn_test::generate(o);
    train = (dir / "train.bin").string();
    validation = (dir / "validation.bin").string();
    std::ostringstream out, err;
    REQUIRE_MESSAGE(
        run_learn_command("shuffle",
                          {"--train", train, "--validation", validation, "--validation-fraction", "0.15", o.output},
                          out, err) == 0,
        err.str());
  }
  ~Data() { fs::remove_all(dir); }
};

Data& data() {
  static Data d;
  return d;
}

// What every training case shares: the data's split, an output file beside it, and a short run.
TrainOptions short_run(const Data& d, const std::string& output, int epochs, int batch) {
  TrainOptions o;
  o.train = {d.train};
  o.validation = d.validation;
  o.output = (d.dir / output).string();
  o.epochs = epochs;
  o.batch = batch;
  return o;
}

// A training run a case needs to succeed: its summary, its log, and the weights it wrote, read back as the engine
// reads them.
struct Trained {
  TrainSummary summary;
  std::string log;
  std::shared_ptr<const kp::Weights> weights;
  double best_loss() const { return summary.epochs[size_t(summary.best_epoch - 1)].validation_loss; }
};

Trained train_and_load(const TrainOptions& o) {
  std::ostringstream log;
  auto s = train(o, log);
  REQUIRE_MESSAGE(s, (s ? "" : s.error() + "\n" + log.str()));
  auto w = kp::load_weights(o.output);
  REQUIRE_MESSAGE(w, (w ? "" : w.error()));
  return {*s, log.str(), *w};
}

}  // namespace

TEST_CASE("the fitted scale recovers the K that made the results") {
  std::mt19937_64 rng(3);
  std::normal_distribution<double> score(0, 700);
  std::vector<TrainingRecord> records(200000);
  for (auto& r : records) {
    r.score = int16_t(std::clamp(score(rng), -3000.0, 3000.0));
    const double p = 1 / (1 + std::exp(-r.score / 600.0));
    r.result = std::uniform_real_distribution<double>(0, 1)(rng) < p ? 1 : -1;
  }
  const double k = fit_scale(records);
  CHECK(k > 540);
  CHECK(k < 660);
}

TEST_CASE("training tables alone lowers the validation loss, is deterministic for a seed, keeps the mirror symmetry") {
  Data& d = data();
  TrainOptions o = short_run(d, "w1.bin", 4, 1024);
  o.base = kp::Base::None;  // on so little data, a correction of the hand-written evaluation cannot generalise yet
  o.lambda = 1;              // nor can the game results be learnt from a few hundred games; the scores can
  o.threads = 2;
  o.seed = 9;
  const Trained t = train_and_load(o);
  INFO(t.log);
  const TrainSummary& s = t.summary;
  REQUIRE(s.epochs.size() == 4);
  CHECK(s.scale > 50);
  CHECK(s.epochs.back().validation_loss < s.initial_validation_loss);
  CHECK(s.epochs.back().train_loss < s.epochs.front().train_loss);

  // The same seed and threads give the same bytes.
  o.output = (d.dir / "w2.bin").string();
  train_and_load(o);
  CHECK(slurp((d.dir / "w1.bin").string()) == slurp(o.output));

  const kp::Weights& weights = *t.weights;
  int asymmetric = 0, nonzero = 0;
  for (int k = 0; k < SQ_NB; ++k)
    for (int f = 0; f < kp::FEATURES; ++f) {
      asymmetric += weights.at(Square(k), f) != weights.at(kp::mirror(Square(k)), kp::mirror_feature(f));
      nonzero += weights.at(Square(k), f) != 0;
    }
  for (int f = 0; f < kp::FEATURES; ++f) asymmetric += weights.p[size_t(f)] != weights.p[size_t(kp::mirror_feature(f))];
  CHECK(asymmetric == 0);
  CHECK(nonzero > 1000);  // the king-relative table learned something

  // Starting from the written weights continues where they left off: the loss at the start is the last one.
  TrainOptions more = o;
  more.init = o.output;
  more.epochs = 1;
  more.scale = s.scale;
  more.output = (d.dir / "w3.bin").string();
  CHECK(train_and_load(more).summary.initial_validation_loss == doctest::Approx(t.best_loss()).epsilon(0.002));
}

TEST_CASE("the weights written are those of the epoch with the least validation loss") {
  Data& d = data();
  TrainOptions o = short_run(d, "best.bin", 6, 512);
  o.base = kp::Base::None;
  o.lambda = 1;
  o.learning_rate = 20;  // large steps on little data: later epochs fit the training positions only
  o.lr_decay = 1;
  o.scale = 600;
  const Trained t = train_and_load(o);
  INFO(t.log);
  const TrainSummary& s = t.summary;
  REQUIRE(s.epochs.size() == 6);
  int least = 1;
  for (int e = 2; e <= 6; ++e)
    if (s.epochs[size_t(e - 1)].validation_loss < s.epochs[size_t(least - 1)].validation_loss) least = e;
  CHECK(s.best_epoch == least);
  auto records = read_record_file(d.validation);
  REQUIRE(records);
  auto loss = evaluate_loss(*t.weights, *records, o.scale, o.lambda);
  REQUIRE(loss);
  CHECK(*loss == doctest::Approx(s.epochs[size_t(least - 1)].validation_loss).epsilon(0.001));
  // This setting overfits: the case is only worth something if a later epoch was worse.
  CHECK(s.best_epoch < 6);
}

TEST_CASE("a weight no record touches keeps its value: the decay does not go through Adam") {
  // No game holds 18 pawns in hand: the feature of the 18th pawn is never on, so its gradient is zero. Added to
  // the gradient, a decay became a full Adam step each batch and moved such weights by the learning rate.
  Data& d = data();
  kp::Weights start;
  start.base = kp::Base::HandWritten;
  const int never = kp::hand_feature(BLACK, BLACK, PAWN, 17);
  for (int k = 0; k < SQ_NB; ++k) start.at(Square(k), never) = 100 * kp::WEIGHT_SCALE;
  const std::string init = (d.dir / "never.bin").string();
  REQUIRE(kp::save_weights(start, init));
  TrainOptions o = short_run(d, "never-out.bin", 1, 256);
  o.init = init;
  CHECK(train_and_load(o).weights->at(Square(40), never) == 100 * kp::WEIGHT_SCALE);

  // A decay asked for shrinks it by its own factor, whatever the gradient's scale.
  o.l2 = 0.001;
  o.output = (d.dir / "never-decayed.bin").string();
  const int left = train_and_load(o).weights->at(Square(40), never);
  CHECK(left < 100 * kp::WEIGHT_SCALE);
  CHECK(left > 90 * kp::WEIGHT_SCALE);
}

// The engine's loss on records: its evaluate() with the given weights against the elmo target.
double engine_loss_lambda(const std::vector<TrainingRecord>& records, double scale, const kp::Weights* weights,
                          double lambda) {
  double sum = 0;
  for (const TrainingRecord& r : records) {
    Position pos;
    StateInfo st;
    REQUIRE(pos.set(*record_sfen(r), &st, PieceLimits::Relaxed));
    const double p = 1 / (1 + std::exp(-evaluate(pos, weights) / scale));
    const double t = lambda / (1 + std::exp(-r.score / scale)) + (1 - lambda) * (r.result + 1) / 2;
    sum -= t * std::log(p) + (1 - t) * std::log(1 - p);
  }
  return sum / double(records.size());
}

double engine_loss(const std::vector<TrainingRecord>& records, double scale, const kp::Weights* weights) {
  return engine_loss_lambda(records, scale, weights, 0.5);
}

TEST_CASE(
    "on top of the hand-written evaluation: training starts from today's engine, and the engine agrees with "
    "the trainer on the loss of the weights it wrote") {
  Data& d = data();
  auto validation = read_record_file(d.validation);
  REQUIRE(validation);
  TrainOptions o = short_run(d, "on-hand.bin", 2, 256);
  o.learning_rate = 0.2;
  const Trained t = train_and_load(o);
  INFO(t.log);
  const double scale = t.summary.scale;
  // Zero tables: the loss at the start is the hand-written evaluation's own.
  CHECK(t.summary.initial_validation_loss == doctest::Approx(engine_loss(*validation, scale, nullptr)).epsilon(0.001));

  CHECK(t.weights->base == kp::Base::HandWritten);
  const double with_weights = engine_loss(*validation, scale, t.weights.get());
  CHECK(with_weights == doctest::Approx(t.best_loss()).epsilon(0.001));
  auto trainer_loss = evaluate_loss(*t.weights, *validation, scale, 0.5);
  REQUIRE(trainer_loss);
  CHECK(*trainer_loss == doctest::Approx(with_weights).epsilon(0.001));
}

TEST_CASE("pair terms: the trainer reads a record's king zones as the engine does, learns them, keeps them mirrored") {
  Data& d = data();
  auto validation = read_record_file(d.validation);
  REQUIRE(validation);
  // Random symmetric pair terms alone: the trainer's loss of them is the engine's, and they change it.
  kp::Weights pairs_only;
  pairs_only.pairs.resize(kp::PAIR_FEATURES);
  std::mt19937_64 rng(12);
  for (auto& v : pairs_only.pairs) v = int16_t(std::uniform_int_distribution<int>(-800, 800)(rng));
  for (int f : kp::slot_ordered_pairs()) pairs_only.pairs[size_t(kp::mirror_pair(f))] = pairs_only.pairs[size_t(f)];
  const double engine = engine_loss(*validation, 600, &pairs_only);
  auto trainer = evaluate_loss(pairs_only, *validation, 600, 0.5);
  REQUIRE(trainer);
  CHECK(*trainer == doctest::Approx(engine).epsilon(0.001));
  const kp::Weights none;
  CHECK(std::abs(engine - engine_loss(*validation, 600, &none)) > 0.002);

  TrainOptions o = short_run(d, "pairs.bin", 3, 512);
  o.pairs = true;
  o.scale = 600;
  const Trained t = train_and_load(o);
  INFO(t.log);
  CHECK(t.log.find("with pair terms") != std::string::npos);
  const kp::Weights& w = *t.weights;
  REQUIRE(w.has_pairs());
  int asymmetric = 0, nonzero = 0;
  for (int f : kp::slot_ordered_pairs()) {
    asymmetric += w.pairs[size_t(f)] != w.pairs[size_t(kp::mirror_pair(f))];
    nonzero += w.pairs[size_t(f)] != 0;
  }
  CHECK(asymmetric == 0);
  CHECK(nonzero > 300);
  CHECK(t.best_loss() < t.summary.initial_validation_loss);
  CHECK(engine_loss(*validation, 600, &w) == doctest::Approx(t.best_loss()).epsilon(0.001));

  // Training on from them keeps the pair terms without being asked again; with steps too small to move a weight,
  // the tables come back exactly as they went in (the tied mirror images read and written without loss).
  TrainOptions more = o;
  more.pairs = false;
  more.init = o.output;
  more.epochs = 1;
  more.learning_rate = 1e-9;
  more.output = (d.dir / "pairs-more.bin").string();
  const Trained again = train_and_load(more);
  REQUIRE(again.weights->has_pairs());
  CHECK(again.weights->pairs == w.pairs);
  CHECK(again.weights->kp == w.kp);
}

TEST_CASE("king regions: a king square no record has learns from its region's row, and the file holds the sums") {
  Data& d = data();
  auto all = read_record_file(d.train);
  REQUIRE(all);
  // Own camp, middle ranks, enemy camp, as the trainer splits them (ranks 7-9, 4-6, 1-3 of the turned board). Two
  // squares of files 1-4 in each (there a row is its own canonical one, so two such rows read the region's row
  // feature by feature) are kept free of kings: the records with a king there, or on its mirror image (which shares
  // its weights), are left out of the training set.
  auto region = [](Square k) { return rank_of(k) >= RANK_7 ? 0 : rank_of(k) >= RANK_4 ? 1 : 2; };
  const std::array<std::vector<Square>, 3> kept_free = {{{make_square(FILE_1, RANK_9), make_square(FILE_3, RANK_8)},
                                                         {make_square(FILE_1, RANK_5), make_square(FILE_4, RANK_4)},
                                                         {make_square(FILE_2, RANK_1), make_square(FILE_4, RANK_3)}}};
  std::array<bool, SQ_NB> no_king{};
  for (const auto& squares : kept_free)
    for (Square k : squares) no_king[size_t(k)] = no_king[size_t(kp::mirror(k))] = true;
  std::vector<TrainingRecord> kept;
  std::array<int, 3> kings_in{};
  for (const TrainingRecord& r : *all) {
    Position pos;
    StateInfo st;
    REQUIRE(pos.set(*record_sfen(r), &st, PieceLimits::Relaxed));
    const Square kings[2] = {kp::turned_king(pos, BLACK), kp::turned_king(pos, WHITE)};
    if (std::ranges::any_of(kings, [&](Square k) { return k != SQ_NONE && no_king[size_t(k)]; })) continue;
    kept.push_back(r);
    for (Square k : kings)
      if (k != SQ_NONE) ++kings_in[size_t(region(k))];
  }
  INFO("kings per region in the training set: " << kings_in[0] << ", " << kings_in[1] << ", " << kings_in[2]);
  // Each region's own row learns only where kings stand in it.
  for (int b = 0; b < 3; ++b) REQUIRE(kings_in[size_t(b)] > 20);
  const std::string training = (d.dir / "regions-train.bin").string();
  REQUIRE(write_record_file(training, kept.data(), kept.size()));

  TrainOptions o = short_run(d, "regions-off.bin", 3, 512);
  o.train = {training};
  o.scale = 600;
  const Trained without_regions = train_and_load(o);
  const kp::Weights& off = *without_regions.weights;
  o.king_buckets = true;
  o.output = (d.dir / "regions-on.bin").string();
  const Trained t = train_and_load(o);
  INFO(t.log);
  CHECK(t.log.find("with a KP row per king region") != std::string::npos);
  const kp::Weights& on = *t.weights;

  for (int b = 0; b < 3; ++b) {
    const std::vector<Square>& squares = kept_free[size_t(b)];
    int nonzero = 0, differ = 0, without = 0;
    for (int f = 0; f < kp::FEATURES; ++f) {
      nonzero += on.at(squares[0], f) != 0;
      differ += on.at(squares[1], f) != on.at(squares[0], f);
      for (Square k : squares) without += off.at(k, f) != 0;
    }
    CHECK_MESSAGE(nonzero > 100, "region " << b);  // learnt from the region's kings
    CHECK_MESSAGE(differ == 0, "region " << b);    // the region's row alone, the same for both squares
    CHECK_MESSAGE(without == 0, "region " << b);   // and without regions nothing reaches them
  }

  // The engine reads the file as the trainer scored it: the sums were written.
  auto validation = read_record_file(d.validation);
  REQUIRE(validation);
  CHECK(engine_loss(*validation, 600, &on) == doctest::Approx(t.best_loss()).epsilon(0.001));
}

TEST_CASE("a network beside the tables: the engine agrees with the trainer, it learns, stays mirrored, trains on") {
  Data& d = data();
  auto validation = read_record_file(d.validation);
  REQUIRE(validation);
  // Frozen zero tables on the hand-written evaluation: whatever the loss gains, the network gained.
  TrainOptions o = short_run(d, "net.bin", 3, 256);
  o.net = true;
  o.freeze_tables = true;
  o.net_learning_rate = 0.002;
  o.lambda = 1;  // the scores, which a few hundred games can teach
  o.scale = 600;
  o.threads = 2;
  const Trained t = train_and_load(o);
  INFO(t.log);
  CHECK(t.log.find("with a network 16 wide (the tables frozen)") != std::string::npos);
  // The network starts at zero: the loss at the start is the hand-written evaluation's.
  const double initial = t.summary.initial_validation_loss;
  CHECK(initial == doctest::Approx(engine_loss_lambda(*validation, 600, nullptr, 1)).epsilon(0.001));
  const double best = t.best_loss();
  CHECK(best < initial - 0.001);

  const kp::Weights& w = *t.weights;
  REQUIRE(w.has_net());
  CHECK(kp::weights_to_bytes(w).substr(0, 8) == "SAKPEV3\n");
  CHECK(w.kp == kp::Weights().kp);  // frozen
  // The engine's integer network gives the trainer's loss, quantisation aside.
  CHECK(engine_loss_lambda(*validation, 600, &w, 1) == doctest::Approx(best).epsilon(0.001));
  const kp::Net& net = w.net;
  auto row = [&](int k, int f) { return &net.rows[(size_t(k) * kp::FEATURES + size_t(f)) * kp::NET_WIDTH]; };
  int asymmetric = 0, moved = 0;
  for (int k = 0; k < kp::NET_KINGS; ++k)
    for (int f = 0; f < kp::FEATURES; ++f) {
      const int mk = k == kp::NO_KING ? k : kp::mirror(Square(k));
      asymmetric += !std::equal(row(k, f), row(k, f) + kp::NET_WIDTH, row(mk, kp::mirror_feature(f)));
    }
  for (int16_t v : net.out) moved += v != 0;
  CHECK(asymmetric == 0);
  CHECK(moved > kp::NET_WIDTH);

  // Training on from the file keeps the network without being asked; with steps too small to move a weight, it
  // comes back exactly as it went in (rows split into their king-independent and king-relative parts and joined).
  TrainOptions more = o;
  more.net = false;
  more.init = o.output;
  more.epochs = 1;
  more.learning_rate = more.net_learning_rate = 1e-9;
  more.output = (d.dir / "net-more.bin").string();
  const auto again = train_and_load(more).weights;
  REQUIRE(again->has_net());
  CHECK(again->net.rows == net.rows);
  CHECK(again->net.bias == net.bias);
  CHECK(again->net.out == net.out);
  CHECK(again->net.out_bias == net.out_bias);

  // Frozen tables stay exactly as `init` has them, pair terms and weight decay included: only the network learns.
  TrainOptions tables = short_run(d, "tables.bin", 1, 256);
  tables.pairs = true;
  const auto before = train_and_load(tables).weights;
  REQUIRE(before->has_pairs());
  REQUIRE(std::any_of(before->kp.begin(), before->kp.end(), [](int16_t v) { return v != 0; }));
  TrainOptions frozen = o;
  frozen.init = tables.output;
  frozen.pairs = true;
  frozen.l2 = 0.01;
  frozen.epochs = 1;
  frozen.output = (d.dir / "frozen.bin").string();
  const auto after = train_and_load(frozen).weights;
  REQUIRE(after->has_net());
  CHECK(after->p == before->p);
  CHECK(after->kp == before->kp);
  CHECK(after->pairs == before->pairs);
  CHECK(after->tempo == before->tempo);
  CHECK(std::any_of(after->net.out.begin(), after->net.out.end(), [](int16_t v) { return v != 0; }));

  // Frozen tables with nothing else to learn is refused.
  TrainOptions nothing = short_run(d, "nothing.bin", 1, 256);
  nothing.freeze_tables = true;
  std::ostringstream log;
  auto refused = train(nothing, log);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().find("nothing would learn") != std::string::npos);
}

TEST_CASE("the learn command refuses bad input with one line") {
  Data& d = data();
  std::ostringstream out, err;
  CHECK(run_learn_command("learn", {"--output", (d.dir / "x.bin").string(), "--lambda", "1.5", d.train}, out, err) ==
        2);
  CHECK(err.str().find("--lambda '1.5': expected a number from 0 to 1\n") != std::string::npos);
  std::ostringstream out2, err2;
  CHECK(run_learn_command("learn", {"--output", (d.dir / "x.bin").string(), (d.dir / "none.bin").string()}, out2,
                          err2) == 1);
  CHECK(err2.str().find("none.bin") != std::string::npos);
  std::ostringstream out3, err3;
  CHECK(run_learn_command("learn", {"--output", (d.dir / "x.bin").string(), "--init", d.train, d.train}, out3, err3) ==
        1);
  CHECK(err3.str().find("not a weights file") != std::string::npos);
  std::ostringstream out4, err4;
  CHECK(run_learn_command("learn", {"--output", (d.dir / "x.bin").string(), "--pairs", "yes", d.train}, out4, err4) ==
        2);
  CHECK(err4.str().find("--pairs 'yes': expected on") != std::string::npos);
  std::ostringstream out5, err5;
  CHECK(run_learn_command("learn", {"--output", (d.dir / "x.bin").string(), "--base", "kp", d.train}, out5, err5) ==
        2);
  CHECK(err5.str() == "learn: --base 'kp': expected hand (tables on top of the hand-written evaluation) or none\n");
  std::ostringstream out6, err6;
  CHECK(run_learn_command("learn", {"--output", (d.dir / "x.bin").string(), "--net", "16", d.train}, out6, err6) == 2);
  CHECK(err6.str() == "learn: --net '16': expected on (train a network beside the tables) or off\n");
  std::ostringstream out7, err7;
  CHECK(run_learn_command("learn", {"--output", (d.dir / "x.bin").string(), "--king-buckets", "3", d.train}, out7,
                          err7) == 2);
  CHECK(err7.str() ==
        "learn: --king-buckets '3': expected on (a KP row per king region beside each square's) or off\n");
}
