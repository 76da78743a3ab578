#pragma once
// A finished game as the game lists of the live page and the report show it: the journal's summary of the game
// (journal/journal.h) as one JSON object, the same fields for both pages.
//
//   {"game":12,"pair":6,"game_in_pair":0,"round":6,"attempt":0,"opening":3,"replay":false,"black":"A",
//    "white":"B","result":"black"|"white"|"draw"|"none","termination":"resign","detail":"...","plies":93}
//
// "replay": the game voided its pair attempt (the pair was played again). Boost.JSON only in the .cpp files that
// use this (the return type is declared, not defined, here).

#include "journal/journal.h"

namespace boost::json {
class object;
}

namespace arena::web {

boost::json::object game_row(const journal::JournalGame& game);

}  // namespace arena::web
