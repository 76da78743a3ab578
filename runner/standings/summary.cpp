#include "standings/summary.h"

#include <cmath>

#include "journal/journal_json.h"
#include "output/json.h"
#include "standings/ratings.h"

namespace arena::standings {

namespace bj = boost::json;

namespace {

std::string fixed(double v, int decimals) {
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (std::isnan(v)) return "nan";
  if (std::fabs(v) < 0.5 * std::pow(10.0, -decimals)) v = 0;  // no "-0.0"
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string signed_fixed(double v, int decimals) {
  std::string s = fixed(v, decimals);
  return v > 0 && s != "0" && s.find_first_not_of("0.") != std::string::npos ? "+" + s : s;
}

// "-" until the figure means something: an Elo of +inf after one win, or 0 +/- 0 while every pair is 1-1 (no
// variance yet), would read as a result.
bool meaningful(const stats::Estimate& e) {
  return std::isfinite(e.value) && std::isfinite(e.error()) && e.error() > 0;
}

std::string estimate_text(const stats::Estimate& e) {
  if (!meaningful(e)) return "-";
  return signed_fixed(e.value, 1) + " +/- " + fixed(e.error(), 1);
}

std::string wdl_text(const stats::WdlCounts& c) {
  std::string s = "+";
  s += std::to_string(c.wins);
  s += " -";
  s += std::to_string(c.losses);
  s += " =";
  s += std::to_string(c.draws);
  return s;
}

double percent(double part, double whole) { return whole > 0 ? 100.0 * part / whole : 0.0; }

std::string faults_text(const EngineRecord& f) {
  return "crash " + std::to_string(f.crashes) + " stall " + std::to_string(f.stalls) + " time " +
         std::to_string(f.time_losses) + " illegal " + std::to_string(f.illegal_moves);
}

std::string verdict_text(stats::SprtVerdict v) {
  switch (v) {
    case stats::SprtVerdict::AcceptH1:
      return "H1 accepted (pass)";
    case stats::SprtVerdict::AcceptH0:
      return "H0 accepted (fail)";
    default:
      return "inconclusive";
  }
}

std::string pad(const std::string& s, size_t width, bool right = false) {
  if (s.size() >= width) return s;
  return right ? std::string(width - s.size(), ' ') + s : s + std::string(width - s.size(), ' ');
}

bj::object wdl_json(const stats::WdlCounts& c) {
  bj::object o;
  o.emplace("wins", c.wins);
  o.emplace("losses", c.losses);
  o.emplace("draws", c.draws);
  return o;
}

// A rating as shown: ">+612.0" for an engine that won every game (its rating is a lower bound), "<" for one that
// lost every game.
std::string rating_text(const stats::EngineRating& r) {
  return std::string(r.all_won ? ">" : r.all_lost ? "<" : "") + signed_fixed(r.elo, 1);
}

std::string ratings_text(const Tally& tally, const RunInfo& info) {
  const auto list = rating_list(tally, info);
  if (!list) return "Ratings: none (" + list.error() + ")\n";
  std::string out = "Ratings (maximum likelihood, " +
                    (info.rating_anchor.empty() ? std::string("mean 0")
                                                : info.rating_anchor + " at " + signed_fixed(info.rating_anchor_elo, 1)) +
                    "; 95 % interval; LOS over the next engine):\n  " + pad("#", 3, true) + "  " + pad("name", 20) +
                    pad("Elo", 9, true) + pad("+/-", 8, true) + pad("games", 7, true) + pad("score", 8, true) +
                    pad("LOS", 8, true) + "\n";
  bool bounds = false;
  for (size_t i = 0; i < list->order.size(); ++i) {
    const stats::EngineRating& r = list->engines[size_t(list->order[i])];
    bounds |= r.all_won || r.all_lost;
    out += "  " + pad(std::to_string(i + 1), 3, true) + "  " + pad(tally.engines()[size_t(list->order[i])].name, 20) +
           pad(rating_text(r), 9, true) + pad(fixed(r.error, 1), 8, true) + pad(std::to_string(r.games), 7, true) +
           pad(fixed(percent(r.points, double(r.games)), 1) + "%", 8, true) +
           (i < list->likelihood_of_superiority.size()
                ? pad(fixed(100 * list->likelihood_of_superiority[i], 1) + "%", 8, true)
                : std::string()) +
           "\n";
  }
  if (bounds) out += "  (> won every game, < lost every game: the rating is a bound)\n";
  return out;
}

bj::value ratings_json(const Tally& tally, const RunInfo& info) {
  if (!has_rating_list(tally, info)) return nullptr;
  bj::object out;
  out.emplace("anchor", info.rating_anchor.empty() ? bj::value(nullptr) : bj::value(info.rating_anchor));
  out.emplace("anchor_elo", info.rating_anchor.empty() ? 0.0 : info.rating_anchor_elo);
  const auto list = rating_list(tally, info);
  out.emplace("error", list ? bj::value(nullptr) : bj::value(list.error()));
  bj::array engines;
  if (list)
    for (size_t i = 0; i < list->order.size(); ++i) {
      const stats::EngineRating& r = list->engines[size_t(list->order[i])];
      bj::object o;
      o.emplace("rank", int64_t(i + 1));
      o.emplace("name", tally.engines()[size_t(list->order[i])].name);
      o.emplace("elo", r.elo);
      o.emplace("error", r.error);
      o.emplace("lower", r.lower);
      o.emplace("upper", r.upper);
      o.emplace("games", r.games);
      o.emplace("points", r.points);
      o.emplace("bound", r.all_won ? bj::value("lower") : r.all_lost ? bj::value("upper") : bj::value(nullptr));
      o.emplace("los_next", i < list->likelihood_of_superiority.size() ? bj::value(list->likelihood_of_superiority[i])
                                                                        : bj::value(nullptr));
      engines.push_back(std::move(o));
    }
  out.emplace("engines", std::move(engines));
  return out;
}


// "Builds:" with a line per engine from git or with a checked bench, and the time controls' scaling.
std::string builds_text(const RunInfo& info) {
  std::string out;
  if (!info.builds.empty()) out += "Builds:\n";
  for (const journal::EngineBuild& b : info.builds) {
    out += "  " + pad(b.engine, 20);
    if (!b.repo.empty())
      out += b.repo + "@" + b.ref + " = " + b.commit.substr(0, 12) + (b.dirty ? " + uncommitted changes" : "");
    if (b.bench) out += std::string(b.repo.empty() ? "" : ", ") + "bench " + std::to_string(*b.bench) + " checked";
    out += "\n";
  }
  if (info.scale_tc)
    out += "Time controls scaled x" + fixed(info.scale_tc->factor, 3) + ": " + info.scale_tc->engine + "'s bench gave " +
           fixed(info.scale_tc->measured_nps, 0) + " nps, the time controls are written for " +
           fixed(info.scale_tc->nps, 0) + "\n";
  return out;
}

}  // namespace

std::string status_line(const Tally& tally, const RunInfo& info) {
  std::string s = "Games " + std::to_string(tally.scored()) + "/" + std::to_string(info.total_games);
  const auto& pairings = tally.pairings();
  const auto& engines = tally.engines();
  if (pairings.size() == 1) {
    const PairingRecord& r = pairings[0];
    s += " | " + engines[size_t(r.pairing.first)].name + " vs " + engines[size_t(r.pairing.second)].name + " " +
         wdl_text(r.wdl);
    if (auto sum = tally.summary(0)) s += " | Elo " + estimate_text(sum->elo) + " nElo " + estimate_text(sum->nelo);
    if (info.sprt) {
      SprtStatus st = sprt_status(tally, *info.sprt);
      s += " | LLR " + fixed(st.llr, 2) + " (" + fixed(st.bounds.lower, 2) + ", " + fixed(st.bounds.upper, 2) + ")";
    }
  } else if (info.type == config::TournamentType::Gauntlet && !engines.empty()) {
    const EngineRecord& e = engines[0];
    s += " | " + e.name + " " + wdl_text(e.wdl) + " (" + fixed(percent(e.points(), double(e.wdl.games())), 1) + " %)";
  } else {
    const EngineRecord* leader = nullptr;
    for (const EngineRecord& e : engines)
      if (!leader || e.points() > leader->points()) leader = &e;
    if (leader && leader->wdl.games() > 0)
      s += " | leader " + leader->name + " " + fixed(leader->points(), 1) + "/" + std::to_string(leader->wdl.games());
  }
  s += " | " + faults_text(tally.faults());
  return s;
}

std::string summary_text(const Tally& tally, const Summary& sum) {
  std::string out;
  const auto& engines = tally.engines();
  for (size_t i = 0; i < tally.pairings().size(); ++i) {
    const PairingRecord& r = tally.pairings()[i];
    const std::string& a = engines[size_t(r.pairing.first)].name;
    const std::string& b = engines[size_t(r.pairing.second)].name;
    const int64_t n = r.wdl.games();
    out += "Results of " + a + " vs " + b + " (" + std::to_string(n) + " games";
    if (tally.games_per_pair() == 2) out += ", " + std::to_string(r.penta.pairs()) + " complete pairs";
    out += "):\n";
    if (n == 0) {
      out += "  no games\n";
      continue;
    }
    const double points = double(r.wdl.wins) + 0.5 * double(r.wdl.draws);
    out += "  Games     W " + std::to_string(r.wdl.wins) + "  L " + std::to_string(r.wdl.losses) + "  D " +
           std::to_string(r.wdl.draws) + "  points " + fixed(points, 1) + " (" + fixed(percent(points, double(n)), 1) +
           " %)\n";
    out += "  As black  " + wdl_text(r.as_black) + "   as white  " + wdl_text(r.as_white) + "   (" + a + "'s view)\n";
    if (auto s = tally.summary(i)) {
      out += "  Elo       " + estimate_text(s->elo) +
             (meaningful(s->elo) ? " (95 %: " + fixed(s->elo.lower, 1) + " .. " + fixed(s->elo.upper, 1) + ")" : "") +
             "   nElo " + estimate_text(s->nelo) + "\n";
      out += "  LOS       " + fixed(100 * s->los, 1) + " %   draw ratio " +
             fixed(percent(double(r.wdl.draws), double(n)), 1) + " %\n";
    }
    if (tally.games_per_pair() == 2)
      out += "  Pairs     [0: " + std::to_string(r.penta.ll) + ", 0.5: " + std::to_string(r.penta.ld) +
             ", 1: " + std::to_string(r.penta.dd_wl) + ", 1.5: " + std::to_string(r.penta.wd) +
             ", 2: " + std::to_string(r.penta.ww) + "] (pentanomial, points per pair)\n";
    if (i == 0 && sum.info.sprt) {
      SprtStatus st = sprt_status(tally, *sum.info.sprt);
      out += "  SPRT      LLR " + fixed(st.llr, 2) + " (" + fixed(st.bounds.lower, 2) + ", " +
             fixed(st.bounds.upper, 2) + ")  elo0 " + fixed(sum.info.sprt->elo0, 2) + " elo1 " +
             fixed(sum.info.sprt->elo1, 2) +
             (sum.info.sprt->model == stats::EloModel::Logistic ? " (logistic)" : " (normalized)") + "  on the first " +
             std::to_string(tally.prefix_pairs()) + " pairs  -> " + verdict_text(st.verdict) + "\n";
    }
  }
  out += "Engines:\n  " + pad("name", 20) + pad("games", 7, true) + pad("points", 9, true) + pad("score", 8, true) +
         pad("crashes", 9, true) + pad("stalls", 8, true) + pad("time", 6, true) + pad("illegal", 9, true) + "\n";
  for (const EngineRecord& e : engines) {
    const int64_t n = e.wdl.games();
    out += "  " + pad(e.name, 20) + pad(std::to_string(n), 7, true) + pad(fixed(e.points(), 1), 9, true) +
           pad(fixed(percent(e.points(), double(n)), 1) + "%", 8, true) + pad(std::to_string(e.crashes), 9, true) +
           pad(std::to_string(e.stalls), 8, true) + pad(std::to_string(e.time_losses), 6, true) +
           pad(std::to_string(e.illegal_moves), 9, true) + "\n";
  }
  if (sum.info.type == config::TournamentType::RoundRobin && engines.size() > 2) {
    // Row engine's points against the column engine.
    out += "Cross table (points of the row engine / games):\n  " + pad("", 20);
    for (const EngineRecord& e : engines) out += pad(e.name.substr(0, 11), 12, true);
    out += "\n";
    for (size_t i = 0; i < engines.size(); ++i) {
      out += "  " + pad(engines[i].name, 20);
      for (size_t j = 0; j < engines.size(); ++j) {
        std::string cell = "-";
        for (const PairingRecord& r : tally.pairings()) {
          const bool fwd = size_t(r.pairing.first) == i && size_t(r.pairing.second) == j;
          const bool rev = size_t(r.pairing.first) == j && size_t(r.pairing.second) == i;
          if (!fwd && !rev) continue;
          const stats::WdlCounts c = fwd ? r.wdl : r.wdl.flipped();
          cell = fixed(double(c.wins) + 0.5 * double(c.draws), 1) + "/" + std::to_string(c.games());
        }
        out += pad(cell, 12, true);
      }
      out += "\n";
    }
  }
  if (has_rating_list(tally, sum.info)) out += ratings_text(tally, sum.info);
  out += builds_text(sum.info);
  if (tally.replays() > 0)
    out += std::to_string(tally.replays()) + " broken pair attempt(s) replayed; " + std::to_string(tally.void_games()) +
           " game(s) voided (still counted in the faults above)\n";
  out +=
      "Games scored " + std::to_string(tally.scored()) + " of " + std::to_string(sum.info.total_games) + " scheduled";
  if (sum.resumed_games > 0) out += " (" + std::to_string(sum.resumed_games) + " journal lines from before the resume)";
  out += "; " + fixed(sum.elapsed_s, 1) + " s";
  if (sum.runner_cpu_s >= 0) out += "; runner CPU " + fixed(sum.runner_cpu_s, 1) + " s";
  if (sum.runner_max_rss_kb >= 0) out += ", peak RSS " + fixed(double(sum.runner_max_rss_kb) / 1024.0, 1) + " MB";
  out += "; journal " + sum.journal + "\n";
  switch (sum.end) {
    case run::RunEnd::Completed:
      break;
    case run::RunEnd::SprtDecided:
      out += "Stopped: the SPRT has decided\n";
      break;
    case run::RunEnd::Stopped:
      out += "Stopped: the run's STOP file appeared (its SPRT has decided); no further pair started\n";
      break;
    case run::RunEnd::Interrupted:
      out += "Interrupted: run again with --resume to continue\n";
      break;
    case run::RunEnd::Error:
      out += "Error: " + sum.error + "\n";
      break;
  }
  return out;
}

std::string verdict_line(const Tally& tally, const Summary& sum) {
  if (!sum.info.sprt || tally.engines().size() < 2) return {};
  const SprtStatus st = sprt_status(tally, *sum.info.sprt);
  return "sprt: " + verdict_text(st.verdict) + ": " + tally.engines()[0].name + " vs " + tally.engines()[1].name +
         ", " + std::to_string(tally.scored()) + " games, LLR " + fixed(st.llr, 2) + " (" + fixed(st.bounds.lower, 2) +
         ", " + fixed(st.bounds.upper, 2) + "); exit code " + std::to_string(sum.exit_code);
}

// Members in the order written; json::serialize writes infinities and NaN (an Elo from a 100 % score) as null.
std::string summary_json(const Tally& tally, const Summary& sum) { return json::serialize(summary_value(tally, sum)); }

bj::value summary_value(const Tally& tally, const Summary& sum) {
  const auto& engines = tally.engines();
  bj::object out;
  out.emplace("type", to_string(sum.info.type));
  out.emplace("end", run::to_string(sum.end));
  out.emplace("exit_code", sum.exit_code);
  out.emplace("error", sum.error.empty() ? bj::value(nullptr) : bj::value(sum.error));
  bj::object games;
  games.emplace("scheduled", sum.info.total_games);
  games.emplace("scored", tally.scored());
  games.emplace("journaled", tally.journaled());
  games.emplace("void", tally.void_games());
  games.emplace("replayed_pairs", tally.replays());
  out.emplace("games", std::move(games));
  out.emplace("elapsed_s", sum.elapsed_s);
  out.emplace("journal", sum.journal);
  out.emplace("engine_moves", sum.engine_moves);
  out.emplace("builds", journal::builds_json(sum.info.builds));
  out.emplace("scale_tc", journal::time_scale_json(sum.info.scale_tc));
  out.emplace("runner_cpu_s", sum.runner_cpu_s >= 0 ? bj::value(sum.runner_cpu_s) : bj::value(nullptr));
  out.emplace("runner_user_s", sum.runner_user_s >= 0 ? bj::value(sum.runner_user_s) : bj::value(nullptr));
  out.emplace("runner_sys_s", sum.runner_sys_s >= 0 ? bj::value(sum.runner_sys_s) : bj::value(nullptr));
  out.emplace("runner_max_rss_kb", sum.runner_max_rss_kb >= 0 ? bj::value(sum.runner_max_rss_kb) : bj::value(nullptr));
  bj::array engine_list;
  for (const EngineRecord& e : engines) {
    bj::object o;
    o.emplace("name", e.name);
    o.emplace("games", e.wdl.games());
    o.emplace("wins", e.wdl.wins);
    o.emplace("losses", e.wdl.losses);
    o.emplace("draws", e.wdl.draws);
    o.emplace("points", e.points());
    o.emplace("crashes", e.crashes);
    o.emplace("stalls", e.stalls);
    o.emplace("time_losses", e.time_losses);
    o.emplace("illegal_moves", e.illegal_moves);
    engine_list.push_back(std::move(o));
  }
  out.emplace("engines", std::move(engine_list));
  bj::array pairings;
  for (size_t i = 0; i < tally.pairings().size(); ++i) {
    const PairingRecord& r = tally.pairings()[i];
    bj::object o;
    o.emplace("first", engines[size_t(r.pairing.first)].name);
    o.emplace("second", engines[size_t(r.pairing.second)].name);
    o.emplace("games", r.wdl.games());
    o.emplace("wins", r.wdl.wins);
    o.emplace("losses", r.wdl.losses);
    o.emplace("draws", r.wdl.draws);
    o.emplace("as_black", wdl_json(r.as_black));
    o.emplace("as_white", wdl_json(r.as_white));
    o.emplace("pentanomial", bj::array{r.penta.ll, r.penta.ld, r.penta.dd_wl, r.penta.wd, r.penta.ww});
    if (auto s = tally.summary(i)) {
      o.emplace("elo", s->elo.value);
      o.emplace("elo_error", s->elo.error());
      o.emplace("elo_lower", s->elo.lower);
      o.emplace("elo_upper", s->elo.upper);
      o.emplace("nelo", s->nelo.value);
      o.emplace("nelo_error", s->nelo.error());
      o.emplace("los", s->los);
      o.emplace("score", s->score);
      o.emplace("draw_ratio", r.wdl.games() ? double(r.wdl.draws) / double(r.wdl.games()) : 0.0);
    } else {
      for (const char* key :
           {"elo", "elo_error", "elo_lower", "elo_upper", "nelo", "nelo_error", "los", "score", "draw_ratio"})
        o.emplace(key, nullptr);
    }
    pairings.push_back(std::move(o));
  }
  out.emplace("pairings", std::move(pairings));
  out.emplace("ratings", ratings_json(tally, sum.info));
  if (sum.info.sprt) {
    const stats::SprtConfig& c = *sum.info.sprt;
    SprtStatus st = sprt_status(tally, c);
    bj::object sprt;
    sprt.emplace("elo0", c.elo0);
    sprt.emplace("elo1", c.elo1);
    sprt.emplace("alpha", c.alpha);
    sprt.emplace("beta", c.beta);
    sprt.emplace("model", c.model == stats::EloModel::Logistic ? "logistic" : "normalized");
    sprt.emplace("llr", st.llr);
    sprt.emplace("lower", st.bounds.lower);
    sprt.emplace("upper", st.bounds.upper);
    sprt.emplace("verdict", stats::to_string(st.verdict));
    sprt.emplace("prefix_pairs", tally.prefix_pairs());  // decided on pairs 0..prefix_pairs-1
    out.emplace("sprt", std::move(sprt));
  } else {
    out.emplace("sprt", nullptr);
  }
  return out;
}

}  // namespace arena::standings
