#pragma once
// Inside the journal room: a game line already parsed as JSON (an SPSA pair's line holds its games as objects), read
// as parse_journal_game() reads a line's text, so that no game is parsed twice.

#include <boost/json/fwd.hpp>
#include <expected>
#include <string>

#include "journal/journal.h"

namespace arena::journal {

std::expected<JournalGame, std::string> journal_game_of(const boost::json::value& line);

}  // namespace arena::journal
