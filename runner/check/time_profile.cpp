#include "check/time_profile.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "check/figures.h"

namespace arena::check {

namespace {

// A self-play game of the built-in engine at 30,000 nodes a move from an opening of openings/balanced-24.sfen
// (24 plies), 135 plies to checkmate: a middlegame and an endgame of realistic length, built in so that the check
// needs no file.
constexpr std::string_view RECORD_MOVES[] = {
    "6g6f",  "8c8d",  "7g7f",  "7a6b", "7i6h", "8d8e",  "8h7g", "5a4b", "6h6g", "4b3b",  "2g2f",  "6c6d",  "2f2e",
    "6b6c",  "2e2d",  "2c2d",  "2h2d", "P*2c", "2d2h",  "7c7d", "6i7h", "6c5d", "3i4h",  "8a7c",  "5i6h",  "3c3d",
    "P*2d",  "2c2d",  "2h2d",  "2b3c", "2d2h", "P*2c",  "6h7i", "9a9b", "4i5h", "3b2b",  "7i8h",  "4a3b",  "5h6h",
    "6a5b",  "4g4f",  "1c1d",  "1g1f", "5d5e", "2i1g",  "5e4f", "3g3f", "6d6e", "6f6e",  "3c7g+", "8i7g",  "B*5e",
    "5g5f",  "4f3g+", "2h2e",  "P*6f", "5f5e", "6f6g+", "4h3g", "6g6h", "7h6h", "8e8f",  "8g8f",  "8b8f",  "P*8g",
    "S*7i",  "8h7i",  "8f8g+", "6h7h", "8g8a", "B*4e",  "8a8b", "B*6f", "2a3c", "P*8c",  "8b8c",  "P*8d",  "8c9d",
    "4e7b+", "3c2e",  "5e5d",  "G*4d", "7b9d", "9c9d",  "1g2e", "R*4i", "7i8h", "4i1i+", "S*3c",  "3b3c",  "2e3c+",
    "2b3c",  "N*2e",  "3c3b",  "S*3c", "3b4a", "R*9a",  "N*5a", "P*4b", "5b4b", "3c4b+", "3a4b",  "9a9b+", "S*5b",
    "2e3c",  "4a3b",  "9b5b",  "L*8f", "L*8g", "S*7i",  "7h7i", "5c5d", "S*5c", "1i1h",  "G*7h",  "1h7h",  "7i7h",
    "G*3a",  "3c2a+", "8f8g+", "7h8g", "3b2a", "5c4b+", "3a2b", "G*3b", "2a1b", "3b2b",  "1b2b",  "R*3b",  "2b1c",
    "S*2b",  "1c2d",  "3b3c+", "2d2e", "G*2f"};

constexpr int OPENING_PLIES = 24;

// A clock in whole milliseconds, `scale` times the written one.
game::TimeControl clock(double scale, std::int64_t base_ms, std::int64_t increment_ms, std::int64_t byoyomi_ms) {
  game::TimeControl tc;
  tc.base_ms = std::llround(double(base_ms) * scale);
  tc.increment_ms = std::llround(double(increment_ms) * scale);
  tc.byoyomi_ms = std::llround(double(byoyomi_ms) * scale);
  return tc;
}

}  // namespace

std::vector<ClockKind> profile_kinds(bool quick, double scale) {
  // Each kind costs at most its main time plus its moves' increments or byoyomi: about a minute or less.
  if (quick)
    return {{"profile.increment", "sudden death with a small increment", clock(scale, 5000, 100, 0)},
            {"profile.sudden_death", "sudden death", clock(scale, 5000, 0, 0)},
            {"profile.fischer", "Fischer", clock(scale, 2000, 300, 0)},
            {"profile.byoyomi", "byoyomi", clock(scale, 1000, 0, 500)}};
  return {{"profile.increment", "sudden death with a small increment", clock(scale, 10000, 100, 0)},
          {"profile.sudden_death", "sudden death", clock(scale, 10000, 0, 0)},
          {"profile.fischer", "Fischer", clock(scale, 3000, 500, 0)},
          {"profile.byoyomi", "byoyomi", clock(scale, 2000, 0, 1000)}};
}

const ProfileRecord& profile_record() {
  static const ProfileRecord record{RECORD_MOVES, OPENING_PLIES};
  return record;
}

int profile_moves(bool quick) {
  const int all = (int(std::size(RECORD_MOVES)) - OPENING_PLIES + 1) / 2;
  return quick ? all / 2 : all;
}

std::string_view to_string(ProfileVerdict verdict) {
  switch (verdict) {
    case ProfileVerdict::Safe:
      return "safe";
    case ProfileVerdict::Risky:
      return "risky";
    case ProfileVerdict::UnderUses:
      return "under-uses";
    case ProfileVerdict::NoAnswer:
      return "no answer";
  }
  return "?";
}

void judge_profile(TimeProfile& p, std::string_view delay_option) {
  const game::TimeControl& tc = p.kind.tc;
  p.flag_move.reset();
  p.least_spare_ms = INT64_MAX;
  p.least_spare_move = 0;
  double shares = 0;
  int in_main = 0;
  std::vector<std::int64_t> byoyomi_moves;
  for (size_t i = 0; i < p.moves.size(); ++i) {
    const ProfileMove& m = p.moves[i];
    const std::int64_t spare = m.allowed_ms - m.used_ms;
    if (spare < p.least_spare_ms) p.least_spare_ms = spare, p.least_spare_move = int(i) + 1;
    if (!p.flag_move && m.used_ms > m.allowed_ms + p.margin_ms) p.flag_move = int(i) + 1;
    if (m.remaining_ms > 0) {
      shares += double(m.used_ms) / double(m.remaining_ms);
      ++in_main;
    } else if (tc.byoyomi_ms > 0) {
      byoyomi_moves.push_back(m.used_ms);
    }
  }
  if (p.moves.empty()) p.least_spare_ms = 0;
  p.mean_share = in_main ? shares / in_main : 0;
  p.byoyomi_used_ms = median(byoyomi_moves);
  if (!p.moves.empty()) {
    const ProfileMove& last = p.moves.back();
    p.left_ms = std::max<std::int64_t>(0, last.remaining_ms + tc.increment_ms - last.used_ms);
  }

  char share[32];
  std::snprintf(share, sizeof share, "%.1f %%", 100 * p.mean_share);
  std::string figure =
      std::to_string(p.moves.size()) + (p.moves.size() == 1 ? " move at " : " moves at ") + tc.to_string() + ": ";
  // With byoyomi a move may take more than the main time left: the share says little, the count says when.
  if (in_main && tc.byoyomi_ms > 0)
    figure += std::to_string(in_main) + " in its main time";
  else if (in_main)
    figure += share + std::string(" of its main time a move");
  if (!byoyomi_moves.empty())
    figure += std::string(in_main ? ", then " : "") + ms(p.byoyomi_used_ms) + " of " + ms(tc.byoyomi_ms) +
              " byoyomi (median of " + std::to_string(byoyomi_moves.size()) + ")";
  if (p.flag_move) {
    const ProfileMove& m = p.moves[size_t(*p.flag_move - 1)];
    p.verdict = ProfileVerdict::Risky;
    p.figure = figure + "; flags at move " + std::to_string(*p.flag_move) + ": used " + ms(m.used_ms) + " of " +
               ms(m.allowed_ms);
    p.detail = "it loses on time at " + tc.to_string() + " by its move " + std::to_string(*p.flag_move) +
               (tc.byoyomi_ms > 0
                    ? ": it thinks past its byoyomi; give it a margin_ms of its own or do not play it at this clock"
                    : ": it spends more than this clock gives whatever is left; do not play it at this clock");
    return;
  }
  if (!p.answered) {
    p.verdict = ProfileVerdict::NoAnswer;
    p.figure = figure + "; no bestmove at move " + std::to_string(p.moves.size() + 1);
    p.detail = "it did not answer a move of the game";
    return;
  }
  p.figure = figure + "; " + ms(p.left_ms) + " left at the end, least spare " + ms(p.least_spare_ms) + " (move " +
             std::to_string(p.least_spare_move) + ")";
  // A quarter of the byoyomi, move after move, once in it; or, never reaching it, a quarter of what the clock gave
  // over the game: the engine throws most of its time away.
  std::int64_t used = 0;
  for (const ProfileMove& m : p.moves) used += m.used_ms;
  const std::int64_t given = tc.base_ms + std::int64_t(p.moves.size()) * tc.byoyomi_ms;
  const bool short_byoyomi = byoyomi_moves.size() >= 3 && 4 * p.byoyomi_used_ms < tc.byoyomi_ms;
  if (tc.byoyomi_ms > 0 && p.moves.size() >= 6 && (short_byoyomi || 4 * used < given)) {
    p.verdict = ProfileVerdict::UnderUses;
    p.detail = short_byoyomi ? "it uses " + ms(p.byoyomi_used_ms) + " of a " + ms(tc.byoyomi_ms) + " byoyomi"
                             : "it uses " + ms(used) + " of the " + ms(given) + " its clock gave over " +
                                   std::to_string(p.moves.size()) + " moves";
    p.detail += delay_option.empty() ? ": it plays weaker than the clock allows (a network delay set too high?)"
                                     : ": lower its option " + std::string(delay_option) +
                                           " (a network delay), it plays weaker than the clock allows";
    return;
  }
  // The increments banked rather than spent: the clock ends fuller than it began by more than half of what the
  // increments gave (an allocation that plans as if there were none). Keeping a reserve is not that.
  const std::int64_t earned = std::int64_t(p.moves.size()) * tc.increment_ms;
  if (tc.increment_ms > 0 && tc.byoyomi_ms == 0 && p.moves.size() >= 6 && 2 * (p.left_ms - tc.base_ms) > earned) {
    p.verdict = ProfileVerdict::UnderUses;
    p.detail = "it banks its increments: " + ms(p.left_ms - tc.base_ms) + " of the " + ms(earned) +
               " they gave are left unused; it plays weaker than the clock allows (does it plan without them?)";
    return;
  }
  p.verdict = ProfileVerdict::Safe;
  p.detail.clear();
}

std::string time_curve(const TimeProfile& p) {
  static constexpr std::string_view BLOCKS[] = {"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
  std::string out;
  for (const ProfileMove& m : p.moves) {
    if (m.used_ms > m.allowed_ms) {
      out += '!';
      continue;
    }
    const double share = m.allowed_ms > 0 ? double(m.used_ms) / double(m.allowed_ms) : 1;
    out += BLOCKS[std::clamp(int(share * 8), 0, 7)];
  }
  return out;
}

}  // namespace arena::check
