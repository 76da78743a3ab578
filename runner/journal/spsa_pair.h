#pragma once
// The journal of an SPSA run (runner/spsa): its header carries the tuning's specification ("spsa"), and each
// finished game pair is one line that holds everything the pair was and did:
//
//   {"spsa_pair":12,"delta":[1,-1],"plus":[55,47],"minus":[45,53],"result":1,"theta":[50.4,49.6],
//    "games":[{<game line>},{<game line>}]}
//
// "spsa_pair" is the iteration k (1-based; the schedule's pair k - 1), "delta" the sign drawn per parameter,
// "plus" and "minus" the values each side was sent (whole numbers for int parameters), "result" the plus side's
// wins minus the minus side's over the pair, "theta" the parameters after the update this pair made (absent in a
// shard's segment: the coordinator applies the pairs), and "games" the pair's two games as tournament game lines
// (journal.h; plus is black in the first), so that stats, report and merge read them like any journal's games.
// One line a pair: the pair is journaled whole, or not at all, and a resumed run rebuilds theta from the lines.

#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "journal/journal.h"
#include "stats/spsa.h"

namespace arena::journal {

// The line of a pair with its two games (their lines as journaled() wrote them, spliced in as they are: a game is
// serialized once, when it is journaled).
std::string spsa_pair_line(const SpsaPair& pair, const std::string& first_game_line,
                           const std::string& second_game_line);

struct ParsedSpsaPair {
  SpsaPair pair;
  std::vector<JournalGame> games;       // the two games
  std::vector<std::string> game_lines;  // with `game_lines`: their lines, each as a tournament journal's game line
};
// A pair's line back, parsed once; the error names the field. `params`: how many values each vector must hold.
std::expected<ParsedSpsaPair, std::string> parse_spsa_pair_line(std::string_view line, size_t params,
                                                                bool game_lines = false);

// Whether a journal line is a pair's (it begins with "spsa_pair").
bool is_spsa_pair_line(std::string_view line);

// The header's "spsa" member, and back (the parameters checked as config/spsa_params.h checks them is the reader's
// business).
std::string spsa_spec_json(const SpsaSpec& spec);
std::expected<SpsaSpec, std::string> parse_spsa_spec(std::string_view json);

}  // namespace arena::journal
