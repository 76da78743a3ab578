#pragma once
// Where the analysed games come from: a run's journal (or its directory, a sharded run's segments included), or
// game records, CSA (one or more games a file) and KIF (even games, UTF-8 or Shift_JIS), from the runner, the CSA
// server or elsewhere; and which of them to analyse.

#include <cstdint>
#include <expected>
#include <string>
#include <string_view>
#include <vector>

#include "game/game_result.h"

namespace arena::analysis {

// One game to analyse, from a journal or a record.
struct SourceGame {
  std::int64_t game = 0;  // the journal's game number (0-based), or the record's place in the list
  std::string source;     // a record's file name; empty for a journal's game
  PlayedGame played;
};

// What names a game across analyses (a resumed file, the annotated records): its source and number.
std::string game_key(std::int64_t game, const std::string& source);

// Which games: "all", "decisive" (a winner), "lost-by=NAME" (games NAME lost), or game numbers as the console shows
// them, 1-based: "3,7,10-12".
struct GameSelection {
  enum class Kind { All, Decisive, LostBy, Numbers };
  Kind kind = Kind::All;
  std::string engine;                 // LostBy
  std::vector<std::int64_t> numbers;  // Numbers, 1-based, as given
  bool selects(const SourceGame& game) const;
};
std::expected<GameSelection, std::string> parse_game_selection(std::string_view text);

// The games of a journal, a run's directory (its journal.jsonl or a sharded run's segments). Void games (a pair
// played again after a crash) are left out, as the run's statistics leave them out.
std::expected<std::vector<SourceGame>, std::string> read_journal_games(const std::string& path);

// The games of a CSA text: the start position and moves, the names (N+/N-), each move's time (T), the mover's own
// score from a Floodgate comment after it ("'** 120 ..."), and the result from the ending (%TORYO, %TIME_UP, ...).
// `name` is for messages and becomes each game's source.
std::expected<std::vector<SourceGame>, std::string> parse_csa_games(std::string_view text, const std::string& name);
// The game of a KIF text (UTF-8): moves, names (先手/後手), times, the mover's own score from a ShogiHome comment
// after its move ("*#評価値=120", black's view) and the result from its ending ("まで…").
std::expected<SourceGame, std::string> parse_kif_game(std::string_view text, const std::string& name);

// The records of a folder: its *.csa and *.kif files by name, x.kif left out when x.csa is there (the runner writes
// both of each game).
std::vector<std::string> record_files(const std::string& folder);

// Every game of `path`: a journal, a run's directory (a journal.jsonl or segments in it), a CSA or KIF file, or a
// folder of records. Records are numbered in their order from 0. The error is one line naming the file.
std::expected<std::vector<SourceGame>, std::string> read_source_games(const std::string& path);

}  // namespace arena::analysis
