#include "analysis/judgement.h"

#include <algorithm>
#include <cmath>

namespace arena::analysis {

std::string_view to_string(Judgement judgement) {
  switch (judgement) {
    case Judgement::Best:
      return "best";
    case Judgement::Good:
      return "good";
    case Judgement::Inaccuracy:
      return "inaccuracy";
    case Judgement::Mistake:
      return "mistake";
    case Judgement::Blunder:
      return "blunder";
  }
  return "good";
}

usi::Score flipped(const usi::Score& score) {
  usi::Score out = score;
  if (score.is_mate()) {
    out.value = -score.value;
    out.mate_sign = -score.mate_sign;
  } else {
    out.value = -score.value;
  }
  std::swap(out.lowerbound, out.upperbound);
  return out;
}

bool is_mate_for(const usi::Score& score) { return score.is_mate() && score.mate_sign > 0; }
bool is_mate_against(const usi::Score& score) { return score.is_mate() && score.mate_sign < 0; }

double win_chance(const usi::Score& score, double scale) {
  if (score.is_mate()) return score.mate_sign > 0 ? 1.0 : 0.0;
  return 1.0 / (1.0 + std::exp(-double(score.value) / scale));
}

int capped_cp(const usi::Score& score, int cap) {
  if (score.is_mate()) return score.mate_sign > 0 ? cap : -cap;
  return std::clamp(score.value, -cap, cap);
}

MoveJudgement judge_move(const usi::Score& before, const usi::Score& after, bool played_best,
                         const JudgeOptions& options) {
  MoveJudgement j;
  j.win_before = win_chance(before, options.scale);
  j.win_after = win_chance(after, options.scale);
  if (played_best) {
    // The referee would have played it: what its score does next is its own horizon, not the mover's loss.
    j.judgement = Judgement::Best;
    return j;
  }
  j.loss_cp = std::max(0, capped_cp(before, options.loss_cap_cp) - capped_cp(after, options.loss_cap_cp));
  const double drop = j.win_before - j.win_after;
  if (drop >= options.blunder)
    j.judgement = Judgement::Blunder;
  else if (drop >= options.mistake)
    j.judgement = Judgement::Mistake;
  else if (drop >= options.inaccuracy)
    j.judgement = Judgement::Inaccuracy;
  else
    j.judgement = Judgement::Good;
  j.missed_mate = is_mate_for(before) && !is_mate_for(after);
  j.win_to_loss = j.win_before > 0.5 + options.decisive_margin && j.win_after < 0.5 - options.decisive_margin;
  return j;
}

}  // namespace arena::analysis
