#include "openings/opening_text.h"

#include "rules/game_end.h"
#include "rules/notation.h"

namespace arena::openings {

std::expected<std::string, std::string> opening_position(std::string_view start,
                                                         const std::vector<std::string>& extra_moves, int plies) {
  shogi::Position::init();
  std::string text(start);
  for (const std::string& m : extra_moves) {
    if (text.find(" moves") == std::string::npos && !text.ends_with("moves")) text += " moves";
    text += ' ' + m;
  }
  shogi::GameRecord record;
  if (auto r = record.start(text); !r) return std::unexpected(r.error());
  // The rules accept a position without a king (a mate problem's attacker has none), but a game needs both: the
  // side without one would lose at once or an engine would refuse the position.
  for (shogi::Color c : {shogi::BLACK, shogi::WHITE})
    if (!record.position().has_king(c))
      return std::unexpected(std::string("no ") + (c == shogi::BLACK ? "black" : "white") +
                             " king: a game needs both kings");
  std::string_view s = start;
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  if (s.starts_with("position")) {
    s.remove_prefix(8);
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  }
  std::string out = s.starts_with("startpos") ? std::string("startpos") : "sfen " + record.start_sfen();
  const auto& moves = record.moves();
  size_t keep = plies > 0 ? std::min(moves.size(), size_t(plies)) : moves.size();
  if (keep > 0) out += " moves";
  for (size_t i = 0; i < keep; ++i) out += ' ' + shogi::to_usi(moves[i]);
  return out;
}

}  // namespace arena::openings
