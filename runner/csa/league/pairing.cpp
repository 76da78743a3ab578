#include "csa/league/pairing.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>

namespace arena::csa::league {

namespace {

constexpr double UNRATED_START = 2150;  // Floodgate's rating of a newcomer when nobody waiting is rated
constexpr double RESULT_STEP = 200;     // an unrated player's last win (+) or loss (-) against a rated one
constexpr int REMATCH = 400;
constexpr int UNRATED_REMATCH = 4000;  // added to REMATCH when either side is unrated (shogi-server, 2018)
constexpr int TWO_HUMANS = 800;
constexpr int SAME_OWNER = 800;   // the ids' first 7 characters agree
constexpr int SAME_FAMILY = 400;  // only the first 4 do
constexpr size_t EXACT_LIMIT = 20;

constexpr std::array<std::string_view, 6> FACTORIES = {
    "default_factory", "least_diff_pairing",           "random_pairing",
    "swiss_pairing",   "sort_by_rate_with_randomness", "floodgate_zyunisen"};

struct Rated {
  Candidate c;
  double rate = 0;
  bool estimated = false;
};

std::string rate_text(double rate, bool estimated) {
  return std::to_string(std::lround(rate)) + (estimated ? " est." : "");
}

std::vector<Rated> rate_players(const std::vector<Candidate>& waiting, const GroupHistory& history,
                                const std::map<std::string, double>& rates) {
  double sum = 0;
  int rated = 0;
  for (const Candidate& c : waiting)
    if (c.rate != 0) sum += c.rate, ++rated;
  const double base = rated ? sum / rated : UNRATED_START;
  std::vector<Rated> out;
  for (const Candidate& c : waiting) {
    Rated r{c, c.rate, false};
    if (c.rate == 0) {
      r.rate = base;
      r.estimated = true;
      if (const PlayerHistory* h = history.find(c.id); h && !h->last_decisive_opponent.empty())
        if (auto it = rates.find(h->last_decisive_opponent); it != rates.end() && it->second != 0)
          r.rate = it->second + (h->last_decisive_won ? RESULT_STEP : -RESULT_STEP);
    }
    out.push_back(std::move(r));
  }
  return out;
}

struct PairCost {
  bool rematch = false;
  int penalty = 0;
  double diff = 0;
  double total() const { return (rematch ? 1e9 : 0) + penalty + diff; }
};

PairCost pair_cost(const Rated& a, const Rated& b, const GroupHistory& history,
                   std::vector<std::string>* penalties = nullptr) {
  PairCost cost;
  cost.diff = std::abs(a.rate - b.rate);
  auto add = [&](int value, const std::string& what) {
    cost.penalty += value;
    if (penalties) penalties->push_back(what + " +" + std::to_string(value));
  };
  const PlayerHistory* ha = history.find(a.c.id);
  const PlayerHistory* hb = history.find(b.c.id);
  if ((ha && ha->last_opponent == b.c.id) || (hb && hb->last_opponent == a.c.id)) {
    cost.rematch = true;
    add(REMATCH, "rematch");
    if (a.estimated || b.estimated) add(UNRATED_REMATCH, "unrated rematch");
  }
  if (is_human(a.c.name) && is_human(b.c.name)) add(TWO_HUMANS, "two humans");
  if (a.c.id.compare(0, 7, b.c.id, 0, 7) == 0)
    add(SAME_OWNER, "same owner");
  else if (a.c.id.compare(0, 4, b.c.id, 0, 4) == 0)
    add(SAME_FAMILY, "same name family");
  return cost;
}

using Matching = std::vector<std::pair<size_t, size_t>>;

// The perfect matching of least total cost, by dynamic programming over the sets of players still unpaired.
Matching exact_matching(const std::vector<std::vector<double>>& cost) {
  const size_t n = cost.size();
  const uint32_t full = (uint32_t(1) << n) - 1;
  std::vector<double> best(size_t(full) + 1, std::numeric_limits<double>::infinity());
  std::vector<uint8_t> partner(size_t(full) + 1, 0);
  best[full] = 0;
  for (uint32_t mask = full; mask-- > 0;) {
    if (std::popcount(mask) % 2) continue;
    const size_t i = size_t(std::countr_one(mask));
    for (size_t j = i + 1; j < n; ++j) {
      if (mask >> j & 1) continue;
      const double c = cost[i][j] + best[mask | (uint32_t(1) << i) | (uint32_t(1) << j)];
      if (c < best[mask]) best[mask] = c, partner[mask] = uint8_t(j);
    }
  }
  Matching m;
  for (uint32_t mask = 0; mask != full;) {
    const size_t i = size_t(std::countr_one(mask));
    const size_t j = partner[mask];
    m.emplace_back(i, j);
    mask |= (uint32_t(1) << i) | (uint32_t(1) << j);
  }
  return m;
}

// Beyond EXACT_LIMIT players: neighbours by rating, then swaps of partners between two pairs while one lowers
// the cost (a 2-opt local search; Floodgate rarely has more than 20 waiting).
Matching local_matching(const std::vector<std::vector<double>>& cost, const std::vector<Rated>& players) {
  std::vector<size_t> order(players.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return players[a].rate < players[b].rate; });
  Matching m;
  for (size_t k = 0; k + 1 < order.size(); k += 2) m.emplace_back(order[k], order[k + 1]);
  for (bool improved = true; improved;) {
    improved = false;
    for (size_t p = 0; p < m.size(); ++p)
      for (size_t q = p + 1; q < m.size(); ++q) {
        auto [a, b] = m[p];
        auto [c, d] = m[q];
        const double now = cost[a][b] + cost[c][d];
        if (cost[a][c] + cost[b][d] < now - 1e-9) {
          m[p] = {a, c}, m[q] = {b, d}, improved = true;
        } else if (cost[a][d] + cost[b][c] < now - 1e-9) {
          m[p] = {a, d}, m[q] = {b, c}, improved = true;
        }
      }
  }
  return m;
}

Matching least_diff(const std::vector<Rated>& players, const GroupHistory& history) {
  const size_t n = players.size();
  std::vector<std::vector<double>> cost(n, std::vector<double>(n, 0));
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n; ++j) cost[i][j] = cost[j][i] = pair_cost(players[i], players[j], history).total();
  return n <= EXACT_LIMIT ? exact_matching(cost) : local_matching(cost, players);
}

