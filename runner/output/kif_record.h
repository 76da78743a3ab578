#pragma once
// A finished game as a Kakinoki KIF record (.kif), the format of most Japanese viewers and databases.
//
// Conventions (checked against tsshogi and json-kifu-format by tests/runner/output):
// - UTF-8 with the first line "#KIF version=2.0 encoding=UTF-8". Shift_JIS is the traditional encoding and Windows
//   viewers assume it for .kif without that line; both libraries read UTF-8 (tests/kifu/README.md).
// - Header "key：value" lines with a full-width colon; 手合割：平手 for the standard start, else a BOD diagram.
// - Moves: "   1 ７六歩(77)   ( 0:01/00:00:01)": destination (同　 for a recapture on the last move's square),
//   the piece before the move, 成 when promoting, (ff) origin or 打 for a drop, then this move's m:ss and the
//   mover's running total. Seconds are truncated like the CSA record, and the total is the sum of the shown
//   seconds, which is what viewers recompute. A declined promotion is written without 不成: json-kifu-format fails
//   on 不成 and tsshogi stops reading the game there.
// - After an engine move with a score: "*#評価値=35" and "*#読み筋=▲３四歩(33)..." comments, the score from black's
//   point of view (mate = +-30000) and the PV without the played move, as in the CSA record.
// - The ending is a move line (投了, 詰み, 千日手, 反則負け, 反則勝ち, 切れ負け, 入玉勝ち, 持将棋, 中断) and a
//   "まで9手で先手の勝ち" summary. json-kifu-format does not know 入玉勝ち (tsshogi does); no other word exists.

#include <expected>
#include <string>

#include "game/game_result.h"

namespace arena {

// The record text ("\n" line ends); an error when the start position or a move of the game is not valid.
std::expected<std::string, std::string> to_kif_record(const PlayedGame& game);

}  // namespace arena
