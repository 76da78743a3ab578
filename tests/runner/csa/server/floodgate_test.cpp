// Floodgate groups over real sockets: players wait for the group's round and nothing starts before it, everyone
// waiting is paired at once by rating (players.yaml) with the odd player left out, x1 players stay for the next
// round and CSA-mode players are logged out, the group's settings reach the games, and shogi-server's refusals
// (a turn, a challenge, no trip) hold.
#include <doctest/doctest.h>

#include <map>
#include <set>
#include <thread>

#include "csa/server/md5.h"
#include "output/local_time.h"
#include "server_fixture.h"

using namespace csa_test;
using namespace std::chrono_literals;
using arena::csa::CsaServerConfig;
namespace league = arena::csa::league;

namespace {

constexpr auto INTERVAL = std::chrono::seconds(2);
const std::string GROUP = "floodgate-300-10F";

void floodgate_group(CsaServerConfig& c, int max_moves = 100) {
  league::GroupSettings settings;
  settings.max_moves = max_moves;
  c.floodgate_groups.push_back({GROUP, league::Schedule::every(INTERVAL, settings), {}});
}

// The first round time strictly after `t` (the interval schedule's multiples of INTERVAL from the epoch).
std::chrono::system_clock::time_point next_round_after(std::chrono::system_clock::time_point t) {
  return *league::Schedule::every(INTERVAL).next_after(t);
}

std::unique_ptr<TestClient> x1_waiting(uint16_t port, const std::string& name) {
  auto c = login(port, name, "pw-" + name, true);
  c->send_line("%%GAME " + GROUP + " *");
  return c;
}

std::string opponent_in(const Lines& summary, const std::string& me) {
  const std::string b = value_of(summary, "Name+:");
  return b == me ? value_of(summary, "Name-:") : b;
}

// AGREE from both, then the side to move resigns; both read the ending.
void agree_and_resign(TestClient& a, TestClient& b, const Lines& summary_a) {
  const std::string id = value_of(summary_a, "Game_ID:");
  a.send_line("AGREE");
  b.send_line("AGREE");
  REQUIRE(a.read_line() == "START:" + id);
  REQUIRE(b.read_line() == "START:" + id);
  TestClient& black = value_of(summary_a, "Your_Turn:") == "+" ? a : b;
  TestClient& white = &black == &a ? b : a;
  black.send_line("%TORYO");
  CHECK(black.read_until("#LOSE").back() == "#LOSE");
  CHECK(white.read_until("#WIN").back() == "#WIN");
}

// ratings.json's count of the games rated, or -1 when it is not written yet.
int counted_games(const std::filesystem::path& output_dir) {
  const std::string json = read_file(output_dir / "ratings.json");
  const size_t at = json.find("\"counted_games\":");
  return at == std::string::npos ? -1 : std::stoi(json.substr(at + 16));
}

}  // namespace

