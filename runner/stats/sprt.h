#pragma once
// Sequential probability ratio test on match results: the generalized SPRT (GSPRT) of fishtest and fastchess.
//
// H0: the Elo difference is elo0, H1: it is elo1. The log-likelihood ratio is
//   LLR = N * sum_i q_i ln(p1_i / p0_i)
// where q is the empirical distribution of the pair (or game) scores and p0 / p1 are the maximum-likelihood
// distributions subject to the hypothesis (M. Van den Bergh, "Comments on Normalized Elo", prop. 1.1 for a fixed
// expected score, section 4.1 for a fixed t = (mu - 1/2) / sigma). The test stops when the LLR leaves
// [ln(beta / (1 - alpha)), ln((1 - beta) / alpha)].
//
// Models:
//   Normalized (default, as fishtest and fastchess): elo0/elo1 are normalized Elo; for pentanomial counts
//     t = sqrt(2) * nelo * ln(10) / 800, for W/L/D t = nelo * ln(10) / 800.
//   Logistic: elo0/elo1 are logistic Elo; the expected score is 1 / (1 + 10^(-elo/400)).
// Empty buckets count as 1e-3 (fishtest's regularization) so that a lopsided sample still has a finite LLR.
// No games at all gives an LLR of exactly 0.

#include <expected>
#include <string>

#include "stats/counts.h"

namespace arena::stats {

enum class EloModel { Normalized, Logistic };

enum class SprtVerdict { Continue, AcceptH0, AcceptH1 };

struct SprtConfig {
  double alpha = 0.05;  // false positive rate (accepting H1 when H0 holds)
  double beta = 0.05;   // false negative rate
  double elo0 = 0;
  double elo1 = 2;
  EloModel model = EloModel::Normalized;
};

struct SprtBounds {
  double lower = 0;  // accept H0 at or below
  double upper = 0;  // accept H1 at or above
};

// Checks 0 < alpha, beta < 1, alpha + beta < 1, elo0 < elo1, all finite; the message names the bad field.
std::expected<void, std::string> validate(const SprtConfig& config);

SprtBounds sprt_bounds(double alpha, double beta);
SprtBounds sprt_bounds(const SprtConfig& config);

double sprt_llr(const PentaCounts& counts, const SprtConfig& config);
// The trinomial test, for runs whose games are not paired.
double sprt_llr(const WdlCounts& counts, const SprtConfig& config);

SprtVerdict sprt_verdict(double llr, const SprtBounds& bounds);

const char* to_string(SprtVerdict v);  // "continue", "H0", "H1"

}  // namespace arena::stats
