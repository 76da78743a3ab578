// The legality probes: the bestmove in positions that trap move generators (drops that mate by pawn, pins,
// promotions), judged by the rules library, and the answer of a checkmated engine.

#include "check/battery.h"

#include "check/check_positions.h"
#include "rules/game_end.h"
#include "rules/notation.h"

namespace arena::check {

void Battery::legality() {
  auto positions = legality_positions();
  const size_t count = o_.quick ? 3 : positions.size();
  const std::int64_t b = o_.quick ? 300 : 500;
  std::vector<std::string> illegal, notes;
  int legal = 0;
  for (size_t i = 0; i < count && !interrupted(); ++i) {
    if (!ensure_running()) return;
    const CheckPosition& p = positions[i];
    shogi::GameRecord record;
    if (!record.start(p.position.substr(p.position.find(' ') + 1))) continue;  // cannot happen: tested
    engine_.client().new_game();
    auto s = timed(p.position, byoyomi_go(b), b);
    if (s.died) {
      illegal.push_back(std::string(p.name) + ": " + died_text(s));
      if (!ensure_running()) break;
      continue;
    }
    if (!s.answered()) {
      notes.push_back(std::string(p.name) + ": no bestmove");
      continue;
    }
    const std::string& move = s.result.bestmove.move;
    if (s.result.bestmove.is_resign()) {
      ++legal;
      notes.push_back(std::string(p.name) + ": resigned");
    } else if (s.result.bestmove.is_win()) {
      if (shogi::can_declare_win(record.position(), shogi::EnteringKingRule::Point27) ||
          shogi::can_declare_win(record.position(), shogi::EnteringKingRule::Point24))
        ++legal;
      else
        illegal.push_back(std::string(p.name) + ": 'bestmove win' where no declaration is valid");
    } else if (auto m = shogi::parse_usi_move(record.position(), move); !m) {
      illegal.push_back(std::string(p.name) + ": " + move + " (" + m.error() + "; " + std::string(p.trap) + ")");
    } else {
      ++legal;
    }
  }
  const std::string figure = std::to_string(legal) + " of " + std::to_string(count) + " positions legal";
  if (!illegal.empty())
    add("legal.moves", "legal bestmove in trap positions", Verdict::Fail, figure, join(illegal, "; "));
  else if (legal < int(count))  // unanswered: nothing judged there
    add("legal.moves", "legal bestmove in trap positions", Verdict::Warn, figure,
        join(notes, "; ") + ": its moves there could not be judged");
  else
    add("legal.moves", "legal bestmove in trap positions", Verdict::Pass, figure, join(notes, "; "));
  if (!ensure_running()) return;
  // Checkmated: a tournament never asks (the game is over), so anything but resign is a warning only.
  const CheckPosition& mated = mated_position();
  engine_.client().new_game();
  auto s = timed(mated.position, byoyomi_go(b), b);
  const std::string answer = s.died         ? died_text(s)
                             : s.answered() ? "bestmove " + s.result.bestmove.move
                                            : "no bestmove";
  // A tournament never sends such a position, but an engine left broken by it would spoil the checks after it.
  std::string after;
  if (engine_.running()) {
    auto next = timed(timing_position(), byoyomi_go(b), b);
    if (!next.answered()) {
      after = next.died ? "died on the next go" : "no longer answers go";
      engine_.abandon();  // restarted by the next check
    }
  }
  if (s.answered() && s.result.bestmove.is_resign() && after.empty())
    add("legal.mated", "checkmated: resign", Verdict::Pass, "bestmove resign");
  else
    add("legal.mated", "checkmated: resign", Verdict::Warn, answer + (after.empty() ? "" : "; then " + after),
        after.empty() ? "with no legal move the answer is `bestmove resign`"
                      : "after a checkmated position it " + after + " (a tournament never sends one; restarted)");
}

}  // namespace arena::check
