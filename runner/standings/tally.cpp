#include "standings/tally.h"

#include <algorithm>

namespace arena::standings {

namespace {

stats::Outcome outcome_of(int points) {
  return points == 2 ? stats::Outcome::Win : points == 1 ? stats::Outcome::Draw : stats::Outcome::Loss;
}

void add_counts(stats::WdlCounts& c, int points, int sign) {
  (points == 2 ? c.wins : points == 1 ? c.draws : c.losses) += sign;
}

}  // namespace

Tally::Tally(std::vector<std::string> engine_names, std::vector<run::Pairing> pairings, int games_per_pair)
    : games_per_pair_(games_per_pair) {
  for (std::string& n : engine_names) {
    engines_.emplace_back();
    engines_.back().name = std::move(n);
  }
  for (const run::Pairing& p : pairings) {
    pairing_of_[{std::min(p.first, p.second), std::max(p.first, p.second)}] = int(pairings_.size());
    pairings_.emplace_back();
    pairings_.back().pairing = p;
  }
}

int Tally::engine_index(const std::string& name) {
  for (size_t i = 0; i < engines_.size(); ++i)
    if (engines_[i].name == name) return int(i);
  engines_.emplace_back();
  engines_.back().name = name;
  return int(engines_.size()) - 1;
}

int Tally::pairing_index(int black, int white, int game_in_pair) {
  auto key = std::make_pair(std::min(black, white), std::max(black, white));
  if (auto it = pairing_of_.find(key); it != pairing_of_.end()) return it->second;
  // Unknown pairing: its first engine is the one that has black in the pair's first game.
  run::Pairing p = game_in_pair == 0 ? run::Pairing{black, white} : run::Pairing{white, black};
  pairing_of_[key] = int(pairings_.size());
  pairings_.emplace_back();
  pairings_.back().pairing = p;
  return int(pairings_.size()) - 1;
}

void Tally::count(Counted& c, int sign) {
  PairingRecord& r = pairings_[size_t(c.pairing)];
  add_counts(r.wdl, c.first_points, sign);
  add_counts(c.first_is_black ? r.as_black : r.as_white, c.first_points, sign);
  add_counts(engines_[size_t(r.pairing.first)].wdl, c.first_points, sign);
  add_counts(engines_[size_t(r.pairing.second)].wdl, 2 - c.first_points, sign);
  scored_ += sign;
}

void Tally::retract(PairState& p) {
  if (games_per_pair_ == 2 && p.games[0].first_points >= 0 && p.games[1].first_points >= 0) {
    PairingRecord& r = pairings_[size_t(p.games[0].pairing)];
    stats::PentaCounts one;
    one.add_pair(outcome_of(p.games[0].first_points), outcome_of(p.games[1].first_points));
    r.penta.ll -= one.ll, r.penta.ld -= one.ld, r.penta.dd_wl -= one.dd_wl, r.penta.wd -= one.wd, r.penta.ww -= one.ww;
  }
  for (Counted& c : p.games)
    if (c.first_points >= 0) {
      count(c, -1);
      ++void_;
    }
  p.games[0] = p.games[1] = Counted{};
  p.done[0] = p.done[1] = false;
}

bool Tally::pair_complete(const PairState& p) const { return p.done[0] && (games_per_pair_ == 1 || p.done[1]); }

void Tally::add_to_prefix(const PairState& p) {
  // The first pairing's games only: the SPRT is a two-engine test.
  for (int g = 0; g < games_per_pair_; ++g)
    if (p.games[g].first_points >= 0 && p.games[g].pairing == 0) add_counts(prefix_wdl_, p.games[g].first_points, 1);
  if (games_per_pair_ == 2 && p.games[0].first_points >= 0 && p.games[1].first_points >= 0 && p.games[0].pairing == 0)
    prefix_penta_.add_pair(outcome_of(p.games[0].first_points), outcome_of(p.games[1].first_points));
}

void Tally::advance_prefix() {
  while (!sprt_decided_) {
    auto it = pairs_.find(prefix_pairs_);
    if (it == pairs_.end() || !pair_complete(it->second)) return;
    add_to_prefix(it->second);
    ++prefix_pairs_;
    if (sprt_) sprt_decided_ = sprt_status(*this, *sprt_).verdict != stats::SprtVerdict::Continue;
  }
}

void Tally::decide_sprt(const stats::SprtConfig& config) {
  sprt_ = config;
  prefix_pairs_ = 0;
  prefix_penta_ = {};
  prefix_wdl_ = {};
  sprt_decided_ = false;
  advance_prefix();
}

bool Tally::add(const journal::JournalGame& g) {
  ++journaled_;
  if (!added_.emplace(g.game, g.attempt).second) {
    ++duplicates_;
    return false;
  }
  if (g.pair < prefix_pairs_) {
    // A line for a pair already in the prefix (a journal with two histories of it): the prefix is counted again
    // up to that pair. Never happens with one history per pair (one machine's journal, or a merge).
    const int64_t upto = g.pair;
    prefix_pairs_ = 0, prefix_penta_ = {}, prefix_wdl_ = {}, sprt_decided_ = false;
    for (int64_t k = 0; k < upto && !sprt_decided_; ++k) {
      add_to_prefix(pairs_[k]);
      ++prefix_pairs_;
      if (sprt_) sprt_decided_ = sprt_status(*this, *sprt_).verdict != stats::SprtVerdict::Continue;
    }
  }
  add_game(g);
  advance_prefix();
  return true;
}

void Tally::add_game(const journal::JournalGame& g) {
  const int black = engine_index(g.black), white = engine_index(g.white);

  // Faults are the loser's, in every journaled game.
  if (g.outcome == Outcome::BlackWin || g.outcome == Outcome::WhiteWin) {
    EngineRecord& loser = engines_[size_t(g.outcome == Outcome::BlackWin ? white : black)];
    switch (g.termination) {
      case Termination::Disconnect:
        ++loser.crashes;
        break;
      case Termination::Stall:
        ++loser.stalls;
        break;
      case Termination::TimeForfeit:
        ++loser.time_losses;
        break;
      case Termination::IllegalMove:
      case Termination::IllegalDeclaration:
        ++loser.illegal_moves;
        break;
      default:
        break;
    }
  }

  PairState& p = pairs_[g.pair];
  if (g.attempt < p.attempt) {
    ++void_;
    return;
  }
  if (g.attempt > p.attempt) {
    retract(p);
    p.attempt = g.attempt;
  }
  if (g.replay) {
    retract(p);
    p.attempt = g.attempt + 1;
    ++void_;
    ++replays_;
    return;
  }
  const int slot = std::clamp(g.game_in_pair, 0, 1);
  p.done[slot] = true;
  if (g.outcome == Outcome::None) return;  // interrupted by a runner error and not replayed: no score
  Counted c;
  c.pairing = pairing_index(black, white, g.game_in_pair);
  const run::Pairing& pairing = pairings_[size_t(c.pairing)].pairing;
  c.first_is_black = pairing.first == black;
  const int black_points = g.outcome == Outcome::BlackWin ? 2 : g.outcome == Outcome::Draw ? 1 : 0;
  c.first_points = c.first_is_black ? black_points : 2 - black_points;
  count(c, +1);
  p.games[slot] = c;
  if (games_per_pair_ == 2 && p.games[0].first_points >= 0 && p.games[1].first_points >= 0)
    pairings_[size_t(c.pairing)].penta.add_pair(outcome_of(p.games[0].first_points),
                                                outcome_of(p.games[1].first_points));
}

EngineRecord Tally::faults() const {
  EngineRecord all;
  all.name = "all";
  for (const EngineRecord& e : engines_) {
    all.crashes += e.crashes;
    all.stalls += e.stalls;
    all.time_losses += e.time_losses;
    all.illegal_moves += e.illegal_moves;
  }
  return all;
}

std::optional<stats::EloSummary> Tally::summary(size_t pairing) const {
  if (pairing >= pairings_.size()) return std::nullopt;
  const PairingRecord& r = pairings_[pairing];
  if (games_per_pair_ == 2 && r.penta.pairs() > 0) return stats::summarize(r.penta);
  return stats::summarize(r.wdl);
}

}  // namespace arena::standings

namespace arena::standings {

SprtStatus sprt_status(const Tally& tally, const stats::SprtConfig& config) {
  SprtStatus s;
  s.bounds = stats::sprt_bounds(config);
  if (tally.pairings().empty()) return s;
  s.llr = tally.games_per_pair() == 2 ? stats::sprt_llr(tally.prefix_penta(), config)
                                      : stats::sprt_llr(tally.prefix_wdl(), config);
  s.verdict = stats::sprt_verdict(s.llr, s.bounds);
  return s;
}

}  // namespace arena::standings
