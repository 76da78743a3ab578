#include "analysis/summary.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace arena::analysis {

void MoveStats::add(const MoveAnalysis& move) {
  ++moves;
  loss_cp += move.judged.loss_cp;
  if (move.judged.judgement == Judgement::Best) ++best;
  if (move.judged.judgement == Judgement::Inaccuracy) ++inaccuracies;
  if (move.judged.judgement == Judgement::Mistake) ++mistakes;
  if (move.judged.judgement == Judgement::Blunder) ++blunders;
}

std::string_view phase_name(int phase) {
  static constexpr std::string_view names[PHASE_COUNT] = {"plies 1-40", "plies 41-80", "plies 81-"};
  return names[phase];
}

int phase_of(int ply) { return ply <= 40 ? 0 : ply <= 80 ? 1 : 2; }

std::string_view time_bucket_name(int bucket) {
  static constexpr std::string_view names[TIME_BUCKET_COUNT] = {"> 1/2 left", "1/5-1/2 left", "< 1/5 left", "no clock"};
  return names[bucket];
}

int time_bucket_of(std::int64_t given_ms, std::int64_t first_given_ms) {
  if (given_ms < 0 || first_given_ms <= 0) return 3;
  if (2 * given_ms > first_given_ms) return 0;
  if (5 * given_ms >= first_given_ms) return 1;
  return 2;
}

std::vector<EngineSummary> summarise(const std::vector<GameAnalysis>& games) {
  std::vector<EngineSummary> out;
  std::map<std::string, size_t> index;
  auto engine = [&](const std::string& name) -> EngineSummary& {
    auto [it, added] = index.emplace(name, out.size());
    if (added) {
      EngineSummary e;
      e.engine = name;
      out.push_back(std::move(e));
    }
    return out[it->second];
  };
  for (const GameAnalysis& g : games) {
    std::int64_t first_given[shogi::COLOR_NB] = {-1, -1};
    for (shogi::Color c : {shogi::BLACK, shogi::WHITE}) {
      EngineSummary& e = engine(g.names[c]);
      ++e.games;
      const Outcome won = c == shogi::BLACK ? Outcome::BlackWin : Outcome::WhiteWin;
      if (g.outcome == Outcome::Draw)
        ++e.draws;
      else if (g.outcome == won)
        ++e.wins;
      else if (g.outcome != Outcome::None) {
        ++e.losses;
        LostGame lost;
        lost.game = g.game;
        lost.source = g.source;
        lost.opponent = g.names[~c];
        lost.decisive = g.decisive;
        if (g.decisive)
          for (const MoveAnalysis& m : g.moves)
            if (m.ply == g.decisive->ply) {
              lost.move = m.move;
              lost.best = m.best;
              lost.loss_cp = m.judged.loss_cp;
            }
        e.lost.push_back(std::move(lost));
      }
    }
    for (const MoveAnalysis& m : g.moves) {
      EngineSummary& e = engine(g.names[m.mover]);
      if (first_given[m.mover] < 0) first_given[m.mover] = m.given_ms;
      e.all.add(m);
      e.by_phase[size_t(phase_of(m.ply))].add(m);
      e.by_time[size_t(time_bucket_of(m.given_ms, first_given[m.mover]))].add(m);
      if (m.judged.missed_mate) ++e.missed_mates;
      if (m.judged.win_to_loss) ++e.wins_to_losses;
    }
  }
  for (EngineSummary& e : out)
    std::stable_sort(e.lost.begin(), e.lost.end(), [](const LostGame& a, const LostGame& b) {
      return a.source != b.source ? a.source < b.source : a.game < b.game;
    });
  return out;
}

namespace {

std::string row(std::string_view label, const MoveStats& s) {
  char buf[200];
  auto per100 = [&](std::int64_t n) { return s.moves ? 100.0 * double(n) / double(s.moves) : 0.0; };
  std::snprintf(buf, sizeof buf, "  %-24.24s %7lld %8.1f %8.2f %8.2f %8.2f %7.1f%%\n", std::string(label).c_str(),
                static_cast<long long>(s.moves), s.average_loss(), per100(s.blunders), per100(s.mistakes),
                per100(s.inaccuracies), 100.0 * s.agreement());
  return buf;
}

// "; own scores 40 / -35": each engine's own score at the decisive mistake (black's, white's; each its own view).
std::string own_scores(const DecisiveMistake& d) {
  if (!d.own[shogi::BLACK] && !d.own[shogi::WHITE]) return "";
  auto text = [](const std::optional<usi::Score>& s) {
    return !s ? std::string("-") : s->is_mate() ? "mate " + std::to_string(s->value) : std::to_string(s->value);
  };
  return "; own scores " + text(d.own[shogi::BLACK]) + " / " + text(d.own[shogi::WHITE]);
}

}  // namespace

std::string summary_table(const std::vector<EngineSummary>& engines) {
  std::string out;
  char head[200];
  std::snprintf(head, sizeof head, "  %-24s %7s %8s %8s %8s %8s %8s\n", "engine", "moves", "avg loss", "blund%",
                "mistk%", "inacc%", "best");
  out += head;
  for (const EngineSummary& e : engines) out += row(e.engine, e.all);
  for (const EngineSummary& e : engines) {
    out += "\n" + e.engine + " (" + std::to_string(e.wins) + " won, " + std::to_string(e.losses) + " lost, " +
           std::to_string(e.draws) + " drawn";
    if (e.missed_mates) out += ", " + std::to_string(e.missed_mates) + " mates missed";
    out += ")\n";
    for (int p = 0; p < PHASE_COUNT; ++p)
      if (e.by_phase[size_t(p)].moves) out += row(phase_name(p), e.by_phase[size_t(p)]);
    for (int b = 0; b < TIME_BUCKET_COUNT; ++b)
      if (e.by_time[size_t(b)].moves) out += row(time_bucket_name(b), e.by_time[size_t(b)]);
    for (const LostGame& l : e.lost) {
      out += "  lost game " + std::to_string(l.game + 1);
      if (!l.source.empty()) out += " (" + l.source + ")";
      out += " to " + l.opponent + ": ";
      if (l.decisive)
        out += "decisive mistake at ply " + std::to_string(l.decisive->ply) + ", " + l.move + " (referee: " + l.best +
               ", -" + std::to_string(l.loss_cp) + " cp)" + own_scores(*l.decisive) + "\n";
      else
        out += "no decisive mistake on the board\n";
    }
  }
  return out;
}

}  // namespace arena::analysis
