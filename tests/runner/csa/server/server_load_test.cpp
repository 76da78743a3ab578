// 100 concurrent games of scripted instant-move clients (200 connections) against one server: every game must
// end as its script says, and the server's record of every game (the finished-game list, the CSA record file
// and the results list) must match what the clients saw on their sockets.
#include <doctest/doctest.h>

#include <algorithm>
#include <climits>
#include <deque>
#include <random>
#include <regex>
#include <sstream>
#include <thread>

#include "rules/movegen.h"
#include "rules/notation.h"
#include "rules/position.h"
#include "server_fixture.h"

using namespace csa_test;
using namespace std::chrono_literals;

namespace {

constexpr int GAMES = 100;
constexpr int MAX_MOVES = 60;

enum class Plan { Resign, MaxMoves, IllegalMove, BadKachi, Disconnect };

struct Played {
  std::string id;
  Plan plan = Plan::Resign;
  std::vector<std::string> moves;  // CSA tokens as echoed
  std::vector<int64_t> times;      // their T
  std::string expected_type;       // the results-list type the server should report
  std::optional<shogi::Color> winner;
  std::string failure;  // empty when the script went as expected
};

std::optional<int64_t> t_of(const std::string& echo, const std::string& move) {
  if (echo.rfind(move + ",T", 0) != 0) return std::nullopt;
  return std::stoll(echo.substr(move.size() + 2));
}

Played play_one(uint16_t port, int index) {
  Played r;
  r.plan = Plan(index % 5);
  std::string game = "load" + std::to_string(index) + "-300-10";
  std::unique_ptr<TestClient> c[2];
  c[0] = std::make_unique<TestClient>(port);
  c[1] = std::make_unique<TestClient>(port);
  auto fail = [&](const std::string& why) {
    r.failure = "game " + std::to_string(index) + ": " + why;
    return r;
  };
  if (!c[0]->connected() || !c[1]->connected()) return fail("cannot connect");
  c[0]->send_line("LOGIN b" + std::to_string(index) + " " + game + "-B");
  c[1]->send_line("LOGIN w" + std::to_string(index) + " " + game + "-W");
  for (auto& cl : c) {
    Lines summary = cl->read_until("END Game_Summary", 20000ms);
    if (summary.empty() || summary.back() != "END Game_Summary") return fail("no Game_Summary");
    r.id = value_of(summary, "Game_ID:");
  }
  for (auto& cl : c) cl->send_line("AGREE");
  for (auto& cl : c)
    if (cl->read_line(20000ms) != "START:" + r.id) return fail("no START");

  std::mt19937 rng(unsigned(index) * 7919u + 1);
  int trigger = 8 + index % 30;  // the ply at which the script's ending happens
  shogi::Position pos;
  std::deque<shogi::StateInfo> states(1);
  (void)pos.set(shogi::START_SFEN, &states.back());
  auto expect_end = [&](shogi::Color loser_or_none, const Lines& both_prefix, const char* reason, bool draw) -> bool {
    for (shogi::Color side : {shogi::BLACK, shogi::WHITE}) {
      Lines want = both_prefix;
      want.push_back(reason);
      want.push_back(draw ? (std::string(reason) == "#MAX_MOVES" ? "#CENSORED" : "#DRAW")
                          : (side == loser_or_none ? "#LOSE" : "#WIN"));
      Lines got = c[side]->read_until(want.back(), 20000ms);
      if (got != want) {
        std::string text;
        for (auto& l : got) text += l + " | ";
        r.failure = "game " + std::to_string(index) + ": expected end " + want.back() + ", got " + text;
        return false;
      }
    }
    return true;
  };

  for (int ply = 0;; ++ply) {
    shogi::Color us = pos.side_to_move();
    shogi::MoveList<shogi::LEGAL> legal(pos);
    if (ply == trigger || legal.size() == 0) {
      Plan plan = legal.size() == 0 ? Plan::Resign : r.plan;
      if (plan == Plan::Resign) {
        c[us]->send_line("%TORYO");
        r.expected_type = "toryo";
        r.winner = ~us;
        expect_end(us, {"%TORYO"}, "#RESIGN", false);
        return r;
      }
      if (plan == Plan::IllegalMove) {
        std::string m = shogi::to_csa(legal.begin()->move);
        m[0] = m[0] == '+' ? '-' : '+';  // the opponent's sign: illegal
        c[us]->send_line(m);
        r.expected_type = "illegal move";
        r.winner = ~us;
        expect_end(us, {}, "#ILLEGAL_MOVE", false);
        return r;
      }
      if (plan == Plan::BadKachi) {
        c[us]->send_line("%KACHI");
        r.expected_type = "illegal kachi";
        r.winner = ~us;
        // The echo carries a time we cannot predict under load: check its shape, then the rest.
        for (shogi::Color side : {shogi::BLACK, shogi::WHITE}) {
          auto echo = c[side]->read_line(20000ms);
          if (!echo || echo->rfind("%KACHI,T", 0) != 0) return fail("no %KACHI echo");
        }
        expect_end(us, {"%KACHI"}, "#ILLEGAL_MOVE", false);
        return r;
      }
      if (plan == Plan::Disconnect) {
        c[us]->close();
        r.expected_type = "abnormal";
        r.winner = ~us;
        Lines got = c[~us]->read_until("#WIN", 20000ms);
        if (got != Lines{"%TORYO", "#RESIGN", "#WIN"}) return fail("no abnormal win for the survivor");
        return r;
      }
      // Plan::MaxMoves: play on.
    }
    shogi::Move m = legal.begin()[std::uniform_int_distribution<size_t>(0, legal.size() - 1)(rng)].move;
    std::string csa = shogi::to_csa(m);
    c[us]->send_line(csa);
    std::optional<int64_t> t;
    for (shogi::Color side : {shogi::BLACK, shogi::WHITE}) {
      auto echo = c[side]->read_line(20000ms);
      auto this_t = echo ? t_of(*echo, csa) : std::nullopt;
      if (!this_t) return fail("no echo of " + csa);
      t = this_t;
    }
    states.emplace_back();
    pos.do_move(m, states.back());
    r.moves.push_back(csa);
    r.times.push_back(*t);
    shogi::Repetition rep = pos.repetition(4, INT_MAX);
    if (rep == shogi::Repetition::Draw) {
      r.expected_type = "sennichite";
      expect_end(us, {}, "#SENNICHITE", true);
      return r;
    }
    if (rep != shogi::Repetition::None) {
      // Win for the side to move: `us` checked throughout and loses.
      shogi::Color loser = rep == shogi::Repetition::Win ? us : ~us;
      r.expected_type = "oute_sennichite";
      r.winner = ~loser;
      expect_end(loser, {}, "#OUTE_SENNICHITE", false);
      return r;
    }
    if (int(r.moves.size()) >= MAX_MOVES) {
      r.expected_type = "max_moves";
      expect_end(us, {}, "#MAX_MOVES", true);
      return r;
    }
  }
}

// The move and T lines of a CSA record.
void moves_in_record(const std::string& text, std::vector<std::string>& moves, std::vector<int64_t>& times) {
  static const std::regex move_re("^[+-][0-9]{4}[A-Z]{2}$");
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (std::regex_match(line, move_re)) moves.push_back(line);
    if (line.size() > 1 && line[0] == 'T' && std::isdigit(static_cast<unsigned char>(line[1])))
      times.push_back(std::stoll(line.substr(1)));
  }
}

}  // namespace

