// The resume plan: where each pair stands after the journal's games, and journals of another schedule refused.
#include <doctest/doctest.h>

#include "run/resume.h"
#include "support/journal_game.h"
#include "support/schedule_params.h"

using namespace arena;
using namespace arena::run;
using test_support::schedule_params;
using arena::journal::JournalGame;
using test_support::journal_game;

TEST_CASE("resume plan") {
  Schedule s(schedule_params(config::TournamentType::Gauntlet, 2, 3, 1));
  const std::vector<std::string> names = {"a", "b"};
  std::vector<JournalGame> games = {
      journal_game(0, 0, false, "a", "b", Outcome::BlackWin),
      journal_game(1, 0, false, "b", "a", Outcome::Draw),
      journal_game(2, 0, false, "a", "b", Outcome::BlackWin),  // pair 1: game 0 done, then game 1 broke the pair
      journal_game(3, 0, true, "b", "a", Outcome::WhiteWin, Termination::Disconnect),
      journal_game(2, 1, false, "a", "b", Outcome::Draw),  // pair 1, attempt 1: game 0 done
      journal_game(4, 0, false, "a", "b", Outcome::BlackWin),
      journal_game(4, 0, false, "a", "b", Outcome::BlackWin),  // a duplicate
  };
  auto plan = ResumePlan::make(games, s, names);
  REQUIRE(plan);
  CHECK(plan->pair(0).attempt == 0);
  CHECK(plan->pair(0).done[0]);
  CHECK(plan->pair(0).done[1]);
  CHECK(plan->pair(1).attempt == 1);
  CHECK(plan->pair(1).done[0]);
  CHECK_FALSE(plan->pair(1).done[1]);
  CHECK(plan->pair(2).done[0]);
  CHECK_FALSE(plan->pair(2).done[1]);
  CHECK(plan->games_done() == 4);
  CHECK(plan->warnings().size() == 1);

  auto wrong = ResumePlan::make({journal_game(1, 0, false, "a", "b", Outcome::Draw)}, s, names);
  REQUIRE_FALSE(wrong);
  CHECK(wrong.error().find("schedule says b vs a") != std::string::npos);
  CHECK_FALSE(ResumePlan::make({journal_game(6, 0, false, "a", "b", Outcome::Draw)}, s, names));
}