TEST_CASE("x1 players wait for the round, play, and are paired again at the next one with colours swapped") {
  TestServer s([](CsaServerConfig& c) { floodgate_group(c); });
  auto alice = x1_waiting(s.port(), "alice");
  const auto before = std::chrono::system_clock::now();
  auto bob = x1_waiting(s.port(), "bob");
  const auto round = next_round_after(before);

  // Nobody hears anything until the round; then both get the summary with the group's settings.
  Lines sa = alice->read_until("END Game_Summary", 4000ms);
  const auto received = std::chrono::system_clock::now();
  Lines sb = bob->read_until("END Game_Summary", 1000ms);
  REQUIRE(sa.back() == "END Game_Summary");
  REQUIRE(sb.back() == "END Game_Summary");
  CHECK(received >= round);
  CHECK(received < round + INTERVAL + 500ms);
  CHECK(sa.front() == "BEGIN Game_Summary");
  CHECK(value_of(sa, "Max_Moves:") == "100");
  CHECK(value_of(sa, "Game_ID:").starts_with("local+" + GROUP + "+"));
  CHECK(opponent_in(sa, "alice") == "bob");
  const std::string first_black = value_of(sa, "Name+:");

  // The listing says when the next round is and who waits.
  auto watcher = login(s.port(), "watcher", "pw", true);
  watcher->send_line("%%FLOODGATE");
  Lines listing = watcher->read_until("##[FLOODGATE] +OK");
  REQUIRE(listing.size() == 2);
  CHECK(listing[0].starts_with("##[FLOODGATE] " + GROUP + " next 20"));
  CHECK(listing[0].find(" waiting 0 rounds ") != std::string::npos);  // both now agree_waiting

  agree_and_resign(*alice, *bob, sa);
  // x1 players stay connected and ask again; the rematch is the only game (logged with its penalty), colours swap.
  alice->send_line("%%GAME " + GROUP + " *");
  bob->send_line("%%GAME " + GROUP + " *");
  Lines second = alice->read_until("END Game_Summary", 4000ms);
  REQUIRE(second.back() == "END Game_Summary");
  CHECK(bob->read_until("END Game_Summary").back() == "END Game_Summary");
  CHECK(value_of(second, "Name-:") == first_black);
  const std::string log = s.log();
  CHECK(log.find(GROUP + " round") != std::string::npos);
  CHECK(log.find("rematch +400") != std::string::npos);

  // The record carries what shogi-server's rating scripts read; the ratings were rebuilt when the round ended.
  REQUIRE(s.server().wait_for_finished_games(1, 5s));
  const std::string record = read_file(s.server().finished_games().at(0).record_path);
  const std::string alice_id = "alice+" + arena::csa::md5_hex("pw-alice");
  const std::string bob_id = "bob+" + arena::csa::md5_hex("pw-bob");
  const std::string rating_line = first_black == "alice" ? "'rating:" + alice_id + ":" + bob_id + "\n"
                                                         : "'rating:" + bob_id + ":" + alice_id + "\n";
  CHECK(record.find("\nP9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n+\n" + rating_line) != std::string::npos);  // after the board
  CHECK(record.find("'black_rate:") == std::string::npos);                                        // nobody is rated yet
  const size_t end_time = record.rfind("\n'$END_TIME:");
  REQUIRE(end_time != std::string::npos);
  CHECK(record.find('\n', end_time + 1) == record.size() - 1);  // the last line
  const std::string yaml = read_file(s.config().output_dir / "players.yaml");
  CHECK(yaml.starts_with("---\nplayers:\n  999:\n"));
  CHECK(yaml.find("    " + alice_id + ":\n      name: alice\n      rating_group: 999\n      rate: 0\n") !=
        std::string::npos);
  const std::string json = read_file(s.config().output_dir / "ratings.json");
  CHECK(json.find("\"counted_games\":1") != std::string::npos);
  CHECK(json.find("\"name\":\"bob\"") != std::string::npos);
  CHECK(log.find("ratings: ") == std::string::npos);  // nothing skipped
  CHECK(log.find("alice waits for " + GROUP + ", paired at ") != std::string::npos);
}

TEST_CASE("CSA-mode players: an odd one is left out, the others play one game and are logged out") {
  TestServer s([](CsaServerConfig& c) { floodgate_group(c); });
  std::vector<std::unique_ptr<TestClient>> players;
  for (const std::string name : {"carol", "dave", "erin"}) {
    players.push_back(login(s.port(), name, GROUP + ",trip-" + name));
  }
  // Two get a game at the round; the third hears nothing.
  std::vector<Lines> summaries(3);
  std::vector<int> paired;
  for (int i = 0; i < 3; ++i) {
    summaries[i] = players[i]->read_until("END Game_Summary", i == 0 ? 4000ms : 1500ms);
    if (!summaries[i].empty() && summaries[i].back() == "END Game_Summary") paired.push_back(i);
  }
  REQUIRE(paired.size() == 2);
  agree_and_resign(*players[paired[0]], *players[paired[1]], summaries[paired[0]]);
  CHECK(players[paired[0]]->wait_closed());
  CHECK(players[paired[1]]->wait_closed());
  const std::string log = s.log();
  CHECK(log.find("left out ") != std::string::npos);
  CHECK(log.find("odd count") != std::string::npos);
  CHECK(log.find("3 waiting, 1 game by default_factory") != std::string::npos);
}

