// The game's rules told to engines that advertise options for them (game/rule_options.h).
#include <doctest/doctest.h>

#include "game/rule_options.h"

using namespace arena;
using namespace arena::game;

namespace {

std::vector<usi::OptionSpec> yaneuraou_options() {
  std::vector<usi::OptionSpec> out;
  for (const char* line :
       {"option name EnteringKingRule type combo default CSARule27 var NoEnteringKing var CSARule24 var CSARule24H "
        "var CSARule27 var CSARule27H var TryRule",
        "option name MaxMovesToDraw type spin default 0 min 0 max 100000",
        "option name USI_Hash type spin default 256"})
    out.push_back(*usi::parse_option_line(line));
  return out;
}

using Options = std::vector<std::pair<std::string, std::string>>;

}  // namespace

TEST_CASE("unset rule options are set from the game, each with a note") {
  const RuleOptions r = rule_options(yaneuraou_options(), {}, {shogi::EnteringKingRule::Point24, 320});
  CHECK(r.set == Options{{"EnteringKingRule", "CSARule24"}, {"MaxMovesToDraw", "320"}});
  REQUIRE(r.notes.size() == 2);
  CHECK(r.notes[0] == "EnteringKingRule set to CSARule24 (the 24-point declaration, as the runner judges)");
  CHECK(r.notes[1] == "MaxMovesToDraw set to 320 (the runner draws the game at that ply)");
  CHECK(r.warnings.empty());

  const RuleOptions off = rule_options(yaneuraou_options(), {}, {shogi::EnteringKingRule::Off, 0});
  CHECK(off.set == Options{{"EnteringKingRule", "NoEnteringKing"}, {"MaxMovesToDraw", "0"}});
  CHECK(rule_options(yaneuraou_options(), {}, {shogi::EnteringKingRule::Point27, 512}).set[0].second == "CSARule27");
}

TEST_CASE("a configured value is kept; one that contradicts the game is warned about") {
  const RuleOptions same =
      rule_options(yaneuraou_options(), {{"enteringkingrule", "CSARule27"}, {"MaxMovesToDraw", "512"}},
                   {shogi::EnteringKingRule::Point27, 512});
  CHECK(same.set.empty());
  CHECK(same.warnings.empty());
  const RuleOptions other =
      rule_options(yaneuraou_options(), {{"EnteringKingRule", "TryRule"}, {"MaxMovesToDraw", "256"}},
                   {shogi::EnteringKingRule::Point27, 512});
  CHECK(other.set.empty());
  REQUIRE(other.warnings.size() == 2);
  CHECK(other.warnings[0] ==
        "EnteringKingRule is set to TryRule, but the runner judges the 27-point declaration "
        "(CSARule27): the engine may declare wrongly, or miss a declaration");
  CHECK(other.warnings[1] == "MaxMovesToDraw is set to 256, but the runner draws the game at ply 512");
}

TEST_CASE("other spellings, missing choices, out-of-range limits and engines without the options") {
  // This project's engine spells the 24-point rule its own way.
  CHECK(entering_king_value({"CSARule27", "24Point", "NoEnteringKing"}, shogi::EnteringKingRule::Point24) == "24Point");
  CHECK_FALSE(entering_king_value({"CSARule27", "TryRule"}, shogi::EnteringKingRule::Off).has_value());

  std::vector<usi::OptionSpec> odd = {
      *usi::parse_option_line("option name EnteringKingRule type combo default CSARule27 var CSARule27 var TryRule"),
      *usi::parse_option_line("option name MaxMovesToDraw type spin default 0 min 0 max 300")};
  const RuleOptions r = rule_options(odd, {}, {shogi::EnteringKingRule::Off, 512});
  CHECK(r.set.empty());
  REQUIRE(r.warnings.size() == 2);
  CHECK(r.warnings[0] ==
        "EnteringKingRule has no value for no declaration (its choices: CSARule27, TryRule); left at "
        "CSARule27");
  CHECK(r.warnings[1] == "MaxMovesToDraw cannot say the runner's limit 512 (its range: 0 to 300); left at 0");

  // A string option of that name is not the YaneuraOu option: nothing is sent.
  std::vector<usi::OptionSpec> other = {*usi::parse_option_line("option name EnteringKingRule type string default x")};
  const RuleOptions none = rule_options(other, {}, {});
  CHECK(none.set.empty());
  CHECK(none.notes.empty());
  CHECK(none.warnings.empty());
}
