#include "learn/trainer.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <ostream>
#include <random>
#include <thread>

#include "eval/evaluate.h"
#include "eval/hand_weights.h"
#include "learn/net_model.h"

namespace shogi::learn {

namespace {

// The features of a record's position for both sides, read straight from its bytes (no Position needed).
struct Sample {
  Color side_to_move = BLACK;
  Square king[COLOR_NB] = {SQ_NONE, SQ_NONE};  // each side's king on its own turned board
  int count = 0;
  int features[COLOR_NB][kp::MAX_ACTIVE];
  int pair_count[COLOR_NB] = {0, 0};  // each side's pairs of pieces near its king
  int pairs[COLOR_NB][kp::MAX_PAIRS];
};

// The pairs near the kings are found only when the model trains them (with_pairs): they cost time in the hot loop.
void decode(const TrainingRecord& r, Sample& out, bool with_pairs) {
  const uint8_t* bytes = r.position.data();
  size_t bit = 0;
  auto get = [&](int bits) {
    uint64_t word = 0;
    std::memcpy(&word, bytes + bit / 8, std::min<size_t>(8, r.position.size() - bit / 8));
    const uint32_t v = uint32_t(word >> (bit % 8)) & ((1u << bits) - 1);
    bit += size_t(bits);
    return v;
  };
  out.count = 0;
  out.king[BLACK] = out.king[WHITE] = SQ_NONE;
  Piece board[SQ_NB];
  for (int s = 0; s < SQ_NB; ++s) {
    const Piece pc = Piece(get(5));
    board[s] = pc;
    if (pc == NO_PIECE) continue;
    if (type_of(pc) == KING) {
      const Color c = color_of(pc);
      out.king[c] = c == BLACK ? Square(s) : flip(Square(s));
      continue;
    }
    if (out.count >= kp::MAX_ACTIVE - 2 * kp::HAND_SLOTS_TOTAL) continue;  // not a real game position
    out.features[BLACK][out.count] = kp::board_feature(BLACK, pc, Square(s));
    out.features[WHITE][out.count] = kp::board_feature(WHITE, pc, Square(s));
    ++out.count;
  }
  for (Color c : {BLACK, WHITE}) {
    out.pair_count[c] = 0;
    if (!with_pairs) continue;
    int zone[kp::ZONE_SLOTS];
    const auto piece_on = [&](Square s) { return board[s]; };
    const int n = out.king[c] == SQ_NONE ? 0 : kp::zone_pieces(c, out.king[c], piece_on, zone);
    out.pair_count[c] = kp::pairs_of(zone, n, out.pairs[c]);
  }
  out.side_to_move = get(1) ? WHITE : BLACK;
  constexpr int HAND_BITS[HAND_TYPE_END] = {0, 5, 3, 3, 3, 2, 2, 3};
  for (Color owner : {BLACK, WHITE})
    for (int pt = HAND_TYPE_BEGIN; pt < HAND_TYPE_END; ++pt) {
      const int n = std::min(int(get(HAND_BITS[pt])), kp::HAND_SLOTS[pt]);
      for (int i = 0; i < n; ++i) {
        out.features[BLACK][out.count] = kp::hand_feature(BLACK, owner, PieceType(pt), i);
        out.features[WHITE][out.count] = kp::hand_feature(WHITE, owner, PieceType(pt), i);
        ++out.count;
      }
    }
}

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// Cross-entropy of prediction p against target t, clamped away from log(0).
double cross_entropy(double p, double t) {
  p = std::clamp(p, 1e-12, 1 - 1e-12);
  return -(t * std::log(p) + (1 - t) * std::log(1 - p));
}

double target(const TrainingRecord& r, double scale, double lambda) {
  return lambda * sigmoid(r.score / scale) + (1 - lambda) * (r.result + 1) / 2.0;
}

// The trainable parameters in float centipawns. The mirror symmetry is built in through canonical indices: a
// weight and its mirror image map to one parameter, so they receive the same gradient and stay equal.
class Model {
 public:
  static constexpr size_t P_BASE = 0;
  static constexpr size_t KP_BASE = kp::FEATURES;
  static constexpr size_t TEMPO = KP_BASE + size_t(SQ_NB) * kp::FEATURES;
  static constexpr size_t PAIRS_BASE = TEMPO + 1;
  // King buckets: one KP row per region of the board a king stands in (its own camp, the middle ranks, the enemy
  // camp), added to every square's own row of that region, so that rarely seen king squares learn from the region.
  static constexpr int KING_BUCKETS = 3;
  static constexpr size_t BUCKETS_BASE = PAIRS_BASE + kp::PAIR_FEATURES;
  static constexpr size_t SIZE = BUCKETS_BASE + size_t(KING_BUCKETS) * kp::FEATURES;
  // The region of a king on its own turned board (the side's own camp is ranks 7-9 there).
  static int king_bucket(Square k) {
    const Rank r = rank_of(k);
    return r >= RANK_7 ? 0 : r >= RANK_4 ? 1 : 2;
  }