Matching in_order(size_t n) {
  Matching m;
  for (size_t k = 0; k + 1 < n; k += 2) m.emplace_back(k, k + 1);
  return m;
}

// Sorts by rating plus a uniform random number below `spread`, descending or not.
void sort_with_randomness(std::vector<Rated>& players, double spread, bool descending, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> noise(0, spread);
  std::vector<std::pair<double, Rated>> keyed;
  for (Rated& r : players) keyed.emplace_back(r.rate + noise(rng), std::move(r));
  std::stable_sort(keyed.begin(), keyed.end(),
                   [&](const auto& a, const auto& b) { return descending ? a.first > b.first : a.first < b.first; });
  players.clear();
  for (auto& [key, r] : keyed) players.push_back(std::move(r));
}

// The odd player out: the sacrifice if present, else among those who did not sit out the last round, the ones
// with the fewest byes, one of them at random.
std::optional<LeftOut> leave_one_out(std::vector<Rated>& players, const GroupHistory& history,
                                     const GroupSettings& settings, int round, std::mt19937_64& rng) {
  if (players.size() % 2 == 0) return std::nullopt;
  for (size_t i = 0; i < players.size(); ++i)
    if (players[i].c.id == settings.sacrifice) {
      LeftOut out{players[i].c, "the sacrifice player, as the count is odd"};
      players.erase(players.begin() + long(i));
      return out;
    }
  auto key = [&](const Rated& r) {
    const PlayerHistory* h = history.find(r.c.id);
    const bool sat_out_last = h && h->last_bye_round == round - 1;
    return std::pair<int, int>(sat_out_last ? 1 : 0, h ? h->byes : 0);
  };
  std::vector<size_t> fewest;
  for (size_t i = 0; i < players.size(); ++i) {
    if (!fewest.empty() && key(players[i]) > key(players[fewest[0]])) continue;
    if (!fewest.empty() && key(players[i]) < key(players[fewest[0]])) fewest.clear();
    fewest.push_back(i);
  }
  const size_t pick = fewest[std::uniform_int_distribution<size_t>(0, fewest.size() - 1)(rng)];
  const auto [last, byes] = key(players[pick]);
  LeftOut out{players[pick].c, "odd count: left out with " + std::to_string(byes) + " bye" + (byes == 1 ? "" : "s") +
                                   " before" + (last ? " (everyone else sat out the last round too)" : "")};
  players.erase(players.begin() + long(pick));
  return out;
}

