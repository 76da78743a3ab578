#pragma once
// The positions the checker sends: middlegames for the timing probes (out of any opening book, so an engine really
// thinks), and composed positions where a careless engine plays an illegal move. Built in: the product needs no
// file at run time.

#include <span>
#include <string_view>

namespace arena::check {

struct CheckPosition {
  std::string_view name;      // short, for the report: "pin"
  std::string_view position;  // the text after "position " ("sfen ..." or "startpos moves ...")
  std::string_view trap;      // what a careless engine does wrong here
};

// Middlegames after 24 plies, sente (black) to move: btime is always the mover's clock.
std::span<const CheckPosition> timing_positions();

// Every piece of the set is on the board or in a hand (engines that insist on 40 pieces accept them); the side to
// move has legal moves, and the tempting one is illegal.
std::span<const CheckPosition> legality_positions();

// Sente to move and checkmated: the only answer is `bestmove resign`.
const CheckPosition& mated_position();

}  // namespace arena::check
