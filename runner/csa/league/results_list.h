#pragma once
// The results list (shogi-server's 00LIST, which mk_rate's ratings are computed from): one game per line,
// tab-separated:
//   <end YYYY/MM/DD HH:MM:SS> <type> <black mark> <black id> <white id> <white mark> <record path> [<moves>]
// Types are shogi-server's ("toryo", "time up", "abnormal", ...), marks "win", "lose" or "draw" (anything else is
// a game without a result), ids "<name>+<md5 of the trip>" for players with a trip, else the bare name. The
// eighth column (the number of moves) came with shogi-server in 2017; older lists have seven.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "csa/league/schedule.h"

namespace arena::csa::league {

struct ListedGame {
  WallTime end_time;
  std::string type;
  std::string marks[2];    // black's, white's
  std::string players[2];  // ids as listed
  std::filesystem::path record;
  std::optional<int> moves;
  int line = 0;  // in the list, for messages
  // The game name inside the record's Game_ID (<event>+<game name>+<black>+<white>+<time>.csa); empty if the
  // path does not have that shape.
  std::string game_name() const;
};

struct ResultsList {
  std::vector<ListedGame> games;
  std::vector<std::string> warnings;  // "file:line: ..." for each line skipped, as mk_rate skips them
};

ResultsList parse_results_list(std::string_view text, const std::string& file);
// A line's fields between `separator`s (an empty line is one empty field).
std::vector<std::string_view> split_fields(std::string_view line, char separator);
// A missing file is an empty list (no game has finished yet). With `complete_lines_only`, a last line without its
// newline is left out: it is being appended by another thread or process.
ResultsList read_results_list(const std::filesystem::path& file, bool complete_lines_only = false);

// The moves in a CSA record (lines "+7776FU" / "-3334FU"), as mk_rate counts an abnormal game's length;
// nullopt when it cannot be read.
std::optional<int> record_move_count(const std::filesystem::path& record);

}  // namespace arena::csa::league
