#include "game/rule_options.h"

namespace arena::game {

namespace {

const std::string* configured_value(const std::vector<std::pair<std::string, std::string>>& configured,
                                    const std::string& name) {
  for (const auto& [option, value] : configured)
    if (usi::iequals(option, name)) return &value;
  return nullptr;
}

const char* rule_text(shogi::EnteringKingRule rule) {
  switch (rule) {
    case shogi::EnteringKingRule::Point27:
      return "the 27-point declaration";
    case shogi::EnteringKingRule::Point24:
      return "the 24-point declaration";
    case shogi::EnteringKingRule::Off:
      return "no declaration";
  }
  return "";
}

std::string joined(const std::vector<std::string>& vars) {
  std::string out;
  for (const std::string& v : vars) out += (out.empty() ? "" : ", ") + v;
  return out;
}

}  // namespace

std::optional<std::string> entering_king_value(const std::vector<std::string>& vars, shogi::EnteringKingRule rule) {
  // YaneuraOu's names first, then the ones other engines use for the same rule.
  std::vector<std::string> names;
  switch (rule) {
    case shogi::EnteringKingRule::Point27:
      names = {"CSARule27", "27Point"};
      break;
    case shogi::EnteringKingRule::Point24:
      names = {"CSARule24", "24Point"};
      break;
    case shogi::EnteringKingRule::Off:
      names = {"NoEnteringKing"};
      break;
  }
  for (const std::string& name : names)
    for (const std::string& v : vars)
      if (usi::iequals(v, name)) return v;
  return std::nullopt;
}

RuleOptions rule_options(const std::vector<usi::OptionSpec>& advertised,
                         const std::vector<std::pair<std::string, std::string>>& configured, const GameRules& rules) {
  RuleOptions out;
  for (const usi::OptionSpec& o : advertised) {
    if (usi::iequals(o.name, "EnteringKingRule") && o.type == usi::OptionType::Combo) {
      const std::optional<std::string> want = entering_king_value(o.vars, rules.entering_king);
      const std::string* given = configured_value(configured, o.name);
      if (given) {
        if (!want || !usi::iequals(*given, *want))
          out.warnings.push_back(o.name + " is set to " + *given + ", but the runner judges " +
                                 rule_text(rules.entering_king) + (want ? " (" + *want + ")" : std::string()) +
                                 ": the engine may declare wrongly, or miss a declaration");
      } else if (want) {
        out.set.emplace_back(o.name, *want);
        out.notes.push_back(o.name + " set to " + *want + " (" + rule_text(rules.entering_king) +
                            ", as the runner judges)");
      } else {
        out.warnings.push_back(o.name + " has no value for " + std::string(rule_text(rules.entering_king)) +
                               " (its choices: " + joined(o.vars) + "); left at " + o.default_value);
      }
    } else if (usi::iequals(o.name, "MaxMovesToDraw") && o.type == usi::OptionType::Spin) {
      const std::string want = std::to_string(rules.max_plies);
      const std::string* given = configured_value(configured, o.name);
      if (given) {
        if (*given != want)
          out.warnings.push_back(o.name + " is set to " + *given + ", but the runner draws the game at " +
                                 (rules.max_plies ? "ply " + want : std::string("no ply (no limit)")));
      } else if ((o.min && rules.max_plies < *o.min) || (o.max && rules.max_plies > *o.max)) {
        out.warnings.push_back(o.name + " cannot say the runner's limit " + want +
                               " (its range: " + std::to_string(o.min.value_or(0)) + " to " +
                               std::to_string(o.max.value_or(0)) + "); left at " + o.default_value);
      } else {
        out.set.emplace_back(o.name, want);
        out.notes.push_back(o.name + " set to " + want +
                            (rules.max_plies ? " (the runner draws the game at that ply)" : " (no ply limit)"));
      }
    }
  }
  return out;
}

}  // namespace arena::game