TEST_CASE("players.yaml's rates pair the closest ratings") {
  const auto dir = std::filesystem::temp_directory_path() / ("shogi_arena_floodgate_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::map<std::string, int> rates = {{"ann", 1000}, {"ben", 2000}, {"cat", 1010}, {"dan", 2010}};
  {
    std::ofstream yaml(dir / "players.yaml");
    yaml << "players:\n  0:\n";
    for (const auto& [name, rate] : rates)
      yaml << "    " << name << "+" << arena::csa::md5_hex("pw-" + name) << ":\n      name: " << name
           << "\n      rating_group: 0\n      rate: " << rate << ".0\n"
           << "      last_modified: 2024-01-31 12:00:00.000000000 +09:00\n";
  }
  TestServer s([&](CsaServerConfig& c) {
    floodgate_group(c);
    c.players_file = dir / "players.yaml";
  });
  std::map<std::string, std::unique_ptr<TestClient>> clients;
  for (const auto& [name, rate] : rates) clients[name] = x1_waiting(s.port(), name);
  std::map<std::string, std::string> opponent;
  std::map<std::string, Lines> summaries;
  for (auto& [name, c] : clients) {
    Lines summary = c->read_until("END Game_Summary", 4000ms);
    REQUIRE(summary.back() == "END Game_Summary");
    opponent[name] = opponent_in(summary, name);
    summaries[name] = summary;
  }
  CHECK(opponent["ann"] == "cat");
  CHECK(opponent["ben"] == "dan");
  CHECK(s.log().find("rating difference 10") != std::string::npos);
  // %%RATING lists them best first, in shogi-server's form.
  auto watcher = login(s.port(), "watcher", "pw", true);
  watcher->send_line("%%RATING");
  CHECK(watcher->read_until("##[RATING] +OK") ==
        Lines{"##[RATING] dan \t 2010 @2024-01-31", "##[RATING] ben \t 2000 @2024-01-31",
              "##[RATING] cat \t 1010 @2024-01-31", "##[RATING] ann \t 1000 @2024-01-31", "##[RATING] +OK"});
  // The games record the rates they were paired by, as shogi-server does.
  Lines& ann_summary = summaries["ann"];
  agree_and_resign(*clients["ann"], *clients["cat"], ann_summary);
  REQUIRE(s.server().wait_for_finished_games(1, 5s));
  const std::string record = read_file(s.server().finished_games().at(0).record_path);
  const std::string black = value_of(ann_summary, "Name+:");
  CHECK(record.find("'black_rate:" + black + "+" + arena::csa::md5_hex("pw-" + black) + ":" +
                    std::to_string(rates.at(black)) + ".0\n") != std::string::npos);
  // Ratings from a file are not overwritten by the server's own.
  CHECK_FALSE(std::filesystem::exists(s.config().output_dir / "players.yaml"));
  std::filesystem::remove_all(dir);
}

// A long results list takes a while to rate (about 1 s for 100 k games): the server's own ratings are computed
// beside the games, so that no one's clock or line waits for them. The watcher's %%WHO is answered while the
// round's new game is still missing from ratings.json (before, the refresh ran first, on the I/O thread).
TEST_CASE("a long results list is rated beside the games: lines are answered while the ratings are computed") {
  constexpr int LISTED = 60000;
  TestServer s([](CsaServerConfig& c) {
    floodgate_group(c);
    std::filesystem::create_directories(c.output_dir);
    std::ofstream list(c.output_dir / "00LIST");
    const auto now = std::chrono::system_clock::now();
    for (int k = 0; k < LISTED; ++k) {
      // Recent games, so that every one weighs.
      const std::string date = arena::output::record_time_text(now - std::chrono::days(1 + k % 9));
      const std::string a = "p" + std::to_string(k % 40), b = "p" + std::to_string((k % 40 + 1 + k / 40 % 39) % 40);
      const bool black_won = (k * 2654435761u) % 3 != 0;
      list << date << "\ttoryo\t" << (black_won ? "win" : "lose") << "\t" << a << "+" << arena::csa::md5_hex("t" + a)
           << "\t" << b << "+" << arena::csa::md5_hex("t" + b) << "\t" << (black_won ? "lose" : "win")
           << "\t/old/wdoor+" << GROUP << "+" << a << "+" << b << "+20261101120000.csa\t80\n";
    }
  });
  const auto counted = [&] { return counted_games(s.config().output_dir); };
  const int before = counted();  // rated at start, before anyone logged in
  REQUIRE(before > 0);
  auto alice = x1_waiting(s.port(), "alice");
  auto bob = x1_waiting(s.port(), "bob");
  Lines sa = alice->read_until("END Game_Summary", 4000ms);
  REQUIRE(sa.back() == "END Game_Summary");
  REQUIRE(bob->read_until("END Game_Summary", 1000ms).back() == "END Game_Summary");
  auto watcher = login(s.port(), "watcher", "pw", true);
  agree_and_resign(*alice, *bob, sa);  // the round's last game: the ratings are refreshed
  watcher->send_line("%%WHO");
  const Lines who = watcher->read_until("##[WHO] +OK");
  REQUIRE(!who.empty());  // within the reader's 5 s
  CHECK(who.back() == "##[WHO] +OK");
  CHECK(counted() == before);  // answered while the new game was being rated
  int after = before;
  for (int i = 0; i < 300 && after == before; ++i) {
    std::this_thread::sleep_for(100ms);
    after = counted();
  }
  CHECK(after == before + 1);
  CHECK(s.log().find("expected 7 or 8") == std::string::npos);  // no line read while it was being appended
}

// A round's games can last longer than the time to its next round: each game is rated when it ends, not when the
// round's last one does (before, a long game held every rating, the next pairing's included).
TEST_CASE("a game is rated when it ends, while the round's other game goes on") {
  TestServer s([](CsaServerConfig& c) { floodgate_group(c); });
  std::map<std::string, std::unique_ptr<TestClient>> clients;
  for (const std::string name : {"amy", "bea", "cal", "dee"}) clients[name] = x1_waiting(s.port(), name);
  std::map<std::string, Lines> summaries;
  for (auto& [name, c] : clients) {
    summaries[name] = c->read_until("END Game_Summary", 4000ms);
    REQUIRE(summaries[name].back() == "END Game_Summary");
  }
  REQUIRE(counted_games(s.config().output_dir) == 0);  // rated at start: nothing listed yet
  const std::string rival = opponent_in(summaries["amy"], "amy");
  agree_and_resign(*clients["amy"], *clients[rival], summaries["amy"]);
  int counted = 0;
  for (int i = 0; i < 100 && counted == 0; ++i) {
    std::this_thread::sleep_for(50ms);
    counted = counted_games(s.config().output_dir);
  }
  CHECK(counted == 1);
  CHECK(s.server().game_count() == 1);  // the other game is still waiting for its players' agreement
}

TEST_CASE("a Floodgate group refuses a turn, a challenge and a player without a trip; other names pair at once") {
  TestServer s([](CsaServerConfig& c) { floodgate_group(c); });
  auto x = login(s.port(), "xavier", "pw", true);
  x->send_line("%%GAME " + GROUP + " +");
  CHECK(x->read_line() == "##[ERROR] You are not allowed to specify TEBAN + for the game " + GROUP);
  x->send_line("%%CHALLENGE " + GROUP + " *");
  CHECK(x->read_line() == "##[ERROR] can't find rival for " + GROUP);
  auto notrip = login(s.port(), "yves", GROUP);
  CHECK(notrip->read_line() ==
        "##[ERROR] " + GROUP + " pairs players with a trip only: LOGIN yves " + GROUP + ",<trip>");
  // A Floodgate-shaped name that is not a group of this server pairs the first two players at once, as before.
  auto a = login(s.port(), "anna", "floodgate-600-10F,t1");
  auto b = login(s.port(), "bert", "floodgate-600-10F,t2");
  CHECK(a->read_until("END Game_Summary", 1000ms).back() == "END Game_Summary");
  CHECK(b->read_until("END Game_Summary", 1000ms).back() == "END Game_Summary");
}
