#pragma once
// What the CSA server writes about a finished game: the CSA V2.2 record, its place in the output folder and one
// line of the results list.
//
// The record follows shogi-server's (header comments with Max_Moves, Least_Time_Per_Move and Increment; after the
// board "'rating:<black id>:<white id>" when both players have a trip, with "'black_rate:" / "'white_rate:" when
// they have a rating; each move followed by T<seconds> as echoed; Floodgate comments as "'** <score> <pv>";
// "'summary:" and "'$END_TIME:" at the end, which shogi-server's rating scripts read) but is a V2.2 file with
// $END_TIME in the header too. Endings name the side to move, as the standard says; a loss of the
// side that just moved (perpetual check, an opponent who disconnected off turn) is %+ILLEGAL_ACTION or
// %-ILLEGAL_ACTION naming the loser.
//
// The results list is shogi-server's 00LIST format, one tab-separated line per game:
//   <end YYYY/MM/DD HH:MM:SS> <type> <black result> <black> <white> <white result> <record path> <moves>
// with type "toryo", "time up", "abnormal", ... (summary_type), results "win" / "lose" / "draw" ("none" for a game
// the server stopped), rated players named "<name>+<md5 of the trip>", and the moves played (shogi-server's eighth
// column since 2017; the Position block's moves not counted).

#include <string>

#include "csa/server/game.h"

namespace arena::csa {

std::string server_csa_record(const ServerGame& game);
// "YYYY/MM/DD/<game id>.csa" (the game's creation date, local time), as shogi-server files its records.
std::string record_relative_path(const ServerGame& game);
// One line with its "\n".
std::string results_list_line(const ServerGame& game, const std::string& record_path);

}  // namespace arena::csa
