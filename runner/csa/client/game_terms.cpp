#include "csa/client/game_terms.h"

#include "rules/movegen.h"

namespace arena::csa {

using shogi::BLACK;
using shogi::WHITE;

std::string describe(const TimeRule& r) {
  if (!r.timed()) return "untimed";
  auto sec = [](int64_t ms) {
    std::string s = std::to_string(ms / 1000);
    if (ms % 1000) s.append(".").append(std::to_string(1000 + ms % 1000).substr(1));
    return s;
  };
  std::string out = sec(r.total_ms.value_or(0));
  if (r.increment_ms > 0) out.append("+").append(sec(r.increment_ms));
  if (r.byoyomi_ms > 0) out.append("+").append(sec(r.byoyomi_ms)).append("b");
  return out;
}

GameTerms game_terms(const GameSummary& s, shogi::GameRecord& game) {
  GameTerms g;
  for (const auto& u : s.unknown) g.notes.push_back("Game_Summary: unknown key ignored: " + u);
  for (const auto& w : s.warnings) g.warnings.push_back("Game_Summary: " + w);
  g.us = s.your_turn;
  if (s.declaration.empty() || s.declaration.starts_with("Jishogi 1.1")) {
    g.declaration_rule = shogi::EnteringKingRule::Point27;
  } else {
    g.declaration_rule = shogi::EnteringKingRule::Off;
    g.warnings.push_back("Declaration:" + s.declaration +
                         " is not the CSA 27-point rule: the engine's `win` will not be declared");
  }
  if (s.rematch_on_draw) g.warnings.push_back("Rematch_On_Draw:YES: a draw may be followed by a new Game_Summary");

  std::string position = "sfen " + s.start_sfen;
  if (!s.moves.empty()) {
    position += " moves";
    for (const auto& m : s.moves) position += " " + m.usi;
  }
  if (auto ok = game.start(position); !ok) {
    g.unplayable = "the rules library rejects the position: " + ok.error();
    return g;
  }
  g.clock = s.clock;
  if (s.max_moves > 0 && int(s.moves.size()) >= s.max_moves)
    g.warnings.push_back("the Position block already reaches Max_Moves");
  if (shogi::MoveList<shogi::LEGAL>(game.position()).size() == 0)
    g.warnings.push_back("the side to move has no legal move in the Position block");

  PlayedGame& rec = g.record;
  rec.event = s.game_id;
  rec.names[BLACK] = s.name[BLACK];
  rec.names[WHITE] = s.name[WHITE];
  rec.start_sfen = s.start_sfen;
  rec.time_control = g.clock.rule(BLACK) == g.clock.rule(WHITE)
                         ? describe(g.clock.rule(BLACK))
                         : "black " + describe(g.clock.rule(BLACK)) + ", white " + describe(g.clock.rule(WHITE));
  for (std::size_t i = 0; i < s.moves.size(); ++i) {
    MoveRecord mr;
    mr.move = game.moves()[i];
    mr.time_ms = s.moves[i].time_ms.value_or(0);
    mr.opening = true;
    rec.moves.push_back(mr);
  }
  return g;
}

}  // namespace arena::csa
