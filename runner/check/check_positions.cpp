#include "check/check_positions.h"

namespace arena::check {

namespace {

constexpr CheckPosition TIMING[] = {
    {"middlegame-1",
     "startpos moves 7g7f 3c3d 2g2f 4c4d 2f2e 2b3c 3i4h 8b4b 5i6h 5a6b 6h7h 6b7b 5g5f 3a3b 4i5h 7a8b 9g9f 9c9d 1g1f "
     "1c1d 4g4f 4a5b 3g3f 6c6d",
     "a ranging-rook middlegame"},
    {"middlegame-2",
     "startpos moves 6g6f 3c3d 7g7f 8b3b 2h6h 3d3e 3i2h 5a6b 6h3h 4a5a 7f7e 1c1d 1g1f 9c9d 8h7g 9a9c 3h8h 3a4b 2g2f "
     "1a1b 9g9f 3b3d 2h2g 2b5e",
     "a bishop in the middle of the board"},
    {"middlegame-3",
     "startpos moves 5g5f 8c8d 7g7f 8d8e 8h7g 3c3d 5f5e 7a6b 2h9h 8b8d 7g6f 8d4d 3i4h 4d4e 2g2f 2b5e 4i5h 5e6f 6g6f "
     "B*3h B*8b 6a7a 8b9a+ 3h2i+",
     "bishops traded and dropped, horses on both sides"},
};

// The pieces not on the board are in gote's hand (sente's for the drop position), so that each position holds
// the whole set.
constexpr CheckPosition LEGALITY[] = {
    {"pawn-drop-mate", "sfen 8k/6G2/7S1/9/9/9/9/9/4K4 b P2r2b3g3s4n4l17p 1",
     "P*1b would mate, and a pawn drop may not give mate"},
    {"pin", "sfen k3r4/9/9/9/9/9/5g3/4S4/4K4 b r2b3g3s4n4l18p 1",
     "the silver pinned by the rook may not take the free gold"},
    {"promotion", "sfen k8/4P4/6N2/9/9/9/9/9/4K4 b 2r2b4g4s3n4l17p 1",
     "the pawn to the last rank and the knight to the last two ranks must promote"},
    {"drops", "sfen 4k4/9/9/9/9/9/PPPP1PPPP/9/4K4 b RBGSNLPrb3g3s3n3l9p 1",
     "a pawn may only be dropped on the fifth file (two pawns on a file), knights not on the last two ranks"},
    {"check", "sfen 4k4/9/9/9/4r4/9/9/9/4K4 b Gr2b3g4s4n4l18p 1",
     "in check from a rook: only king moves and a gold dropped in between"},
};

constexpr CheckPosition MATED{"mated", "sfen 4k3l/9/9/9/9/9/9/8g/8K b 2r2b3g4s4n3l18p 1",
                              "checkmated by a gold the lance protects"};

}  // namespace

std::span<const CheckPosition> timing_positions() { return TIMING; }
std::span<const CheckPosition> legality_positions() { return LEGALITY; }
const CheckPosition& mated_position() { return MATED; }

}  // namespace arena::check
