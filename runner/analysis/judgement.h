#pragma once
// How a move is judged from a referee's scores: the score turned into a winning chance by a logistic, and the move
// judged by how much winning chance it gave up, not by raw centipawns. A move that gives up 500 centipawns in a
// position won by 3,000 changes nothing and is not a blunder; the same 500 from an even position is.
//
// Winning chance of a score s (centipawns, the mover's view): 1 / (1 + exp(-s / scale)). The default scale, 600,
// is the one shogi engines' evaluations are commonly fitted to (a 600-centipawn lead wins about 73 % of the games);
// an engine whose centipawns are larger or smaller needs its own (--scale). A mate is a win chance of 1 for the side
// that mates and 0 for the side mated, whatever its distance.

#include <string_view>

#include "usi/usi_info.h"

namespace arena::analysis {

enum class Judgement { Best, Good, Inaccuracy, Mistake, Blunder };
std::string_view to_string(Judgement judgement);

struct JudgeOptions {
  double scale = 600;  // centipawns of the logistic
  // Winning chance given up (0..1) from which a move is an inaccuracy, a mistake, a blunder.
  double inaccuracy = 0.05;
  double mistake = 0.10;
  double blunder = 0.15;
  // A centipawn loss is counted up to this (a mate counts as this many centipawns): one lost game's collapse does
  // not swamp an engine's average loss per move.
  int loss_cap_cp = 2000;
  // The decisive mistake of a lost game: the loser's move after which its winning chance stayed below 50 % minus
  // this for the rest of the game.
  double decisive_margin = 0.10;
};

// The score's view flipped: the other side's score of the same position (a mate for one is a mate against the other).
usi::Score flipped(const usi::Score& score);
// 0..1, the side whose score it is.
double win_chance(const usi::Score& score, double scale);
// Centipawns within +-cap; a mate is +-cap.
int capped_cp(const usi::Score& score, int cap);
bool is_mate_for(const usi::Score& score);      // a mate the side whose score it is gives
bool is_mate_against(const usi::Score& score);  // a mate that side gets

// One move judged from the referee's score before it and after it, both from the mover's view.
struct MoveJudgement {
  double win_before = 0.5, win_after = 0.5;
  int loss_cp = 0;  // capped_cp(before) - capped_cp(after), never negative
  Judgement judgement = Judgement::Good;
  bool missed_mate = false;  // the mover had a mate and no longer has one
  bool win_to_loss = false;  // from better than 50 % + margin to worse than 50 % - margin
};
// `played_best`: the move is the referee's best move. It is Best with no loss whatever the score after it: the
// referee would have played it, so a change of its score after the move is the referee's horizon, not the mover's
// mistake.
MoveJudgement judge_move(const usi::Score& before, const usi::Score& after, bool played_best,
                         const JudgeOptions& options);

}  // namespace arena::analysis