  Model()
      : params_(SIZE, 0.0f),
        p_index_(kp::FEATURES),
        kp_index_(size_t(SQ_NB) * kp::FEATURES),
        bucket_index_(size_t(SQ_NB) * kp::FEATURES),
        pair_index_(kp::PAIR_FEATURES) {
    for (int pair = 0; pair < kp::PAIR_FEATURES; ++pair)
      pair_index_[size_t(pair)] = uint32_t(PAIRS_BASE + size_t(kp::canonical_pair(pair)));
    for (int f = 0; f < kp::FEATURES; ++f) p_index_[size_t(f)] = uint32_t(P_BASE + size_t(kp::canonical_feature(f)));
    for (int k = 0; k < SQ_NB; ++k)
      for (int f = 0; f < kp::FEATURES; ++f) {
        const auto [ck, cf] = kp::canonical_king_feature(Square(k), f);
        kp_index_[size_t(k) * kp::FEATURES + size_t(f)] = uint32_t(KP_BASE + size_t(ck) * kp::FEATURES + size_t(cf));
        bucket_index_[size_t(k) * kp::FEATURES + size_t(f)] =
            uint32_t(BUCKETS_BASE + size_t(king_bucket(ck)) * kp::FEATURES + size_t(cf));
      }
  }

  // With king buckets the model trains a row per region beside each square's own; the file gets their sums.
  void enable_king_buckets() { buckets_ = true; }
  bool has_king_buckets() const { return buckets_; }

  // With pair terms the model trains (and writes) a PAIRS table too; without, those parameters stay unused.
  void enable_pairs() { pairs_ = true; }
  bool has_pairs() const { return pairs_; }
  // With a network the model trains (and writes) one beside the tables.
  void enable_net(uint64_t seed) {
    if (!net_) net_ = std::make_unique<NetModel>(seed);
  }
  NetModel* net() const { return net_.get(); }
  // Frozen tables keep their values and take no gradient: only the network learns.
  void freeze_tables() { frozen_ = true; }
  bool tables_frozen() const { return frozen_; }
  // A pair and its mirror image are one parameter.
  size_t pair_param(int pair) const { return pair_index_[size_t(pair)]; }

  // Tables on top of the hand-written evaluation start at zero: the model starts as the engine plays today.
  void init_on_hand_written() {
    base_ = kp::Base::HandWritten;
    params_[TEMPO] = float(eval::HAND_WEIGHTS.tempo);
  }

  void init_from_hand_written() {
    base_ = kp::Base::None;
    const eval::HandWeights& hw = eval::HAND_WEIGHTS;
    // A piece's value is split between the two sides' sums: +v/2 as one's own piece, -v/2 as the opponent's.
    for (int c = 0; c < 2; ++c)
      for (int pt = PAWN; pt <= DRAGON; ++pt) {
        if (pt == KING) continue;
        for (int s = 0; s < SQ_NB; ++s) {
          const int f = kp::board_feature(BLACK, make_piece(Color(c), PieceType(pt)), Square(s));
          params_[p_index_[size_t(f)]] = float(c == BLACK ? hw.board[pt] : -hw.board[pt]) / 2;
        }
      }
    for (int c = 0; c < 2; ++c)
      for (int pt = HAND_TYPE_BEGIN; pt < HAND_TYPE_END; ++pt)
        for (int i = 0; i < kp::HAND_SLOTS[pt]; ++i) {
          const int f = kp::hand_feature(BLACK, Color(c), PieceType(pt), i);
          params_[p_index_[size_t(f)]] = float(c == BLACK ? hw.hand[pt] : -hw.hand[pt]) / 2;
        }
    params_[TEMPO] = float(hw.tempo);
  }

