#include "analysis/game_analysis.h"

#include "game/move_timing.h"
#include "rules/notation.h"

namespace arena::analysis {

Evaluation mated_now() {
  Evaluation e;
  e.score.kind = usi::Score::Kind::Mate;
  e.score.value = 0;
  e.score.mate_sign = -1;
  return e;
}

namespace {

std::optional<usi::Score> own_score(const SearchInfo& info) {
  usi::Score s;
  if (info.score_mate) {
    s.kind = usi::Score::Kind::Mate;
    s.value = *info.score_mate;
    s.mate_sign = *info.score_mate < 0 ? -1 : 1;
    return s;
  }
  if (info.score_cp) {
    s.value = *info.score_cp;
    return s;
  }
  return std::nullopt;
}

Outcome loss_of(shogi::Color c) { return c == shogi::BLACK ? Outcome::WhiteWin : Outcome::BlackWin; }

}  // namespace

GameAnalysis analyse_game(const PlayedGame& game, const std::vector<Evaluation>& evaluations,
                          const JudgeOptions& options) {
  GameAnalysis a;
  a.names[shogi::BLACK] = game.names[shogi::BLACK];
  a.names[shogi::WHITE] = game.names[shogi::WHITE];
  a.outcome = game.result.outcome;
  a.termination = game.result.termination;
  a.plies = int(game.moves.size());
  while (a.opening_plies < a.plies && game.moves[size_t(a.opening_plies)].opening) ++a.opening_plies;

  std::vector<game::MoveTiming> timings = game::move_timings(game);
  std::vector<const game::MoveTiming*> timing_at(game.moves.size() + 1, nullptr);
  for (const game::MoveTiming& t : timings)
    if (!t.forfeit && t.ply >= 1 && size_t(t.ply) <= game.moves.size()) timing_at[size_t(t.ply - 1)] = &t;

  shogi::Color mover = game::side_to_move(game.start_sfen);
  if (a.opening_plies % 2 == 1) mover = ~mover;
  for (int i = a.opening_plies; i < a.plies; ++i, mover = ~mover) {
    const size_t e = size_t(i - a.opening_plies);
    if (e + 1 >= evaluations.size()) break;
    const MoveRecord& record = game.moves[size_t(i)];
    MoveAnalysis m;
    m.ply = i + 1;
    m.mover = mover;
    m.move = shogi::to_usi(record.move);
    m.score = evaluations[e].score;
    m.best = evaluations[e].best;
    m.after = flipped(evaluations[e + 1].score);
    m.judged = judge_move(m.score, m.after, !m.best.empty() && m.best == m.move, options);
    m.own = own_score(record.info);
    if (const game::MoveTiming* t = timing_at[size_t(i)]) {
      m.given_ms = t->given_ms;
      m.used_ms = t->used_ms;
    } else {
      m.used_ms = record.time_ms;
    }
    a.moves.push_back(std::move(m));
  }
  a.decisive = decisive_mistake(a, options);
  return a;
}

std::optional<DecisiveMistake> decisive_mistake(const GameAnalysis& analysis, const JudgeOptions& options) {
  if (analysis.moves.empty()) return std::nullopt;
  shogi::Color loser;
  if (analysis.outcome == loss_of(shogi::BLACK))
    loser = shogi::BLACK;
  else if (analysis.outcome == loss_of(shogi::WHITE))
    loser = shogi::WHITE;
  else
    return std::nullopt;
  const auto& moves = analysis.moves;
  // The loser's winning chance in position j: j = 0 before the first analysed move, j = k + 1 after move k.
  auto loser_chance = [&](size_t j) {
    if (j == 0) return moves[0].mover == loser ? moves[0].judged.win_before : 1 - moves[0].judged.win_before;
    const MoveAnalysis& m = moves[j - 1];
    return m.mover == loser ? m.judged.win_after : 1 - m.judged.win_after;
  };
  const double lost = 0.5 - options.decisive_margin;
  // The first position from which the loser stayed lost to the end.
  size_t first_lost = moves.size() + 1;
  for (size_t j = moves.size() + 1; j-- > 0;) {
    if (loser_chance(j) >= lost) break;
    first_lost = j;
  }
  if (first_lost > moves.size() || first_lost == 0) return std::nullopt;
  // The move into it; when the winner's move got there (the referee saw deeper only then), the loser's move before.
  size_t k = first_lost - 1;
  if (moves[k].mover != loser) {
    if (k == 0) return std::nullopt;
    --k;
  }
  // The referee's own move lost nothing: the game was lost beyond what the referee sees at its budget.
  if (moves[k].judged.judgement == Judgement::Best) return std::nullopt;
  DecisiveMistake d;
  d.ply = moves[k].ply;
  d.mover = loser;
  d.time_left_ms[loser] = moves[k].given_ms;
  d.own[loser] = moves[k].own;
  if (k + 1 < moves.size()) {
    d.time_left_ms[~loser] = moves[k + 1].given_ms;
    d.own[~loser] = moves[k + 1].own;
  }
  return d;
}

}  // namespace arena::analysis
