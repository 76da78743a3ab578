#include "stats/rating.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "stats/elo.h"

namespace arena::stats {

namespace {

using Matrix = std::vector<std::vector<double>>;

constexpr double K = 0.0057564627324851142;  // ln(10) / 400: d p / d r = K p (1 - p)

double expected_score(double ra, double rb) { return 1.0 / (1.0 + std::pow(10.0, (rb - ra) / 400.0)); }

// The inverse of a symmetric positive definite matrix (Gauss-Jordan with partial pivoting); nullopt if singular.
std::optional<Matrix> inverse(Matrix m) {
  const size_t n = m.size();
  Matrix inv(n, std::vector<double>(n, 0.0));
  for (size_t i = 0; i < n; ++i) inv[i][i] = 1.0;
  for (size_t col = 0; col < n; ++col) {
    size_t pivot = col;
    for (size_t r = col + 1; r < n; ++r)
      if (std::abs(m[r][col]) > std::abs(m[pivot][col])) pivot = r;
    if (std::abs(m[pivot][col]) < 1e-300) return std::nullopt;
    std::swap(m[pivot], m[col]);
    std::swap(inv[pivot], inv[col]);
    const double d = m[col][col];
    for (size_t c = 0; c < n; ++c) m[col][c] /= d, inv[col][c] /= d;
    for (size_t r = 0; r < n; ++r) {
      if (r == col || m[r][col] == 0.0) continue;
      const double f = m[r][col];
      for (size_t c = 0; c < n; ++c) m[r][c] -= f * m[col][c], inv[r][c] -= f * inv[col][c];
    }
  }
  return inv;
}

Matrix multiply(const Matrix& a, const Matrix& b) {
  const size_t n = a.size(), m = b.empty() ? 0 : b[0].size(), k = b.size();
  Matrix out(n, std::vector<double>(m, 0.0));
  for (size_t i = 0; i < n; ++i)
    for (size_t x = 0; x < k; ++x)
      if (a[i][x] != 0.0)
        for (size_t j = 0; j < m; ++j) out[i][j] += a[i][x] * b[x][j];
  return out;
}

// Adds w to the (a, a) and (b, b) entries and -w to (a, b), (b, a): a pairing's share of I or J. Indices are free
// variables (-1: the fixed engine, which has no row).
void add_block(Matrix& m, int a, int b, double w) {
  if (a >= 0) m[size_t(a)][size_t(a)] += w;
  if (b >= 0) m[size_t(b)][size_t(b)] += w;
  if (a >= 0 && b >= 0) {
    m[size_t(a)][size_t(b)] -= w;
    m[size_t(b)][size_t(a)] -= w;
  }
}

double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

// The first rated engine that games do not connect to `fixed` (-1: none). One scale needs them all connected.
int unconnected(int fixed, const std::vector<int>& rated, const std::vector<std::vector<int>>& neighbours) {
  std::vector<bool> reached(neighbours.size(), false);
  std::vector<int> stack{fixed};
  reached[size_t(fixed)] = true;
  while (!stack.empty()) {
    const int e = stack.back();
    stack.pop_back();
    for (int o : neighbours[size_t(e)])
      if (!reached[size_t(o)]) reached[size_t(o)] = true, stack.push_back(o);
  }
  for (int e : rated)
    if (!reached[size_t(e)]) return e;
  return -1;
}

// One pairing's games as the fit reads them, weighted or not.
struct Link {
  int a = 0, b = 0;
  int64_t games = 0;
  double weight = 0;  // summed weights of the games (their number, unweighted)
  double points = 0;  // a's, weighted
  double prior = 0;   // virtual draws
  double wins_sq = 0, draws_sq = 0, losses_sq = 0;
  PentaCounts penta;  // complete pairs, unweighted only
};

// The fit's unknowns: the ratings of every rated engine but the fixed one (rating 0 during the fit).
struct FreeRatings {
  std::vector<int> var_of;     // by engine: its variable, or -1 (unrated, or the fixed engine)
  std::vector<int> engine_of;  // by variable: its engine
  size_t size() const { return engine_of.size(); }
};

// The Fisher information of the free ratings at `r`, each pairing with its virtual draws added.
Matrix information(const std::vector<Link>& links, const FreeRatings& free, const std::vector<double>& r) {
  Matrix info(free.size(), std::vector<double>(free.size(), 0.0));
  for (const Link& p : links) {
    const double e = expected_score(r[size_t(p.a)], r[size_t(p.b)]);
    add_block(info, free.var_of[size_t(p.a)], free.var_of[size_t(p.b)], K * K * (p.weight + p.prior) * e * (1.0 - e));
  }
  return info;
}

// Newton's method on the concave log-likelihood, from `r`; steps are capped so that a far start cannot overshoot.
// The iterations it took, or an error.
std::expected<int, std::string> maximise_likelihood(const std::vector<Link>& links, const FreeRatings& free,
                                                    std::vector<double>& r) {
  const size_t m = free.size();
  int iterations = 0;
  bool converged = false;
  // Without a prior a player (or a group) that won or lost everything drifts away step after step, until the
  // equations become singular or the steps run out.
  const bool has_prior = std::any_of(links.begin(), links.end(), [](const Link& p) { return p.prior > 0; });
  const std::string drifts =
      "the ratings do not converge: a player or a group won (or lost) every game against the "
      "others";
  for (; iterations < 200; ++iterations) {
    std::vector<double> gradient(m, 0.0);
    for (const Link& p : links) {
      const double points = p.points + 0.5 * p.prior;  // with the virtual draws
      const double g = K * (points - (p.weight + p.prior) * expected_score(r[size_t(p.a)], r[size_t(p.b)]));
      if (free.var_of[size_t(p.a)] >= 0) gradient[size_t(free.var_of[size_t(p.a)])] += g;
      if (free.var_of[size_t(p.b)] >= 0) gradient[size_t(free.var_of[size_t(p.b)])] -= g;
    }
    const std::optional<Matrix> inv = inverse(information(links, free, r));
    if (!inv) return std::unexpected(has_prior ? "the rating equations are singular" : drifts);
    double largest = 0;
    std::vector<double> step(m, 0.0);
    for (size_t i = 0; i < m; ++i) {
      for (size_t j = 0; j < m; ++j) step[i] += (*inv)[i][j] * gradient[j];
      largest = std::max(largest, std::abs(step[i]));
    }
    const double scale = largest > 400.0 ? 400.0 / largest : 1.0;
    for (size_t i = 0; i < m; ++i) r[size_t(free.engine_of[i])] += scale * step[i];
    if (largest < 1e-9) {
      converged = true;
      break;
    }
  }
  const bool finite = std::all_of(r.begin(), r.end(), [](double x) { return std::abs(x) < 10000.0; });
  if (!has_prior && (!converged || !finite)) return std::unexpected(drifts);
  return iterations;
}

// The sandwich covariance of the free ratings at the fit: the spread of the scores actually seen (of the pairs'
// scores when games came in pairs), between two inverses of the information.
std::expected<Matrix, std::string> sandwich_covariance(const std::vector<Link>& links, const FreeRatings& free,
                                                       const std::vector<double>& r) {
  Matrix spread(free.size(), std::vector<double>(free.size(), 0.0));
  for (const Link& p : links) {
    const double games = p.weight;
    const double e = expected_score(r[size_t(p.a)], r[size_t(p.b)]);
    double sum = 0;
    if (const int64_t pairs = p.penta.pairs(); pairs > 0) {
      // A pair's score is 0, 1/2, ..., 2 points; its deviation from expectation is (score - 2e).
      const double counts[5] = {double(p.penta.ll), double(p.penta.ld), double(p.penta.dd_wl), double(p.penta.wd),
                                double(p.penta.ww)};
      for (int s = 0; s < 5; ++s) sum += counts[s] * std::pow(0.5 * s - 2.0 * e, 2);
      sum *= games / (2.0 * double(pairs));  // the games outside complete pairs, at the pairs' spread
    } else {
      sum = p.wins_sq * std::pow(1.0 - e, 2) + p.draws_sq * std::pow(0.5 - e, 2) + p.losses_sq * e * e;
    }
    add_block(spread, free.var_of[size_t(p.a)], free.var_of[size_t(p.b)], K * K * sum);
  }
  const std::optional<Matrix> inv = inverse(information(links, free, r));
  if (!inv) return std::unexpected("the rating equations are singular");
  return multiply(multiply(*inv, spread), *inv);
}

// Ratings of mean 0 over the rated engines: c = C r with C = I - (1/k) 1 1^T, so cov(c) = C cov C.
void centre(const std::vector<int>& rated, std::vector<double>& r, Matrix& cov) {
  const double k = double(rated.size());
  double mean = 0;
  for (int e : rated) mean += r[size_t(e)] / k;
  for (int e : rated) r[size_t(e)] -= mean;
  std::vector<double> row_mean(r.size(), 0.0);
  double all_mean = 0;
  for (int i : rated) {
    for (int j : rated) row_mean[size_t(i)] += cov[size_t(i)][size_t(j)] / k;
    all_mean += row_mean[size_t(i)] / k;
  }
  Matrix centred = cov;
  for (int i : rated)
    for (int j : rated)
      centred[size_t(i)][size_t(j)] = cov[size_t(i)][size_t(j)] - row_mean[size_t(i)] - row_mean[size_t(j)] + all_mean;
  cov = std::move(centred);
}

// The list from the links of every pairing with games.
std::expected<RatingList, std::string> fit(const std::vector<std::string>& engine_names, std::vector<Link> links,
                                           const RatingOptions& options) {
  const size_t n = engine_names.size();
  RatingList list;
  list.engines.resize(n);
  std::vector<std::vector<int>> neighbours(n);
  for (const Link& p : links) {
    if (p.a < 0 || p.b < 0 || size_t(p.a) >= n || size_t(p.b) >= n || p.a == p.b)
      return std::unexpected("a pairing names an engine outside the list");
  }
  std::erase_if(links, [](const Link& p) { return p.games == 0; });
  for (const Link& p : links) {
    list.engines[size_t(p.a)].games += p.games;
    list.engines[size_t(p.b)].games += p.games;
    list.engines[size_t(p.a)].points += p.points;
    list.engines[size_t(p.b)].points += p.weight - p.points;
    list.engines[size_t(p.a)].lost += p.weight - p.points;
    list.engines[size_t(p.b)].lost += p.points;
    neighbours[size_t(p.a)].push_back(p.b);
    neighbours[size_t(p.b)].push_back(p.a);
  }
  std::vector<int> rated;
  for (size_t i = 0; i < n; ++i)
    if (list.engines[i].games > 0) rated.push_back(int(i));
  if (rated.size() < 2) return std::unexpected("fewer than two engines have scored games");
  if (options.anchor && (*options.anchor < 0 || size_t(*options.anchor) >= n))
    return std::unexpected("the anchor is not one of the engines");
  if (options.anchor && list.engines[size_t(*options.anchor)].games == 0)
    return std::unexpected("the anchor " + engine_names[size_t(*options.anchor)] + " has no scored games");
  const int fixed = options.anchor ? *options.anchor : rated[0];
  if (const int e = unconnected(fixed, rated, neighbours); e >= 0)
    return std::unexpected(engine_names[size_t(fixed)] + " and " + engine_names[size_t(e)] +
                           " are not connected by games: their ratings cannot be put on one scale");

  FreeRatings free;
  free.var_of.assign(n, -1);
  for (int e : rated)
    if (e != fixed) free.var_of[size_t(e)] = int(free.engine_of.size()), free.engine_of.push_back(e);
  std::vector<double> r(n, 0.0);
  auto iterations = maximise_likelihood(links, free, r);
  if (!iterations) return std::unexpected(iterations.error());
  list.iterations = *iterations;
  auto free_cov = sandwich_covariance(links, free, r);
  if (!free_cov) return std::unexpected(free_cov.error());

  // Covariance of all ratings (the fixed engine's row is zero), then the shift to the anchor or to mean 0.
  Matrix cov(n, std::vector<double>(n, 0.0));
  for (size_t i = 0; i < free.size(); ++i)
    for (size_t j = 0; j < free.size(); ++j)
      cov[size_t(free.engine_of[i])][size_t(free.engine_of[j])] = (*free_cov)[i][j];
  if (options.anchor)
    for (int e : rated) r[size_t(e)] += options.anchor_elo;
  else
    centre(rated, r, cov);

  for (int e : rated) {
    EngineRating& er = list.engines[size_t(e)];
    er.elo = r[size_t(e)];
    er.error = Z_95 * std::sqrt(std::max(0.0, cov[size_t(e)][size_t(e)]));
    er.lower = er.elo - er.error;
    er.upper = er.elo + er.error;
    er.all_won = er.lost == 0.0;
    er.all_lost = er.points == 0.0;
  }
  list.order = rated;
  std::stable_sort(list.order.begin(), list.order.end(),
                   [&](int x, int y) { return list.engines[size_t(x)].elo > list.engines[size_t(y)].elo; });
  for (size_t i = 0; i + 1 < list.order.size(); ++i) {
    const size_t x = size_t(list.order[i]), y = size_t(list.order[i + 1]);
    const double diff = r[x] - r[y];
    const double var = cov[x][x] + cov[y][y] - 2.0 * cov[x][y];
    list.likelihood_of_superiority.push_back(var > 0 ? normal_cdf(diff / std::sqrt(var)) : diff > 0 ? 1.0 : 0.5);
  }
  list.covariance = std::move(cov);
  return list;
}

}  // namespace

void WeightedResults::add(Outcome o, double weight) {
  ++games;
  (o == Outcome::Win ? wins : o == Outcome::Draw ? draws : losses) += weight;
  (o == Outcome::Win ? wins_sq : o == Outcome::Draw ? draws_sq : losses_sq) += weight * weight;
}

std::expected<RatingList, std::string> rate(const std::vector<std::string>& engine_names,
                                            const std::vector<PairingResults>& results, const RatingOptions& options) {
  std::vector<Link> links;
  for (const PairingResults& p : results) {
    Link l;
    l.a = p.a;
    l.b = p.b;
    l.games = p.wdl.games();
    l.weight = double(l.games);
    l.points = double(p.wdl.wins) + 0.5 * double(p.wdl.draws);
    l.prior = options.virtual_draws;
    l.wins_sq = double(p.wdl.wins);
    l.draws_sq = double(p.wdl.draws);
    l.losses_sq = double(p.wdl.losses);
    l.penta = p.penta;
    links.push_back(l);
  }
  return fit(engine_names, std::move(links), options);
}

std::expected<RatingList, std::string> rate_weighted(const std::vector<std::string>& engine_names,
                                                     const std::vector<WeightedResults>& results,
                                                     const RatingOptions& options) {
  std::vector<Link> links;
  for (const WeightedResults& p : results) {
    Link l;
    l.a = p.a;
    l.b = p.b;
    l.games = p.games;
    l.weight = p.wins + p.draws + p.losses;
    l.points = p.wins + 0.5 * p.draws;
    l.prior = options.virtual_draws;
    l.wins_sq = p.wins_sq;
    l.draws_sq = p.draws_sq;
    l.losses_sq = p.losses_sq;
    links.push_back(l);
  }
  return fit(engine_names, std::move(links), options);
}

}  // namespace arena::stats
