#pragma once
// A position in CSA text, the way shogi-server writes its Position blocks and records: P1..P9 rows of three
// characters per square (" * " when empty), P+ / P- lines with one 00XX per piece in hand (omitted when the hand
// is empty), then the side to move ("+" or "-"). Every line ends with "\n".

#include <string>

#include "rules/position.h"

namespace arena::csa {

std::string csa_board_text(const shogi::Position& pos);

}  // namespace arena::csa