  // A weight and its mirror image are one parameter: a file whose pairs differ starts from their mean.
  void init_from(const kp::Weights& w) {
    base_ = w.base;
    std::fill(params_.begin(), params_.end(), 0.0f);
    std::vector<uint8_t> count(params_.size(), 0);
    for (int f = 0; f < kp::FEATURES; ++f) {
      params_[p_index_[size_t(f)]] += float(w.p[size_t(f)]) / kp::WEIGHT_SCALE;
      ++count[p_index_[size_t(f)]];
    }
    for (size_t i = 0; i < kp_index_.size(); ++i) {
      params_[kp_index_[i]] += float(w.kp[i]) / kp::WEIGHT_SCALE;
      ++count[kp_index_[i]];
    }
    pairs_ = w.has_pairs();
    if (pairs_)
      for (int pair : kp::slot_ordered_pairs()) {  // only pairs in slot order (a < b) are ever read
        params_[pair_param(pair)] += float(w.pairs[size_t(pair)]) / kp::WEIGHT_SCALE;
        ++count[pair_param(pair)];
      }
    for (size_t i = 0; i < params_.size(); ++i)
      if (count[i] > 1) params_[i] /= float(count[i]);
    params_[TEMPO] = float(w.tempo) / kp::WEIGHT_SCALE;
    net_.reset();
    if (w.has_net()) {
      net_ = std::make_unique<NetModel>(0);
      net_->init_from(w.net);
    }
  }

  kp::Weights export_weights() const {
    kp::Weights w;
    auto q = [](float v) {
      return int16_t(std::clamp<long>(std::lround(double(v) * kp::WEIGHT_SCALE), INT16_MIN, INT16_MAX));
    };
    for (int f = 0; f < kp::FEATURES; ++f) w.p[size_t(f)] = q(params_[p_index_[size_t(f)]]);
    for (size_t i = 0; i < kp_index_.size(); ++i)
      w.kp[i] = q(params_[kp_index_[i]] + (buckets_ ? params_[bucket_index_[i]] : 0.0f));
    w.tempo = int32_t(std::lround(double(params_[TEMPO]) * kp::WEIGHT_SCALE));
    w.base = base_;
    if (pairs_) {
      w.pairs.assign(kp::PAIR_FEATURES, 0);
      for (int pair : kp::slot_ordered_pairs()) w.pairs[size_t(pair)] = q(params_[pair_param(pair)]);
    }
    if (net_) w.net = net_->export_net();
    return w;
  }

  kp::Base base() const { return base_; }

  // The tables' and the network's evaluation from the side to move's view, in centipawns (without the base);
  // `sums` keeps the network's sums for add_gradient.
  double eval(const Sample& s, NetModel::Sums& sums) const {
    double v = 0;
    for (int c = 0; c < 2; ++c) {
      double side = 0;
      const int* f = s.features[c];
      const uint32_t* kpi = s.king[c] == SQ_NONE ? nullptr : &kp_index_[size_t(s.king[c]) * kp::FEATURES];
      const uint32_t* kbi =
          s.king[c] == SQ_NONE || !buckets_ ? nullptr : &bucket_index_[size_t(s.king[c]) * kp::FEATURES];
      for (int i = 0; i < s.count; ++i) {
        side += params_[p_index_[size_t(f[i])]];
        if (kpi) side += params_[kpi[f[i]]];
        if (kbi) side += params_[kbi[f[i]]];
      }
      if (pairs_)
        for (int i = 0; i < s.pair_count[c]; ++i) side += params_[pair_param(s.pairs[c][i])];
      v += c == BLACK ? side : -side;
    }
    v = (s.side_to_move == BLACK ? v : -v) + params_[TEMPO];
    if (net_) v += net_->forward(view(s, s.side_to_move), view(s, ~s.side_to_move), sums);
    return v;
  }

