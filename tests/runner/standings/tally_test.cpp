// The standings: scores of valid pair attempts, faults of every game, and the SPRT on the complete prefix of pairs.
#include <doctest/doctest.h>

#include <cmath>

#include "support/journal_game.h"
#include "standings/tally.h"

using namespace arena;
using namespace arena::standings;
using arena::journal::JournalGame;
using test_support::journal_game;

TEST_CASE("standings") {
  Tally t({"a", "b"}, {run::Pairing{0, 1}}, 2);
  t.add(journal_game(0, 0, false, "a", "b", Outcome::BlackWin));                            // a wins as black
  t.add(journal_game(1, 0, false, "b", "a", Outcome::Draw));                                // pair 0: W + D = 1.5
  t.add(journal_game(2, 0, false, "a", "b", Outcome::WhiteWin, Termination::TimeForfeit));  // a loses on time as black
  CHECK(t.scored() == 3);
  CHECK(t.pairings()[0].penta == stats::PentaCounts{0, 0, 0, 1, 0});
  // Game 3 breaks pair 1: game 2 is taken back out of the scores but its time loss stays in the faults.
  t.add(journal_game(3, 0, true, "b", "a", Outcome::BlackWin, Termination::Disconnect));
  CHECK(t.scored() == 2);
  CHECK(t.void_games() == 2);
  CHECK(t.replays() == 1);
  CHECK(t.engines()[0].time_losses == 1);
  CHECK(t.engines()[0].crashes == 1);
  t.add(journal_game(2, 1, false, "a", "b", Outcome::BlackWin));
  t.add(journal_game(3, 1, false, "b", "a", Outcome::WhiteWin));
  CHECK(t.scored() == 4);
  const PairingRecord& r = t.pairings()[0];
  CHECK(r.wdl == stats::WdlCounts{3, 0, 1});
  CHECK(r.as_black == stats::WdlCounts{2, 0, 0});
  CHECK(r.as_white == stats::WdlCounts{1, 0, 1});
  CHECK(r.penta == stats::PentaCounts{0, 0, 0, 1, 1});
  CHECK(t.engines()[1].wdl == stats::WdlCounts{0, 3, 1});
  CHECK(t.engines()[0].points() == 3.5);
  auto sum = t.summary(0);
  REQUIRE(sum);
  CHECK(sum->n == 2);  // pentanomial: pairs

  SUBCASE("pairings found from the games (a journal without a header)") {
    Tally u({}, {}, 2);
    u.add(journal_game(0, 0, false, "x", "y", Outcome::Draw));
    u.add(journal_game(1, 0, false, "y", "x", Outcome::BlackWin));
    REQUIRE(u.pairings().size() == 1);
    CHECK(u.engines()[size_t(u.pairings()[0].pairing.first)].name == "x");
    CHECK(u.pairings()[0].wdl == stats::WdlCounts{0, 1, 1});
    CHECK(u.pairings()[0].penta == stats::PentaCounts{0, 1, 0, 0, 0});
  }
  SUBCASE("SPRT status on the pentanomial counts") {
    stats::SprtConfig c{0.05, 0.05, 0, 5, stats::EloModel::Normalized};
    SprtStatus st = sprt_status(t, c);
    CHECK(st.llr == doctest::Approx(stats::sprt_llr(r.penta, c)));
    CHECK(st.bounds.upper == doctest::Approx(std::log(19.0)));
  }
}

