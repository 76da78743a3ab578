#pragma once
// Opening suites: the start positions a tournament plays, each as a pair with colours swapped.
//
// Formats, chosen by the file's extension:
//   .csa   CSA records (several games separated by "/" lines): the start position and the moves of each game
//   .kif   a Kakinoki KIF record of an even game (手合割：平手), UTF-8 or Shift_JIS: its moves
//   a YaneuraOu book (#YANEURAOU-DB2016 header, or .db): walked from the start position to `plies` moves (8 by
//          default), see book_openings.h
//   other  one opening per line: "sfen <sfen> [moves ...]", "startpos [moves ...]", "position ..." or a bare SFEN
//          (4 fields) optionally followed by "moves ..."; blank lines and lines starting with '#' are skipped.
// Every opening is replayed by the rules library when loaded, so an illegal move is reported with its file and
// line before any game starts. `plies` cuts each opening to at most that many moves (0 keeps them all).

#include <expected>
#include <string>
#include <string_view>
#include <vector>

#include "config/config.h"

namespace arena::openings {

struct Opening {
  std::string position;  // "startpos moves ..." or "sfen <sfen> moves ...": what play_game takes
  std::string source;    // "openings/x.sfen:12", for messages
};

std::expected<std::vector<Opening>, std::string> load_openings(const std::string& path, int plies);
// The same with every setting of the file (a YaneuraOu book's eval_window and balance).
std::expected<std::vector<Opening>, std::string> load_openings(const config::OpeningSettings& settings);

// A run's openings as its settings say: the file, the single --position, or the start position alone.
std::expected<std::vector<Opening>, std::string> run_openings(const config::OpeningSettings& settings);

// One line of the text format; nullopt-like empty position for blank and comment lines is not returned here:
// the caller skips those. The error says what is wrong (without the file name).
std::expected<Opening, std::string> parse_opening_line(std::string_view line, int plies);

// The records in a CSA text (one or more games separated by "/" lines) as openings.
std::expected<std::vector<Opening>, std::string> parse_csa_openings(std::string_view text, const std::string& name,
                                                                    int plies);
// KIF files are traditionally Shift_JIS (CP932): such a text converted to UTF-8, a UTF-8 one as it is.
std::expected<std::string, std::string> to_utf8(const std::string& text);
// The moves of a KIF record (UTF-8; Shift_JIS is converted by load_openings) as one opening.
std::expected<Opening, std::string> parse_kif_opening(std::string_view text, const std::string& name, int plies);

}  // namespace arena::openings
