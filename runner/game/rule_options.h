#pragma once
// The game's rules told to engines that can be told them. The runner judges declarations (27 or 24 points, or
// none) and draws at max_plies itself; an engine that believes another declaration rule declares wrongly and loses,
// or plays for a win the runner calls a draw. The YaneuraOu family (and engines that copied its options) advertises
// the two rules as options:
//   EnteringKingRule  combo  NoEnteringKing | CSARule24 | CSARule24H | CSARule27 | CSARule27H | TryRule
//                            (this project's engine: NoEnteringKing | 24Point | CSARule27)
//   MaxMovesToDraw    spin   the ply at which the game is a draw, 0 for none
// For an engine that advertises one the user did not set, the option is set from the game's rules; one the user set
// to something else is kept, with a warning.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "rules/game_end.h"
#include "usi/usi_option.h"

namespace arena::game {

struct GameRules {
  shogi::EnteringKingRule entering_king = shogi::EnteringKingRule::Point27;
  int max_plies = 0;  // 0: no limit
};

struct RuleOptions {
  std::vector<std::pair<std::string, std::string>> set;  // to send after the configured options, as spelt
  std::vector<std::string> notes;                        // what was set, and why something was not
  std::vector<std::string> warnings;                     // a configured value that contradicts the game
};

// `advertised`: the engine's option lines; `configured`: the options the user gave it.
RuleOptions rule_options(const std::vector<usi::OptionSpec>& advertised,
                         const std::vector<std::pair<std::string, std::string>>& configured, const GameRules& rules);

// The EnteringKingRule value that means `rule` among an engine's choices, if it has one.
std::optional<std::string> entering_king_value(const std::vector<std::string>& vars, shogi::EnteringKingRule rule);

}  // namespace arena::game
