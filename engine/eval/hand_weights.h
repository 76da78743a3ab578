#pragma once
// Every evaluation weight in one place, in centipawn-like units (a pawn on the board is 90), so that they can be
// tuned from game data without touching the evaluation code.

#include "rules/types.h"

namespace shogi::eval {

struct HandWeights {
  // Material on the board, by piece type (promoted types included).
  int board[PIECE_TYPE_NB] = {0, 90, 315, 405, 495, 855, 990, 540, 0, 540, 540, 540, 540, 945, 1395, 0};
  // A piece in hand is worth more than the same piece on the board: it can be dropped where it is needed.
  int hand[HAND_TYPE_END] = {0, 100, 350, 450, 560, 960, 1120, 610};

  // King-relative piece-square terms, by Chebyshev distance 0..8 to the own king (defence) and to the enemy king
  // (attack). Kept as distance tables because shogi attacks and defences are about proximity to the kings.
  int own_king[PIECE_TYPE_NB][9] = {
      {},
      {0, 12, 6, 2, 0, 0, 0, 0, 0},              // pawn
      {0, 6, 4, 2, 0, 0, 0, 0, 0},               // lance
      {0, 6, 6, 2, 0, 0, 0, 0, 0},               // knight
      {0, 40, 30, 12, 2, 0, -4, -6, -8},         // silver
      {0, -25, -10, 0, 0, 0, 0, 0, 0},           // bishop
      {0, -30, -15, -5, 0, 0, 0, 0, 0},          // rook
      {0, 50, 35, 12, 0, -4, -8, -10, -12},      // gold
      {},                                        // king
      {0, 35, 25, 10, 0, 0, 0, 0, 0},            // promoted pawn
      {0, 35, 25, 10, 0, 0, 0, 0, 0},            // promoted lance
      {0, 35, 25, 10, 0, 0, 0, 0, 0},            // promoted knight
      {0, 35, 25, 10, 0, 0, 0, 0, 0},            // promoted silver
      {0, 30, 20, 10, 0, 0, 0, 0, 0},            // horse
      {0, 10, 5, 0, 0, 0, 0, 0, 0},              // dragon
      {},
  };
  int enemy_king[PIECE_TYPE_NB][9] = {
      {},
      {0, 35, 20, 8, 2, 0, 0, 0, 0},             // pawn
      {0, 20, 15, 10, 5, 0, 0, 0, 0},            // lance
      {0, 25, 30, 15, 5, 0, 0, 0, 0},            // knight
      {0, 50, 35, 15, 5, 0, 0, 0, 0},            // silver
      {0, 30, 20, 12, 6, 0, 0, 0, 0},            // bishop
      {0, 40, 30, 15, 5, 0, 0, 0, 0},            // rook
      {0, 60, 40, 18, 6, 0, 0, 0, 0},            // gold
      {},                                        // king
      {0, 60, 40, 18, 6, 0, 0, 0, 0},            // promoted pawn
      {0, 60, 40, 18, 6, 0, 0, 0, 0},            // promoted lance
      {0, 60, 40, 18, 6, 0, 0, 0, 0},            // promoted knight
      {0, 60, 40, 18, 6, 0, 0, 0, 0},            // promoted silver
      {0, 70, 45, 25, 10, 0, 0, 0, 0},           // horse
      {0, 90, 60, 30, 10, 0, 0, 0, 0},           // dragon
      {},
  };

  // Mobility of sliders per reachable square not held by an own piece.
  int mobility[PIECE_TYPE_NB] = {0, 0, 2, 0, 0, 4, 4, 0, 0, 0, 0, 0, 0, 3, 3, 0};

  // King safety: a danger score from the king's neighbourhood, turned into a penalty danger^2 / divisor.
  int zone_attack = 14;        // per enemy attack on a square next to the king
  int zone_double_attack = 8;  // extra per square attacked twice
  int zone_defence = 7;        // per own (non-king) defence of such a square
  int no_escape = 10;          // per missing escape square below three
  int enemy_hand[HAND_TYPE_END] = {0, 2, 6, 8, 12, 16, 22, 14};  // enemy pieces in hand that could be dropped
  int danger_base = -20;
  int danger_divisor = 48;
  int danger_cap = 1800;

  int tempo = 20;  // the side to move can act first
};

extern const HandWeights HAND_WEIGHTS;

}  // namespace shogi::eval