  // Adds d(loss)/d(eval from the side to move) = g to the gradient of every parameter the sample uses: the
  // tables' to `grad` (unless they are frozen), the network's to `net_grad` (from the sums eval() kept).
  void add_gradient(const Sample& s, double g, const NetModel::Sums& sums, std::vector<float>& grad,
                    std::vector<float>& net_grad) const {
    if (net_) net_->backward(view(s, s.side_to_move), view(s, ~s.side_to_move), sums, g, net_grad);
    if (frozen_) return;
    const double gb = s.side_to_move == BLACK ? g : -g;  // d(loss)/d(eval from black)
    for (int c = 0; c < 2; ++c) {
      const float gs = float(c == BLACK ? gb : -gb);
      const int* f = s.features[c];
      const uint32_t* kpi = s.king[c] == SQ_NONE ? nullptr : &kp_index_[size_t(s.king[c]) * kp::FEATURES];
      const uint32_t* kbi =
          s.king[c] == SQ_NONE || !buckets_ ? nullptr : &bucket_index_[size_t(s.king[c]) * kp::FEATURES];
      for (int i = 0; i < s.count; ++i) {
        grad[p_index_[size_t(f[i])]] += gs;
        if (kpi) grad[kpi[f[i]]] += gs;
        if (kbi) grad[kbi[f[i]]] += gs;
      }
      if (pairs_)
        for (int i = 0; i < s.pair_count[c]; ++i) grad[pair_param(s.pairs[c][i])] += gs;
    }
    grad[TEMPO] += float(g);
  }

  std::vector<float>& params() { return params_; }

 private:
  static SideView view(const Sample& s, Color c) { return {s.features[c], s.count, s.king[c]}; }

  std::vector<float> params_;
  std::vector<uint32_t> p_index_, kp_index_, bucket_index_, pair_index_;
  kp::Base base_ = kp::Base::None;
  bool pairs_ = false;
  bool buckets_ = false;
  bool frozen_ = false;
  std::unique_ptr<NetModel> net_;
};

// Adam's moments of a set of parameters, and the step they take on a batch's summed gradient `grad` of `n` records.
// Parameters no record of the batch touched have a zero gradient; their moments decay, as in dense Adam. `c1` and
// `c2` are the bias corrections of this step.
struct Adam {
  static constexpr double BETA1 = 0.9, BETA2 = 0.999, EPSILON = 1e-8;
  std::vector<float> m1, m2;

  explicit Adam(size_t size) : m1(size, 0.0f), m2(size, 0.0f) {}
  void step(std::vector<float>& params, const std::vector<float>& grad, double n, double lr, double c1, double c2) {
    for (size_t i = 0; i < m1.size(); ++i) {
      const double g = grad[i] / n;
      if (g == 0 && m1[i] == 0 && m2[i] == 0) continue;
      m1[i] = float(BETA1 * m1[i] + (1 - BETA1) * g);
      m2[i] = float(BETA2 * m2[i] + (1 - BETA2) * g * g);
      params[i] -= float(lr * (m1[i] / c1) / (std::sqrt(m2[i] / c2) + EPSILON));
    }
  }
};

// The base evaluation of every record from black's view (empty without a base), computed once: it does not change
// while the tables learn.
std::expected<std::vector<float>, std::string> base_values(kp::Base base, const std::vector<TrainingRecord>& records,
                                                           int threads) {
  if (base == kp::Base::None) return std::vector<float>{};
  Position::init();  // the hand-written evaluation needs the attack tables
  std::vector<float> out(records.size());
  std::vector<std::string> errors(static_cast<size_t>(threads));
  std::vector<std::thread> pool;
  const size_t chunk = (records.size() + size_t(threads) - 1) / size_t(threads);
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      const size_t begin = size_t(t) * chunk, end = std::min(records.size(), begin + chunk);
      for (size_t i = begin; i < end && errors[size_t(t)].empty(); ++i) {
        auto sfen = record_sfen(records[i]);
        Position pos;
        StateInfo st;
        std::expected<void, std::string> set =
            sfen ? pos.set(*sfen, &st, PieceLimits::Relaxed) : std::unexpected(sfen.error());
        if (!set) {
          errors[size_t(t)] = "record " + std::to_string(i) + ": " + set.error();
          break;
        }
        out[i] = float(evaluate_black(pos));
      }
    });
  for (auto& th : pool) th.join();
  for (const auto& e : errors)
    if (!e.empty()) return std::unexpected(e);
  return out;
}