PlannedPair plan_pair(const Rated& a, const Rated& b, const GroupHistory& history, std::mt19937_64& rng) {
  auto blacks_minus_whites = [&](const Rated& r) {
    const PlayerHistory* h = history.find(r.c.id);
    return h ? h->blacks - h->whites : 0;
  };
  auto white_last = [&](const Rated& r) {
    const PlayerHistory* h = history.find(r.c.id);
    return h && h->games > 0 && !h->last_was_black;
  };
  bool a_black;
  if (blacks_minus_whites(a) != blacks_minus_whites(b))
    a_black = blacks_minus_whites(a) < blacks_minus_whites(b);
  else if (white_last(a) != white_last(b))
    a_black = white_last(a);
  else
    a_black = std::uniform_int_distribution<int>(0, 1)(rng) == 0;
  const Rated& black = a_black ? a : b;
  const Rated& white = a_black ? b : a;
  PlannedPair p;
  p.black = black.c;
  p.white = white.c;
  p.rate[0] = black.rate;
  p.rate[1] = white.rate;
  p.estimated[0] = black.estimated;
  p.estimated[1] = white.estimated;
  p.penalty = pair_cost(black, white, history, &p.penalties).penalty;
  return p;
}

}  // namespace

bool is_human(const std::string& name) {
  return (name.size() >= 6 && name.compare(name.size() - 6, 6, "_human") == 0) ||
         name.find("_human@") != std::string::npos;
}

bool is_pairing_factory(std::string_view name) {
  return std::find(FACTORIES.begin(), FACTORIES.end(), name) != FACTORIES.end();
}

std::string pairing_factory_names() {
  std::string s;
  for (std::string_view f : FACTORIES) s += (s.empty() ? "" : ", ") + std::string(f);
  return s;
}

RoundPlan plan_round(std::vector<Candidate> waiting, const GroupHistory& history, const GroupSettings& settings,
                     const std::map<std::string, double>& rates, int round, std::mt19937_64& rng) {
  RoundPlan plan;
  plan.factory = settings.pairing_factory;
  const std::string& f = plan.factory;
  if (f == "floodgate_zyunisen") {
    std::erase_if(waiting, [&](const Candidate& c) {
      if (c.rate != 0) return false;
      plan.left_out.push_back({c, "unrated: floodgate_zyunisen pairs rated players only"});
      return true;
    });
  }
  // Shuffled first: equal ratings and equal costs are then decided at random, not by login order.
  std::shuffle(waiting.begin(), waiting.end(), rng);
  std::vector<Rated> players = rate_players(waiting, history, rates);
  if (auto out = leave_one_out(players, history, settings, round, rng)) plan.left_out.push_back(std::move(*out));

  Matching m;
  if (f == "random_pairing") {
    m = in_order(players.size());
  } else if (f == "swiss_pairing") {
    std::vector<Rated> winners, others;
    for (Rated& r : players) {
      const PlayerHistory* h = history.find(r.c.id);
      (h && !h->last_decisive_opponent.empty() && h->last_decisive_won ? winners : others).push_back(std::move(r));
    }
    sort_with_randomness(winners, 800, true, rng);
    sort_with_randomness(others, 200, true, rng);
    players = std::move(winners);
    for (Rated& r : others) players.push_back(std::move(r));
    m = in_order(players.size());
  } else if (f == "sort_by_rate_with_randomness") {
    sort_with_randomness(players, 1200, false, rng);
    m = in_order(players.size());
  } else {
    m = least_diff(players, history);
  }
  for (auto [i, j] : m) plan.pairs.push_back(plan_pair(players[i], players[j], history, rng));
  return plan;
}

std::vector<std::string> RoundPlan::describe() const {
  std::vector<std::string> lines;
  for (const LeftOut& l : left_out) lines.push_back("left out " + l.player.name + ": " + l.reason);
  for (const PlannedPair& p : pairs) {
    std::string line = "pair " + p.black.name + " (" + rate_text(p.rate[0], p.estimated[0]) + ", black) - " +
                       p.white.name + " (" + rate_text(p.rate[1], p.estimated[1]) + ", white): rating difference " +
                       std::to_string(std::lround(std::abs(p.rate[0] - p.rate[1])));
    if (!p.penalties.empty()) {
      line += ", penalties";
      for (const std::string& pen : p.penalties) line += " " + pen;
    }
    lines.push_back(std::move(line));
  }
  return lines;
}

}  // namespace arena::csa::league
