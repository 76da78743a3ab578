#pragma once
// Trains the KP evaluation (eval/kp.h), and the network beside it when asked (learn/net_model.h), on gensfen
// records with the "elmo" loss: the evaluation's win probability sigmoid(eval / K) is fitted by cross-entropy to a
// target that mixes the search's own prediction sigmoid(score / K) (weight lambda) with the game's result (weight
// 1 - lambda). Adam on minibatches, with the board's left-right mirror symmetry built in (a weight and its mirror
// are one parameter). Deterministic for a seed and a thread count: batches are shuffled by the seed and the threads'
// gradients are added in a fixed order.

#include <cstdint>
#include <expected>
#include <iosfwd>
#include <string>
#include <vector>

#include "eval/kp.h"
#include "learn/training_record.h"

namespace shogi::learn {

struct TrainOptions {
  std::vector<std::string> train;  // record files
  std::string validation;          // record file (may be empty: then no validation loss)
  std::string output;              // weights file, written after every epoch
  std::string init;                // start from these weights (and their base); empty: see `base`
  // What the tables are trained on top of: the hand-written evaluation (the tables start at zero, so training starts
  // from the engine as it plays today) or nothing (the tables start with the hand-written material values).
  kp::Base base = kp::Base::HandWritten;
  int epochs = 10;
  int batch = 16384;
  double learning_rate = 1.0;  // Adam step size, in centipawns
  double lr_decay = 0.7;       // per epoch
  double lambda = 0.5;         // weight of the search score in the target (1 - lambda: the game's result)
  double scale = 0;            // K in centipawns; 0 = fitted to the training data's scores and results
  // Weight decay of the king-relative weights, decoupled from Adam (AdamW): each step takes l2 x (step size /
  // learning_rate) of each weight off it. 0: none (on 425 k self-play positions decays of 0.001 and 0.0001 ended
  // within 0.00004 of none in validation loss; it was the decay inside Adam's gradient that cost, 0.0034).
  double l2 = 0;
  // Train pair terms near the kings too (kp.h's PAIRS table, written as a format 2 file), starting from zero. Weights
  // from `init` that have them keep training them either way. `l2` does not decay them.
  bool pairs = false;
  // Train a KP row per king region (own camp, middle ranks, enemy camp) beside each king square's own, from zero;
  // the file holds their sums, so it is the same format. `l2` does not decay the region rows either.
  bool king_buckets = false;
  // Train a network beside the tables too (eval/net.h, a format 3 file), from small random rows and a zero output;
  // weights from `init` that have one keep training it either way. Its Adam step size is in its own units (a row's
  // 1.0 saturates a unit), decayed by lr_decay as the tables' is.
  bool net = false;
  double net_learning_rate = 0.0005;
  bool freeze_tables = false;  // only the network learns: the tables, pairs and tempo stay as `init` has them
  int threads = 1;
  uint64_t seed = 1;
};

struct EpochReport {
  int epoch = 0;
  double train_loss = 0;       // mean over the epoch's batches, before each batch's update
  double validation_loss = 0;  // after the epoch (NaN without a validation set)
};

struct TrainSummary {
  double scale = 0;  // the K used
  double initial_validation_loss = 0;
  double score_only_validation_loss = 0;  // the loss if the evaluation were the search score itself
  std::vector<EpochReport> epochs;
  int best_epoch = 0;  // whose weights were written: the least validation loss (the last without validation)
  uint64_t train_positions = 0, validation_positions = 0;
};

// The K that makes sigmoid(score / K) the best predictor of the results (least cross-entropy), from a sample of
// records.
double fit_scale(const std::vector<TrainingRecord>& records);

// Reads and checks record files (as `shuffle` does).
std::expected<std::vector<TrainingRecord>, std::string> load_records(const std::vector<std::string>& paths);

// Trains and writes the weights of the best epoch (see TrainSummary::best_epoch); progress lines go to `log`.
std::expected<TrainSummary, std::string> train(const TrainOptions& options, std::ostream& log);

// The elmo loss of the given weights (base included) on records (mean cross-entropy), with scale K and lambda.
std::expected<double, std::string> evaluate_loss(const kp::Weights& w, const std::vector<TrainingRecord>& records,
                                                 double scale, double lambda);

}  // namespace shogi::learn