// The model's evaluation of record i from the side to move's view: the tables plus the base.
double full_eval(const Model& m, const Sample& s, const std::vector<float>& base, size_t i, NetModel::Sums& sums) {
  double v = m.eval(s, sums);
  if (!base.empty()) v += s.side_to_move == BLACK ? base[i] : -base[i];
  return v;
}

// Mean loss over records, summed by the threads over contiguous ranges and added in order.
double mean_loss(const Model& m, const std::vector<TrainingRecord>& records, const std::vector<float>& base,
                 double scale, double lambda, int threads) {
  if (records.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::vector<double> sums(size_t(threads), 0);
  std::vector<std::thread> pool;
  const size_t chunk = (records.size() + size_t(threads) - 1) / size_t(threads);
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      const size_t begin = size_t(t) * chunk, end = std::min(records.size(), begin + chunk);
      Sample s;
      NetModel::Sums net_sums;
      for (size_t i = begin; i < end; ++i) {
        decode(records[i], s, m.has_pairs());
        sums[size_t(t)] +=
            cross_entropy(sigmoid(full_eval(m, s, base, i, net_sums) / scale), target(records[i], scale, lambda));
      }
    });
  for (auto& th : pool) th.join();
  double total = 0;
  for (double s : sums) total += s;
  return total / double(records.size());
}

}  // namespace

double fit_scale(const std::vector<TrainingRecord>& records) {
  // The loss of sigmoid(score / K) against the results is unimodal in K: a golden-section search on log K.
  const size_t step = std::max<size_t>(1, records.size() / 200000);
  auto loss = [&](double k) {
    double sum = 0;
    for (size_t i = 0; i < records.size(); i += step)
      sum += cross_entropy(sigmoid(records[i].score / k), (records[i].result + 1) / 2.0);
    return sum;
  };
  double lo = std::log(20.0), hi = std::log(20000.0);
  const double ratio = (std::sqrt(5.0) - 1) / 2;
  double a = hi - ratio * (hi - lo), b = lo + ratio * (hi - lo);
  double fa = loss(std::exp(a)), fb = loss(std::exp(b));
  for (int i = 0; i < 60; ++i) {
    if (fa < fb) {
      hi = b;
      b = a;
      fb = fa;
      a = hi - ratio * (hi - lo);
      fa = loss(std::exp(a));
    } else {
      lo = a;
      a = b;
      fa = fb;
      b = lo + ratio * (hi - lo);
      fb = loss(std::exp(b));
    }
  }
  return std::exp((lo + hi) / 2);
}

std::expected<std::vector<TrainingRecord>, std::string> load_records(const std::vector<std::string>& paths) {
  std::vector<TrainingRecord> all;
  for (const std::string& path : paths) {
    auto records = read_record_file(path);
    if (!records) return std::unexpected(records.error());
    all.insert(all.end(), records->begin(), records->end());
  }
  return all;
}

std::expected<double, std::string> evaluate_loss(const kp::Weights& w, const std::vector<TrainingRecord>& records,
                                                 double scale, double lambda) {
  Model m;
  m.init_from(w);
  auto base = base_values(m.base(), records, 1);
  if (!base) return std::unexpected(base.error());
  return mean_loss(m, records, *base, scale, lambda, 1);
}