TEST_CASE("100 concurrent games of instant-move clients, every game recorded correctly") {
  shogi::Position::init();
  TestServer s([](arena::csa::CsaServerConfig& c) {
    c.max_moves = MAX_MOVES;
    c.max_connections = 2 * GAMES + 10;
  });
  std::vector<Played> played(GAMES);
  auto start = std::chrono::steady_clock::now();
  {
    std::vector<std::thread> threads;
    for (int i = 0; i < GAMES; ++i) threads.emplace_back([&, i] { played[i] = play_one(s.port(), i); });
    for (auto& t : threads) t.join();
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  REQUIRE(s.server().wait_for_finished_games(GAMES, 30s));
  auto finished = s.server().finished_games();
  CHECK(finished.size() == GAMES);
  size_t total_moves = 0;
  for (const Played& p : played) {
    CAPTURE(p.id);
    CHECK(p.failure == "");
    total_moves += p.moves.size();
    auto it = std::find_if(finished.begin(), finished.end(), [&](auto& g) { return g.game_id == p.id; });
    REQUIRE(it != finished.end());
    CHECK(it->moves == p.moves);
    CHECK(it->times_s == p.times);
    CHECK(it->end_type == p.expected_type);
    CHECK(it->winner == p.winner);
    std::vector<std::string> rec_moves;
    std::vector<int64_t> rec_times;
    std::string record = read_file(it->record_path);
    moves_in_record(record, rec_moves, rec_times);
    CHECK(rec_moves == p.moves);
    CHECK(rec_times == p.times);
    CHECK(record.find("$EVENT:" + p.id + "\n") != std::string::npos);
    CHECK(record.find(std::string("'summary:") + p.expected_type + ":") != std::string::npos);
  }
  std::string list = read_file(s.config().output_dir / "00LIST");
  CHECK(std::count(list.begin(), list.end(), '\n') == GAMES);
  for (const auto& g : finished) CHECK(list.find("\t" + g.record_path.string() + "\t") != std::string::npos);
  MESSAGE(GAMES << " concurrent games, " << total_moves << " moves, in " << seconds << " s");
}
