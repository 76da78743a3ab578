#include "web/report.h"

#include <algorithm>
#include <array>
#include <boost/json.hpp>
#include <chrono>
#include <cmath>
#include <map>
#include <optional>

#include "game/clock.h"
#include "output/json.h"
#include "output/result_json.h"
#include "rules/notation.h"
#include "standings/journal_stats.h"
#include "standings/ratings.h"
#include "standings/summary.h"
#include "standings/tally.h"
#include "web/game_row.h"
#include "web/spsa_chart.h"

namespace arena::web {

namespace bj = boost::json;
using Micros = std::chrono::microseconds;

namespace {

shogi::Color side_to_move(const std::string& sfen) {
  const size_t space = sfen.find(' ');
  return space != std::string::npos && sfen.compare(space, 3, " w ") == 0 ? shogi::WHITE : shogi::BLACK;
}

bool is_fault(Termination t) {
  return t == Termination::TimeForfeit || t == Termination::Stall || t == Termination::Disconnect ||
         t == Termination::IllegalMove || t == Termination::IllegalDeclaration;
}

bj::value finite_or_null(double v) { return std::isfinite(v) ? bj::value(v) : bj::value(nullptr); }

// A score as the charts read it: centipawns as a number, a mate as "#N" (negative: the mover is mated), else null.
bj::value score_value(const SearchInfo& info) {
  if (info.score_mate) return bj::value("#" + std::to_string(*info.score_mate));
  if (info.score_cp) return bj::value(*info.score_cp);
  return nullptr;
}

std::string title_of(const journal::JournalContents& contents) {
  if (!contents.header) return "journal";
  std::string title = contents.header->type + ":";
  for (size_t i = 0; i < contents.header->engines.size(); ++i)
    title += (i ? " vs " : " ") + contents.header->engines[i];
  return title;
}

// One engine's moves for the time chart and its figures.
struct EngineTimes {
  struct Point {
    int64_t given, used, game;
    int ply;
    int kind;  // 0 within the allowance, 1 over it but within the margin, 2 lost on time
  };
  std::vector<Point> points;
  int64_t moves = 0, over = 0, losses = 0, timed = 0;
  double used_total_ms = 0, share_total = 0, share_max = 0;
};

bj::object times_object(const std::string& name, EngineTimes& t, size_t max_points) {
  bj::object o;
  o.emplace("engine", name);
  o.emplace("moves", t.moves);
  o.emplace("timed_moves", t.timed);
  o.emplace("mean_used_ms", t.moves ? t.used_total_ms / double(t.moves) : 0.0);
  o.emplace("mean_share", t.timed ? t.share_total / double(t.timed) : 0.0);
  o.emplace("max_share", t.share_max);
  o.emplace("over_allowance", t.over);
  o.emplace("time_losses", t.losses);
  // Every move over its allowance, then an even spread of the others up to the limit.
  std::vector<const EngineTimes::Point*> keep, rest;
  for (const auto& p : t.points) (p.kind > 0 ? keep : rest).push_back(&p);
  if (keep.size() > max_points) keep.resize(max_points);
  const size_t room = max_points - keep.size();
  const bool sampled = rest.size() > room;
  if (sampled) {
    std::vector<const EngineTimes::Point*> spread;
    spread.reserve(room);
    for (size_t i = 0; i < room; ++i) spread.push_back(rest[i * rest.size() / room]);
    rest = std::move(spread);
  }
  keep.insert(keep.end(), rest.begin(), rest.end());
  bj::array points;
  points.reserve(keep.size());
  for (const auto* p : keep)
    points.push_back(
        bj::array{p->given, p->used < 0 ? bj::value(nullptr) : bj::value(p->used), p->game, p->ply, p->kind});
  o.emplace("points", std::move(points));
  o.emplace("sampled", sampled);
  return o;
}

}  // namespace

std::vector<MoveTiming> move_timings(const PlayedGame& game) {
  std::vector<MoveTiming> out;
  if (!game.time_controls[shogi::BLACK] || !game.time_controls[shogi::WHITE]) return out;
  game::Clock clocks[shogi::COLOR_NB] = {game::Clock(*game.time_controls[shogi::BLACK]),
                                         game::Clock(*game.time_controls[shogi::WHITE])};
  // The reconstruction never flags: the game's own verdicts are in its result.
  const Micros never(int64_t(1) << 50);
  // A recorded time is the runner's measure rounded down to the millisecond: charging it plus half a millisecond
  // leaves no drift in the engine's favour over a long game with an increment.
  const Micros rounding(500);
  shogi::Color mover = side_to_move(game.start_sfen);
  for (size_t i = 0; i < game.moves.size(); ++i, mover = ~mover) {
    const MoveRecord& m = game.moves[i];
    if (m.opening) continue;
    MoveTiming t;
    t.ply = int(i) + 1;
    t.mover = mover;
    if (auto allowed = clocks[mover].allowed()) t.given_ms = allowed->count() / 1000;
    t.used_ms = m.time_ms;
    out.push_back(t);
    clocks[mover].charge(Micros(m.time_ms * 1000) + rounding, never);
  }
  if (game.result.termination == Termination::TimeForfeit) {
    MoveTiming t;
    t.ply = int(game.moves.size()) + 1;
    t.mover = mover;
    if (auto allowed = clocks[mover].allowed()) t.given_ms = allowed->count() / 1000;
    t.used_ms = game.forfeit_used_ms.value_or(-1);
    t.forfeit = true;
    out.push_back(t);
  }
  return out;
}

ReportData report_data(const journal::JournalContents& contents, const std::string& source,
                       const ReportOptions& options) {
  ReportData data;
  const bool have_lines = contents.lines.size() == contents.games.size();

  // The standings at the end, and the Elo of each pairing and the LLR as the games came in (at most ~600 points).
  journal::JournalContents no_games;
  no_games.header = contents.header;
  standings::JournalStandings running = standings::standings_of(no_games);
  const std::optional<stats::SprtConfig> sprt = running.info.sprt;
  const size_t lines = contents.games.size();
  const size_t stride = std::max<size_t>(1, lines / 600);
  // The rating list of more than two engines, at about 100 points (each is a fit of every engine).
  const size_t rating_stride = std::max<size_t>(1, lines / 100);
  bj::array xs, llr, rating_xs;
  std::vector<bj::array> elo, lower, upper, rating;
  // A point of the rating chart and one of the Elo and LLR charts, after `games` games.
  auto sample_ratings = [&](size_t games) {
    const auto list = standings::rating_list(running.tally, running.info);
    rating.resize(running.tally.engines().size());
    rating_xs.emplace_back(int64_t(games));
    for (size_t e = 0; e < rating.size(); ++e) {
      while (rating[e].size() + 1 < rating_xs.size()) rating[e].emplace_back(nullptr);
      rating[e].push_back(list && list->engines[e].games > 0 ? bj::value(list->engines[e].elo) : bj::value(nullptr));
    }
  };
  auto sample_pairings = [&](size_t games) {
    xs.emplace_back(int64_t(games));
    const size_t pairings = running.tally.pairings().size();
    if (elo.size() < pairings) elo.resize(pairings), lower.resize(pairings), upper.resize(pairings);
    for (size_t p = 0; p < pairings; ++p) {
      auto s = running.tally.summary(p);
      // A pairing found later than the first sample (no schedule) starts with nulls.
      while (elo[p].size() + 1 < xs.size())
        elo[p].emplace_back(nullptr), lower[p].emplace_back(nullptr), upper[p].emplace_back(nullptr);
      elo[p].push_back(s ? finite_or_null(s->elo.value) : bj::value(nullptr));
      lower[p].push_back(s ? finite_or_null(s->elo.lower) : bj::value(nullptr));
      upper[p].push_back(s ? finite_or_null(s->elo.upper) : bj::value(nullptr));
    }
    if (sprt) llr.push_back(finite_or_null(standings::sprt_status(running.tally, *sprt).llr));
  };
  // The games shown: every line but a second one of the same game (a hand-edited or spliced journal), which the
  // standings leave out too. `game[k]` is the k-th game's index in contents.
  std::vector<size_t> game;
  for (size_t line = 0; line < lines; ++line) {
    const journal::JournalGame& g = contents.games[line];
    if (!running.tally.add(g)) {
      data.warnings.push_back("game " + std::to_string(g.game + 1) + " (pair " + std::to_string(g.pair) +
                              "): a second line of the game, left out");
      continue;
    }
    game.push_back(line);
    const bool rated = standings::has_rating_list(running.tally, running.info);
    if (rated && game.size() % rating_stride == 0) sample_ratings(game.size());
    if (game.size() % stride == 0) sample_pairings(game.size());
  }
  // The last game is always a point.
  if (!game.empty() && standings::has_rating_list(running.tally, running.info) &&
      (rating_xs.empty() || rating_xs.back().as_int64() != int64_t(game.size())))
    sample_ratings(game.size());
  if (!game.empty() && (xs.empty() || xs.back().as_int64() != int64_t(game.size()))) sample_pairings(game.size());
  const size_t n = game.size();
  data.games = int64_t(n);
  bj::object series;
  series.emplace("games", std::move(xs));
  bj::array pairing_series;
  for (size_t p = 0; p < elo.size(); ++p) {
    const auto& pr = running.tally.pairings()[p];
    const auto& engines = running.tally.engines();
    bj::object s;
    s.emplace("name", engines[size_t(pr.pairing.first)].name + " vs " + engines[size_t(pr.pairing.second)].name);
    s.emplace("elo", std::move(elo[p]));
    s.emplace("lower", std::move(lower[p]));
    s.emplace("upper", std::move(upper[p]));
    pairing_series.push_back(std::move(s));
  }
  series.emplace("pairings", std::move(pairing_series));
  if (!rating.empty()) {
    bj::array engines;
    for (size_t e = 0; e < rating.size(); ++e)
      engines.emplace_back(bj::object{{"name", running.tally.engines()[e].name}, {"elo", std::move(rating[e])}});
    series.emplace("ratings", bj::object{{"games", std::move(rating_xs)}, {"engines", std::move(engines)}});
  } else {
    series.emplace("ratings", nullptr);
  }
  if (sprt) {
    const stats::SprtBounds bounds = stats::sprt_bounds(*sprt);
    series.emplace("llr", std::move(llr));
    series.emplace("bounds", bj::array{bounds.lower, bounds.upper});
  } else {
    series.emplace("llr", nullptr);
    series.emplace("bounds", nullptr);
  }

  standings::Summary summary;
  summary.info = running.info;
  summary.journal = source;
  if (sprt && sprt_status(running.tally, *sprt).verdict != stats::SprtVerdict::Continue)
    summary.end = run::RunEnd::SprtDecided;
  const bj::value summary_value = standings::summary_value(running.tally, summary);

  // Terminations: how the games ended, by result; and for each engine, its wins, losses and draws by termination.
  std::map<std::string, std::array<int64_t, 4>> by_termination;                    // black, white, draw, not scored
  std::map<std::string, std::map<std::string, std::array<int64_t, 3>>> by_engine;  // win, loss, draw
  for (const size_t line : game) {
    const journal::JournalGame& g = contents.games[line];
    const std::string t(to_string(g.termination));
    auto& counts = by_termination[t];
    const int column = g.replay                         ? 3
                       : g.outcome == Outcome::BlackWin ? 0
                       : g.outcome == Outcome::WhiteWin ? 1
                       : g.outcome == Outcome::Draw     ? 2
                                                        : 3;
    ++counts[size_t(column)];
    if (column == 3) continue;
    for (shogi::Color c : {shogi::BLACK, shogi::WHITE}) {
      const std::string& name = c == shogi::BLACK ? g.black : g.white;
      const int slot = column == 2 ? 2 : (column == 0) == (c == shogi::BLACK) ? 0 : 1;
      ++by_engine[name][t][size_t(slot)];
    }
  }
  std::vector<std::pair<std::string, std::array<int64_t, 4>>> terminations(by_termination.begin(),
                                                                           by_termination.end());
  std::stable_sort(terminations.begin(), terminations.end(), [](const auto& a, const auto& b) {
    auto total = [](const auto& c) { return c[0] + c[1] + c[2] + c[3]; };
    return total(a.second) > total(b.second);
  });
  bj::array termination_rows;
  for (const auto& [t, c] : terminations)
    termination_rows.push_back(
        bj::object{{"termination", t}, {"black", c[0]}, {"white", c[1]}, {"draw", c[2]}, {"unscored", c[3]}});
  bj::object engine_terminations;
  for (const auto& [name, rows] : by_engine) {
    bj::object o;
    for (const auto& [t, c] : rows) o.emplace(t, bj::array{c[0], c[1], c[2]});
    engine_terminations.emplace(name, std::move(o));
  }

  // Replays: the faults first, then the rest in journal order.
  std::vector<size_t> replay_order;
  for (size_t i = 0; i < n; ++i)
    if (is_fault(contents.games[game[i]].termination)) replay_order.push_back(i);
  for (size_t i = 0; i < n; ++i)
    if (!is_fault(contents.games[game[i]].termination)) replay_order.push_back(i);
  std::vector<bool> embed(n, false);
  for (size_t i = 0; i < replay_order.size() && i < options.max_replays; ++i) embed[replay_order[i]] = true;

  // Every engine, in the header's order, then any other that played.
  std::map<std::string, EngineTimes> times;
  std::vector<std::string> time_order;
  auto times_of = [&](const std::string& name) -> EngineTimes& {
    auto [it, added] = times.try_emplace(name);
    if (added) time_order.push_back(name);
    return it->second;
  };
  if (contents.header)
    for (const std::string& name : contents.header->engines) times_of(name);
  bj::array game_rows, replays;
  for (size_t i = 0; i < n; ++i) {
    const journal::JournalGame& g = contents.games[game[i]];
    bj::object row = game_row(g);
    int64_t replay_index = -1;
    std::optional<PlayedGame> played;
    if (have_lines) {
      auto parsed = parse_result_json(contents.lines[game[i]]);
      if (parsed) {
        played = std::move(*parsed);
      } else {
        data.warnings.push_back("game " + std::to_string(g.game + 1) + " (pair " + std::to_string(g.pair) +
                                "): " + parsed.error() + "; listed without its moves or times");
      }
    }
    if (played) {
      const std::vector<MoveTiming> timings = move_timings(*played);
      std::vector<int64_t> given(played->moves.size(), -1);
      for (const MoveTiming& t : timings) {
        EngineTimes& e = times_of(played->names[t.mover]);
        if (!t.forfeit) {
          given[size_t(t.ply - 1)] = t.given_ms;
          ++e.moves;
          e.used_total_ms += double(t.used_ms);
        } else {
          ++e.losses;
        }
        if (t.given_ms < 0) continue;
        const bool over = t.forfeit || t.used_ms > t.given_ms;
        if (!t.forfeit && t.given_ms > 0) {
          const double share = double(t.used_ms) / double(t.given_ms);
          ++e.timed;
          e.share_total += share;
          e.share_max = std::max(e.share_max, share);
        }
        if (over && !t.forfeit) ++e.over;
        e.points.push_back({t.given_ms, t.used_ms, g.game, t.ply, t.forfeit ? 2 : over ? 1 : 0});
      }
      if (embed[i]) {
        bj::object r;
        r.emplace("game", g.game);
        r.emplace("black", played->names[shogi::BLACK]);
        r.emplace("white", played->names[shogi::WHITE]);
        r.emplace("time_control", played->time_control);
        r.emplace("start_sfen", played->start_sfen);
        bj::array moves, used, score, depth, given_ms;
        int opening = 0;
        for (size_t m = 0; m < played->moves.size(); ++m) {
          const MoveRecord& mr = played->moves[m];
          opening += mr.opening ? 1 : 0;
          moves.emplace_back(shogi::to_usi(mr.move));
          used.emplace_back(mr.time_ms);
          score.push_back(score_value(mr.info));
          depth.push_back(mr.info.depth ? bj::value(*mr.info.depth) : bj::value(nullptr));
          given_ms.push_back(given[m] < 0 ? bj::value(nullptr) : bj::value(given[m]));
        }
        r.emplace("moves", std::move(moves));
        r.emplace("times_ms", std::move(used));
        r.emplace("given_ms", std::move(given_ms));
        r.emplace("score", std::move(score));
        r.emplace("depth", std::move(depth));
        r.emplace("opening_plies", opening);
        r.emplace("result", to_string(played->result.outcome));
        r.emplace("termination", to_string(played->result.termination));
        r.emplace("detail", played->result.detail);
        replay_index = int64_t(replays.size());
        replays.push_back(std::move(r));
      }
    }
    row.emplace("replay_index", replay_index);
    game_rows.push_back(std::move(row));
  }
  data.replays = int64_t(replays.size());

  bj::array time_rows;
  for (const std::string& name : time_order)
    time_rows.push_back(times_object(name, times[name], options.max_time_points));

  bj::object out;
  out.emplace("title", title_of(contents));
  out.emplace("source", source);
  out.emplace("created", contents.header ? contents.header->created : std::string());
  out.emplace("type", contents.header ? contents.header->type : std::string());
  out.emplace("engines", [&] {
    bj::array a;
    for (const auto& e : running.tally.engines()) a.emplace_back(e.name);
    return a;
  }());
  out.emplace("summary", std::move(summary_value));
  out.emplace("series", std::move(series));
  out.emplace("terminations", std::move(termination_rows));
  out.emplace("engine_terminations", std::move(engine_terminations));
  out.emplace("times", std::move(time_rows));
  out.emplace("games", std::move(game_rows));
  out.emplace("replays", std::move(replays));
  out.emplace("max_replays", int64_t(options.max_replays));
  // An SPSA run: theta over its pairs, the charts the live page drew.
  if (contents.header && contents.header->spsa) {
    SpsaHistory history(contents.header->spsa->params, contents.header->spsa->schedule);
    for (const journal::SpsaPair& p : contents.spsa_pairs)
      if (p.theta) history.add(p.k, *p.theta, p.result);
    out.emplace("spsa", history.json());
  } else {
    out.emplace("spsa", nullptr);
  }
  data.json = json::serialize(out);
  return data;
}

}  // namespace arena::web
