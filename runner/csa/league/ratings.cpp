#include "csa/league/ratings.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <set>

#include "csa/league/results_list.h"
#include "stats/rating.h"

namespace arena::csa::league {

namespace {

constexpr double AVERAGE_RATE = 1000;  // mk_rate's mean of a rated group
constexpr double DAY_S = 86400;

// mk_rate's identify_id: "@NORATE+" is never rated; "@<anything>" before the "+" is dropped. Only ids with a
// "+" (a trip) are rated at all.
std::optional<std::string> identify_id(const std::string& id) {
  if (id.find("@NORATE+") != std::string::npos) return std::nullopt;
  const size_t plus = id.find('+');
  if (plus == std::string::npos) return std::nullopt;
  const size_t at = id.find('@');
  if (at != std::string::npos && at < plus) return id.substr(0, at) + id.substr(plus);
  return id;
}

// One player's weighted results against each opponent: [0] won, [1] lost.
using Results = std::map<std::string, std::map<std::string, std::array<double, 2>>>;

struct Counted {
  Results results;
  std::map<std::string, WallTime> last_time;
  std::map<std::pair<std::string, std::string>, stats::WeightedResults> pairings;  // key (a < b), from a's side
  std::map<std::string, int64_t> games;
};

double half_life(double days, const LeagueRatingOptions& o) {
  if (days < o.half_life_ignore_days) return 1.0;
  return std::exp(-0.693 / o.half_life_days * (days - o.half_life_ignore_days));
}

Counted count_games(const std::vector<ListedGame>& games, const LeagueRatingOptions& o, LeagueRatings& out) {
  Counted c;
  std::set<std::string> seen;
  std::map<std::string, int> skipped;  // reason -> games
  for (const ListedGame& g : games) {
    const std::string key = std::to_string(g.end_time.time_since_epoch().count()) + "\t" + g.type + "\t" + g.marks[0] +
                            "\t" + g.players[0] + "\t" + g.players[1] + "\t" + g.marks[1] + "\t" + g.record.string();
    if (!seen.insert(key).second) {
      ++skipped["listed twice"];
      continue;
    }
    if (!g.game_name().starts_with("floodgate-")) {
      ++skipped["not a Floodgate game"];
      continue;
    }
    const bool black_won = g.marks[0] == "win" && g.marks[1] == "lose";
    const bool white_won = g.marks[0] == "lose" && g.marks[1] == "win";
    const bool draw = g.marks[0] == "draw" && g.marks[1] == "draw";
    if (!black_won && !white_won && !draw) {
      ++skipped["no result"];
      continue;
    }
    if (draw && o.skip_draws) continue;
    if (g.type == "abnormal") {
      std::optional<int> plies = record_move_count(g.record);
      if (!plies) plies = g.moves;
      if (o.abnormal_threshold == 0 || !plies || *plies <= o.abnormal_threshold) {
        ++skipped["abnormal and short"];
        continue;
      }
    }
    if (g.end_time > o.base_date) {
      ++skipped["after the base date"];
      continue;
    }
    const double days = std::chrono::duration<double>(o.base_date - g.end_time).count() / DAY_S;
    if (days > o.ignore_days) {
      ++skipped["too old"];
      continue;
    }
    const auto black = identify_id(g.players[0]);
    const auto white = identify_id(g.players[1]);
    if (!black || !white || *black == *white) {
      ++skipped["a player without a trip"];
      continue;
    }
    const double w = half_life(days, o);
    auto& b = c.results[*black][*white];
    auto& wh = c.results[*white][*black];
    if (draw) {
      b[0] += 0.5 * w, b[1] += 0.5 * w, wh[0] += 0.5 * w, wh[1] += 0.5 * w;
    } else if (black_won) {
      b[0] += w, wh[1] += w;
    } else {
      b[1] += w, wh[0] += w;
    }
    for (const std::string* id : {&*black, &*white}) {
      auto& t = c.last_time[*id];
      t = std::max(t, g.end_time);
      ++c.games[*id];
    }
    const bool black_first = *black < *white;
    auto& p = c.pairings[black_first ? std::pair(*black, *white) : std::pair(*white, *black)];
    const stats::Outcome for_black = draw        ? stats::Outcome::Draw
                                     : black_won ? stats::Outcome::Win
                                                 : stats::Outcome::Loss;
    const stats::Outcome for_first = black_first                         ? for_black
                                     : for_black == stats::Outcome::Win  ? stats::Outcome::Loss
                                     : for_black == stats::Outcome::Loss ? stats::Outcome::Win
                                                                         : stats::Outcome::Draw;
    p.add(for_first, w);
    ++out.counted_games;
  }
  for (const auto& [reason, n] : skipped)
    out.notes.push_back(std::to_string(n) + " game" + (n == 1 ? "" : "s") + " not counted: " + reason);
  return c;
}

// Groups of players linked by `linked`, largest first (ties by their first id).
std::vector<std::vector<std::string>> components(
    const std::vector<std::string>& ids, const std::function<bool(const std::string&, const std::string&)>& linked) {
  std::map<std::string, int> group;
  std::vector<std::vector<std::string>> out;
  for (const std::string& start : ids) {
    if (group.count(start)) continue;
    out.emplace_back();
    std::vector<std::string> stack{start};
    group[start] = int(out.size()) - 1;
    while (!stack.empty()) {
      const std::string id = stack.back();
      stack.pop_back();
      out.back().push_back(id);
      for (const std::string& other : ids)
        if (!group.count(other) && linked(id, other)) group[other] = group[id], stack.push_back(other);
    }
    std::sort(out.back().begin(), out.back().end());
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
  return out;
}

// mk_rate's filter: drop the players with fewer than 1 weighted win or loss, or fewer than games_limit in all,
// counting only games among those left, until nobody is dropped.
std::vector<std::string> rated_players(const Results& results, double games_limit) {
  std::set<std::string> left;
  for (const auto& [id, r] : results) left.insert(id);
  for (bool dropped = true; dropped;) {
    dropped = false;
    std::vector<std::string> drop;
    for (const std::string& id : left) {
      double win = 0, loss = 0;
      for (const auto& [opp, wl] : results.at(id))
        if (left.count(opp)) win += wl[0], loss += wl[1];
      if (win < 1 || loss < 1 || win + loss < games_limit) drop.push_back(id);
    }
    for (const std::string& id : drop) left.erase(id), dropped = true;
  }
  return {left.begin(), left.end()};
}

// Fits one group with stats::rate_weighted; the ratings shifted to mean 1000, by id.
std::expected<stats::RatingList, std::string> fit_group(const std::vector<std::string>& group, const Counted& c,
                                                        double virtual_draws) {
  std::map<std::string, int> index;
  for (size_t i = 0; i < group.size(); ++i) index[group[i]] = int(i);
  std::vector<stats::WeightedResults> links;
  for (const auto& [ids, p] : c.pairings) {
    auto a = index.find(ids.first), b = index.find(ids.second);
    if (a == index.end() || b == index.end()) continue;
    stats::WeightedResults l = p;
    l.a = a->second;
    l.b = b->second;
    links.push_back(l);
  }
  stats::RatingOptions options;
  options.virtual_draws = virtual_draws;
  return stats::rate_weighted(group, links, options);
}

std::string name_of(const std::string& id) { return id.substr(0, id.find('+')); }

}  // namespace

std::map<std::string, double> LeagueRatings::rates() const {
  std::map<std::string, double> out;
  for (const LeaguePlayer& p : players) out[p.id] = p.rate;
  return out;
}

LeagueRatings rate_league(const std::vector<ListedGame>& games, const LeagueRatingOptions& options) {
  LeagueRatings out;
  const Counted c = count_games(games, options, out);
  std::map<std::string, LeaguePlayer> players;
  for (const auto& [id, r] : c.results) {
    LeaguePlayer& p = players[id];
    p.id = id;
    p.name = name_of(id);
    p.last_modified = c.last_time.at(id);
    p.games = c.games.at(id);
  }

  // mk_rate: the filter, the groups that met (a win between them), plain maximum likelihood per group.
  const std::vector<std::string> rated = rated_players(c.results, options.games_limit);
  const std::set<std::string> rated_set(rated.begin(), rated.end());
  auto beat = [&](const std::string& a, const std::string& b) {
    const auto& ra = c.results.at(a);
    auto it = ra.find(b);
    return it != ra.end() && (it->second[0] > 0 || it->second[1] > 0);
  };
  const auto groups = components(rated, beat);
  for (size_t g = 0; g < groups.size(); ++g) {
    auto fit = fit_group(groups[g], c, 0.0);
    if (!fit) {
      out.fit_error += (out.fit_error.empty() ? "" : "; ") +
                       ("rating group " + std::to_string(g) + " (" + name_of(groups[g][0]) + ", ...): " + fit.error());
      for (const std::string& id : groups[g]) players[id].rating_group = -1;  // not rated this time
      continue;
    }
    for (size_t i = 0; i < groups[g].size(); ++i) {
      LeaguePlayer& p = players[groups[g][i]];
      p.rating_group = int(g);
      p.rate = std::trunc(fit->engines[i].elo + AVERAGE_RATE);
      p.win = p.loss = 0;
      for (const auto& [opp, wl] : c.results.at(p.id))
        if (std::find(groups[g].begin(), groups[g].end(), opp) != groups[g].end()) p.win += wl[0], p.loss += wl[1];
    }
  }
  // Group 999: everyone else with a weighted win or loss of at least 1, over all their games.
  for (auto& [id, p] : players) {
    if (p.rating_group >= 0 && rated_set.count(id)) continue;
    p.rating_group = 999;
    p.rate = 0;
    p.win = p.loss = 0;
    for (const auto& [opp, wl] : c.results.at(id)) p.win += wl[0], p.loss += wl[1];
  }

  // This project's list: everyone who met someone, one virtual draw per pairing, mean 1000 per group.
  std::vector<std::string> all;
  for (const auto& [id, p] : players) all.push_back(id);
  auto met = [&](const std::string& a, const std::string& b) { return c.results.at(a).count(b) > 0; };
  const auto list_groups = components(all, met);
  for (size_t g = 0; g < list_groups.size(); ++g) {
    if (list_groups[g].size() < 2) continue;
    auto fit = fit_group(list_groups[g], c, 1.0);
    if (!fit) continue;
    for (size_t i = 0; i < list_groups[g].size(); ++i) {
      LeaguePlayer& p = players[list_groups[g][i]];
      const stats::EngineRating& e = fit->engines[i];
      p.listed = true;
      p.list_group = int(g);
      p.elo = e.elo + AVERAGE_RATE;
      p.lower = e.lower + AVERAGE_RATE;
      p.upper = e.upper + AVERAGE_RATE;
    }
  }

  for (auto& [id, p] : players)
    if (p.rating_group != 999 || p.win >= 1 || p.loss >= 1 || p.listed) out.players.push_back(p);
  std::stable_sort(out.players.begin(), out.players.end(), [](const LeaguePlayer& a, const LeaguePlayer& b) {
    if (a.rating_group != b.rating_group) return a.rating_group < b.rating_group;
    if (a.rate != b.rate) return a.rate > b.rate;
    return a.elo > b.elo;
  });
  return out;
}

}  // namespace arena::csa::league