TEST_CASE("a second line of a game counts for nothing, its fault included") {
  Tally t({"a", "b"}, {run::Pairing{0, 1}}, 2);
  const JournalGame crash = journal_game(0, 0, false, "a", "b", Outcome::WhiteWin, Termination::Disconnect);
  CHECK(t.add(crash));
  CHECK_FALSE(t.add(crash));  // before, its crash was counted again (the score was not)
  CHECK(t.engines()[0].crashes == 1);
  CHECK(t.scored() == 1);
  CHECK(t.journaled() == 2);
  CHECK(t.duplicates() == 1);
  // A replay line (the crash that voided its pair attempt), twice: its crash once, one attempt voided.
  const JournalGame replayed = journal_game(2, 0, true, "a", "b", Outcome::WhiteWin, Termination::Disconnect);
  t.add(replayed);
  t.add(replayed);
  CHECK(t.engines()[0].crashes == 2);
  CHECK(t.replays() == 1);
  CHECK(t.void_games() == 1);
  CHECK(t.duplicates() == 2);
  // A later attempt of a game is no duplicate: it is counted.
  CHECK(t.add(journal_game(0, 1, false, "a", "b", Outcome::Draw)));
  CHECK(t.duplicates() == 2);
}

TEST_CASE("the SPRT decides on the longest complete prefix of pairs, at the first pair where it crosses a bound") {
  // a wins both games of three pairs in four, and splits the fourth: the LLR rises.
  auto win_pair = [](int64_t pair) {
    return std::vector<JournalGame>{
        journal_game(pair * 2, 0, false, "a", "b", Outcome::BlackWin),
        journal_game(pair * 2 + 1, 0, false, "b", "a", pair % 4 == 3 ? Outcome::BlackWin : Outcome::WhiteWin)};
  };
  const stats::SprtConfig c{0.05, 0.05, 0, 40, stats::EloModel::Logistic};
  // Where it decides when the pairs come in order.
  Tally in_order({"a", "b"}, {run::Pairing{0, 1}}, 2);
  in_order.decide_sprt(c);
  int64_t decided_at = -1;
  for (int64_t pair = 0; pair < 200 && decided_at < 0; ++pair) {
    for (const JournalGame& g : win_pair(pair)) in_order.add(g);
    if (in_order.sprt_decided()) decided_at = pair + 1;
  }
  REQUIRE(decided_at > 2);
  CHECK(in_order.prefix_pairs() == decided_at);
  CHECK(sprt_status(in_order, c).verdict == stats::SprtVerdict::AcceptH1);

  // The same pairs finishing out of order, with pair 0 last: nothing is decided while pair 0 is missing, however
  // many later pairs are in; then the prefix stops exactly where the in-order run decided.
  Tally shuffled({"a", "b"}, {run::Pairing{0, 1}}, 2);
  shuffled.decide_sprt(c);
  for (int64_t pair = decided_at + 20; pair >= 1; --pair)
    for (const JournalGame& g : win_pair(pair)) shuffled.add(g);
  CHECK(shuffled.prefix_pairs() == 0);
  CHECK_FALSE(shuffled.sprt_decided());
  CHECK(sprt_status(shuffled, c).llr == 0.0);
  shuffled.add(win_pair(0)[0]);
  CHECK_FALSE(shuffled.sprt_decided());  // half a pair is not a complete pair
  shuffled.add(win_pair(0)[1]);
  CHECK(shuffled.sprt_decided());
  CHECK(shuffled.prefix_pairs() == decided_at);
  CHECK(sprt_status(shuffled, c).llr == doctest::Approx(sprt_status(in_order, c).llr));
  CHECK(shuffled.scored() == 2 * (decided_at + 21));  // the other statistics count every game

  // A pair broken by a crash and replayed is complete only with its new attempt.
  Tally replayed({"a", "b"}, {run::Pairing{0, 1}}, 2);
  replayed.add(journal_game(0, 0, true, "a", "b", Outcome::WhiteWin, Termination::Disconnect));
  replayed.add(journal_game(1, 1, false, "b", "a", Outcome::WhiteWin));
  CHECK(replayed.prefix_pairs() == 0);
  replayed.add(journal_game(0, 1, false, "a", "b", Outcome::BlackWin));
  CHECK(replayed.prefix_pairs() == 1);
  CHECK(replayed.prefix_penta() == stats::PentaCounts{0, 0, 0, 0, 1});
}