std::expected<TrainSummary, std::string> train(const TrainOptions& o, std::ostream& log) {
  if (o.train.empty()) return std::unexpected("no training data given");
  if (o.output.empty()) return std::unexpected("no output weights file given");
  if (o.epochs < 1 || o.batch < 1 || o.threads < 1)
    return std::unexpected("epochs, batch and threads must be positive");
  if (!(o.lambda >= 0 && o.lambda <= 1)) return std::unexpected("lambda must be from 0 to 1");
  if (!(o.learning_rate > 0)) return std::unexpected("the learning rate must be positive");
  if (!(o.net_learning_rate > 0)) return std::unexpected("the network's learning rate must be positive");

  auto train_set = load_records(o.train);
  if (!train_set) return std::unexpected(train_set.error());
  if (train_set->empty()) return std::unexpected("the training data holds no records");
  std::vector<TrainingRecord> validation;
  if (!o.validation.empty()) {
    auto v = read_record_file(o.validation);
    if (!v) return std::unexpected(v.error());
    validation = std::move(*v);
  }

  Model model;
  if (o.init.empty()) {
    if (o.base == kp::Base::HandWritten)
      model.init_on_hand_written();
    else
      model.init_from_hand_written();
  } else {
    auto w = kp::load_weights(o.init);
    if (!w) return std::unexpected(w.error());
    model.init_from(**w);
  }
  if (o.pairs) model.enable_pairs();
  if (o.king_buckets) model.enable_king_buckets();
  if (o.net) model.enable_net(o.seed);
  if (o.freeze_tables && !model.net()) return std::unexpected("frozen tables and no network: nothing would learn");
  if (o.freeze_tables) model.freeze_tables();

  auto train_base = base_values(model.base(), *train_set, o.threads);
  if (!train_base) return std::unexpected("training data: " + train_base.error());
  auto validation_base = base_values(model.base(), validation, o.threads);
  if (!validation_base) return std::unexpected(o.validation + ": " + validation_base.error());

  TrainSummary summary;
  summary.train_positions = train_set->size();
  summary.validation_positions = validation.size();
  summary.scale = o.scale > 0 ? o.scale : fit_scale(*train_set);
  const double k = summary.scale;
  summary.initial_validation_loss = mean_loss(model, validation, *validation_base, k, o.lambda, o.threads);
  {
    double sum = 0;
    for (const auto& r : validation) sum += cross_entropy(sigmoid(r.score / k), target(r, k, o.lambda));
    summary.score_only_validation_loss =
        validation.empty() ? std::numeric_limits<double>::quiet_NaN() : sum / double(validation.size());
  }
  log << "learn: " << summary.train_positions << " training positions, " << summary.validation_positions
      << " validation positions; "
      << (model.base() == kp::Base::HandWritten ? "tables on top of the hand-written evaluation" : "tables alone")
      << (model.has_pairs() ? ", with pair terms near the kings" : "")
      << (model.has_king_buckets() ? ", with a KP row per king region" : "")
      << (model.net() ? ", with a network " + std::to_string(kp::NET_WIDTH) + " wide" : "")
      << (model.tables_frozen() ? " (the tables frozen)" : "") << "; scale K = " << k << " cp"
      << (o.scale > 0 ? "" : " (fitted)") << ", lambda " << o.lambda << std::endl;
  log << "learn: validation loss at the start " << summary.initial_validation_loss
      << "; with the search's own scores as the evaluation it would be " << summary.score_only_validation_loss
      << std::endl;

  // The tables' parameters, moments and gradients (no moments or gradients when they are frozen), and the
  // network's (empty without one).
  std::vector<float>& params = model.params();
  const size_t table_size = model.tables_frozen() ? 0 : params.size();
  Adam adam(table_size);
  std::vector<std::vector<float>> grads(size_t(o.threads), std::vector<float>(table_size, 0));
  std::vector<float> empty;
  std::vector<float>& net_params = model.net() ? model.net()->params() : empty;
  Adam net_adam(net_params.size());
  std::vector<std::vector<float>> net_grads(size_t(o.threads), std::vector<float>(net_params.size(), 0));
  std::vector<double> losses(size_t(o.threads));
  std::vector<uint32_t> order(train_set->size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = uint32_t(i);
  std::mt19937_64 rng(o.seed);
  uint64_t step = 0;
  double lr = o.learning_rate, net_lr = o.net_learning_rate;

  for (int epoch = 1; epoch <= o.epochs; ++epoch) {
    std::shuffle(order.begin(), order.end(), rng);
    double epoch_loss = 0;
    for (size_t begin = 0; begin < order.size(); begin += size_t(o.batch)) {
      const size_t end = std::min(order.size(), begin + size_t(o.batch));
      const size_t chunk = (end - begin + size_t(o.threads) - 1) / size_t(o.threads);
      std::vector<std::thread> pool;
      for (int t = 0; t < o.threads; ++t)
        pool.emplace_back([&, t] {
          std::vector<float>& g = grads[size_t(t)];
          std::fill(g.begin(), g.end(), 0.0f);
          std::vector<float>& net_g = net_grads[size_t(t)];
          std::fill(net_g.begin(), net_g.end(), 0.0f);
          double loss = 0;
          Sample s;
          NetModel::Sums sums;
          const size_t from = begin + size_t(t) * chunk, to = std::min(end, from + chunk);
          for (size_t i = from; i < to; ++i) {
            const TrainingRecord& r = (*train_set)[order[i]];
            decode(r, s, model.has_pairs());
            const double p = sigmoid(full_eval(model, s, *train_base, order[i], sums) / k),
                         tgt = target(r, k, o.lambda);
            loss += cross_entropy(p, tgt);
            // d(cross-entropy)/d(eval) for a sigmoid output is (p - target) / K.
            model.add_gradient(s, (p - tgt) / k, sums, g, net_g);
          }
          losses[size_t(t)] = loss;
        });
      for (auto& th : pool) th.join();
      for (int t = 1; t < o.threads; ++t) {
        for (size_t i = 0; i < table_size; ++i) grads[0][i] += grads[size_t(t)][i];
        for (size_t i = 0; i < net_params.size(); ++i) net_grads[0][i] += net_grads[size_t(t)][i];
      }
      for (double l : losses) epoch_loss += l;

      // Adam on the batch's mean gradient.
      ++step;
      const double n = double(end - begin);
      const double c1 = 1 - std::pow(Adam::BETA1, double(step)), c2 = 1 - std::pow(Adam::BETA2, double(step));
      // The weight decay is decoupled from the gradient (AdamW): added to the gradient, Adam would scale it up to
      // a full step for every weight the batch's records do not touch, and pull them all to zero within an epoch.
      const float decay = float(o.l2 * lr / o.learning_rate);
      if (decay > 0 && !model.tables_frozen())
        for (size_t i = Model::KP_BASE; i < Model::TEMPO; ++i) params[i] -= decay * params[i];
      adam.step(params, grads[0], n, lr, c1, c2);
      net_adam.step(net_params, net_grads[0], n, net_lr, c1, c2);
    }
    EpochReport report;
    report.epoch = epoch;
    report.train_loss = epoch_loss / double(order.size());
    report.validation_loss = mean_loss(model, validation, *validation_base, k, o.lambda, o.threads);
    summary.epochs.push_back(report);
    // The weights of the epoch with the least validation loss are the ones written: later epochs may fit the
    // training positions better and the others worse.
    const bool best = validation.empty() || summary.best_epoch == 0 ||
                      report.validation_loss < summary.epochs[size_t(summary.best_epoch - 1)].validation_loss;
    log << "learn: epoch " << epoch << ": training loss " << report.train_loss << ", validation loss "
        << report.validation_loss << ", step size " << lr << " cp"
        << (model.net() ? " (the network's " + std::to_string(net_lr) + ")" : "")
        << (best ? "" : "; not better than epoch " + std::to_string(summary.best_epoch) + ", whose weights stay")
        << std::endl;
    if (best) {
      summary.best_epoch = epoch;
      if (auto r = kp::save_weights(model.export_weights(), o.output); !r) return std::unexpected(r.error());
    }
    lr *= o.lr_decay;
    net_lr *= o.lr_decay;
  }
  return summary;
}

}  // namespace shogi::learn
