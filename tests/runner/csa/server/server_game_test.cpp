// One server game without sockets, with explicit read times: the Game_Summary (checked against the project's
// own client-side parser), the clock boundaries of csa-protocol.md §5, and every ending's lines of §6.
#include <doctest/doctest.h>

#include <sstream>

#include "csa/protocol/game_summary.h"
#include "csa/server/game.h"
#include "csa/server/record.h"

using namespace arena::csa;
using namespace std::chrono_literals;
using shogi::BLACK;
using shogi::WHITE;
using Lines = std::vector<std::string>;

namespace {

// White king 1a; black gold 2c and knight 3c: a pawn drop on 1b would mate.
const char* UCHIFUZUME_SFEN = "sfen 8k/9/6NG1/9/9/9/9/9/4K4 b P 1";
// Black gold 5h pinned by the white rook 5a against the king 5i.
const char* PIN_SFEN = "sfen k3r4/9/9/9/9/9/9/4G4/4K4 b - 1";
// Black king 5a in the camp with 10 pieces and 18 points on the board: 28 points with 10 pawns in hand, 27 with 9.
const char* KACHI_VALID_SFEN = "sfen +L+NSGKGS+N+L/1R5B1/9/9/9/9/9/9/8k b 10P 1";
const char* KACHI_SHORT_SFEN = "sfen +L+NSGKGS+N+L/1R5B1/9/9/9/9/9/9/8k b 9P 1";
// White king 1a, black rook 2e: the rook checks from 1e and 2e while the king shuffles 1a <-> 2a.
const char* PERPETUAL_SFEN = "sfen 8k/9/9/9/7R1/9/9/9/4K4 b - 1";

Lines split(const std::string& text) {
  Lines out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

struct Game {
  std::unique_ptr<ServerGame> game;
  SteadyTime t0 = SteadyTime{} + 1000h;
  Outbox out;

  explicit Game(std::string name = "g-0-2", int total = 0, int byoyomi = 2, int inc = 0,
                std::string position = "startpos", int least = 0, int max_moves = 256) {
    GameSetup s;
    s.game_id = "local+" + name + "+alice+bob+20260101000000";
    s.game_name = name;
    s.names[BLACK] = s.list_names[BLACK] = "alice";
    s.names[WHITE] = s.list_names[WHITE] = "bob";
    s.total_s = total;
    s.byoyomi_s = byoyomi;
    s.increment_s = inc;
    s.least_time_per_move_s = least;
    s.max_moves = max_moves;
    s.position = position;
    auto g = ServerGame::create(s, std::chrono::system_clock::now());
    REQUIRE(g);
    game = std::move(*g);
    game->start(t0, out);
    CHECK(take(BLACK) == Lines{"START:" + s.game_id});
    CHECK(take(WHITE) == Lines{"START:" + s.game_id});
  }
  SteadyTime at(double seconds) const { return t0 + std::chrono::milliseconds(int64_t(seconds * 1000 + 0.5)); }
  void line(shogi::Color from, std::string_view text, double seconds) {
    game->on_command(from, parse_client_command(text), at(seconds), out);
  }
  Lines take(shogi::Color c) {
    Lines l = split(out.to[c]);
    out.to[c].clear();
    return l;
  }
  // Both players got the same lines.
  Lines both() {
    Lines b = take(BLACK);
    CHECK(take(WHITE) == b);
    return b;
  }
};

}  // namespace

TEST_CASE("the Game_Summary is shogi-server's block, and our client parser reads it back") {
  Game g("testgame-300-10F", 300, 0, 10);
  std::string text = g.game->summary(WHITE);
  CHECK(text.rfind("BEGIN Game_Summary\nProtocol_Version:1.2\nProtocol_Mode:Server\nFormat:Shogi 1.0\n"
                   "Declaration:Jishogi 1.1\nGame_ID:local+testgame-300-10F+alice+bob+20260101000000\n"
                   "Name+:alice\nName-:bob\nYour_Turn:-\nRematch_On_Draw:NO\nTo_Move:+\nMax_Moves:256\n"
                   "BEGIN Time\nTime_Unit:1sec\nTotal_Time:300\nByoyomi:0\nIncrement:10\nLeast_Time_Per_Move:0\n"
                   "END Time\nBEGIN Position\nP1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI *  *  *  *  * -KA * \n",
                   0) == 0);
  CHECK(text.find("P9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n+\nEND Position\nEND Game_Summary\n") != std::string::npos);
  auto parsed = parse_game_summary(text);
  REQUIRE(parsed);
  CHECK(parsed->your_turn == WHITE);
  CHECK(parsed->name[BLACK] == "alice");
  CHECK(parsed->time[BLACK].total_ms == 300000);
  CHECK(parsed->time[BLACK].increment_ms == 10000);
  CHECK(parsed->unknown.empty());
  CHECK(parsed->warnings.empty());
  CHECK(g.game->summary(BLACK).find("Your_Turn:+\n") != std::string::npos);
}

TEST_CASE("a Position block with hands and moves played before the game") {
  Game g("op-60-0", 60, 0, 0, "sfen 8k/9/6NG1/9/9/9/9/9/4K4 b P2p 1 moves 5i5h P*5e");
  std::string text = g.game->summary(BLACK);
  CHECK(text.find("P9 *  *  *  * +OU *  *  *  * \nP+00FU\nP-00FU00FU\n+\n+5958OU,T1\n-0055FU,T1\nEND Position\n") !=
        std::string::npos);
  auto parsed = parse_game_summary(text);
  REQUIRE(parsed);
  CHECK(parsed->moves.size() == 2);
  CHECK(parsed->side_to_move == BLACK);
  CHECK(g.game->side_to_move() == BLACK);
  // The setup moves count for Max_Moves and are not charged.
  CHECK(g.game->remaining_ms(BLACK) == 60000);
}

TEST_CASE("0 s + 2 s byoyomi: a move at 1.9 s is T1, at 2.05 s it is #TIME_UP") {
  Game g;
  CHECK(*g.game->deadline() == g.at(2.0));
  g.line(BLACK, "+7776FU", 1.9);
  CHECK(g.both() == Lines{"+7776FU,T1"});
  // White's turn started when black's line was read.
  CHECK(*g.game->deadline() == g.at(3.9));
  g.line(WHITE, "-3334FU", 1.9 + 2.05);
  CHECK(g.take(WHITE) == Lines{"#TIME_UP", "#LOSE"});
  CHECK(g.take(BLACK) == Lines{"#TIME_UP", "#WIN"});
  CHECK(g.game->outcome().kind == GameEndKind::TimeUp);
  CHECK(g.game->outcome().winner == BLACK);
  CHECK_FALSE(g.game->deadline());
}

TEST_CASE("the timer flags a silent player exactly at its budget; keep-alives do not help") {
  Game g;
  g.game->on_timer(g.at(1.999), g.out);
  g.line(BLACK, "", 1.5);
  g.line(BLACK, " ", 1.6);
  CHECK(g.both().empty());
  CHECK_FALSE(g.game->finished());
  g.game->on_timer(g.at(2.0), g.out);
  CHECK(g.take(BLACK) == Lines{"#TIME_UP", "#LOSE"});
  CHECK(g.take(WHITE) == Lines{"#TIME_UP", "#WIN"});
}

TEST_CASE("a late %TORYO is a time-up") {
  Game g;
  g.line(BLACK, "%TORYO", 2.5);
  CHECK(g.take(BLACK) == Lines{"#TIME_UP", "#LOSE"});
}

TEST_CASE("Fischer clock: the increment is added before every move, the first included") {
  Game g("f-10-5F", 10, 0, 5);
  CHECK(*g.game->deadline() == g.at(15));
  g.line(BLACK, "+7776FU", 3.7);
  CHECK(g.both() == Lines{"+7776FU,T3"});
  CHECK(g.game->remaining_ms(BLACK) == 12000);
  g.line(WHITE, "-3334FU", 3.7 + 14.99);  // budget 10 + 5: 14 s charged is fine
  CHECK(g.both() == Lines{"-3334FU,T14"});
  CHECK(g.game->remaining_ms(WHITE) == 1000);
  CHECK(*g.game->deadline() == g.at(3.7 + 14.99 + 17));
}

TEST_CASE("Least_Time_Per_Move 1 charges an instant move one second") {
  Game g("l-60-0", 60, 0, 0, "startpos", 1);
  g.line(BLACK, "+7776FU", 0.01);
  CHECK(g.both() == Lines{"+7776FU,T1"});
  CHECK(g.game->remaining_ms(BLACK) == 59000);
}

TEST_CASE("untimed game: no deadline") {
  Game g("u-0-0", 0, 0, 0);
  CHECK_FALSE(g.game->deadline());
  g.line(BLACK, "+7776FU", 5000);
  CHECK(g.both() == Lines{"+7776FU,T5000"});
}

TEST_CASE("resign") {
  Game g;
  g.line(BLACK, "+7776FU", 0.1);
  g.both();
  g.line(WHITE, "%TORYO", 0.2);
  CHECK(g.take(WHITE) == Lines{"%TORYO", "#RESIGN", "#LOSE"});
  CHECK(g.take(BLACK) == Lines{"%TORYO", "#RESIGN", "#WIN"});
  CHECK(std::string(summary_type(g.game->outcome().kind)) == "toryo");
}

TEST_CASE("illegal moves are not echoed and lose: bad token, wrong sign, illegal, %CHUDAN") {
  for (const char* bad : {"+7775FU", "-3334FU", "+7776KI", "+77", "%CHUDAN", "%MATTA", "+7776FU '* 30"}) {
    CAPTURE(bad);
    Game g;
    g.line(BLACK, bad, 0.5);
    CHECK(g.take(BLACK) == Lines{"#ILLEGAL_MOVE", "#LOSE"});
    CHECK(g.take(WHITE) == Lines{"#ILLEGAL_MOVE", "#WIN"});
    CHECK(g.game->outcome().kind == GameEndKind::IllegalMove);
    CHECK(g.game->illegal_line() == std::string(bad).substr(0, std::string(bad).find(',')));
  }
}

TEST_CASE("uchifuzume and leaving the king in check are illegal moves (with shogi-server's finer types)") {
  {
    Game g("u-0-2", 0, 2, 0, UCHIFUZUME_SFEN);
    g.line(BLACK, "+0012FU", 0.1);
    CHECK(g.take(BLACK) == Lines{"#ILLEGAL_MOVE", "#LOSE"});
    CHECK(g.game->outcome().kind == GameEndKind::Uchifuzume);
  }
  {
    // The same drop one file over checks without mating: legal.
    Game g("u-0-2", 0, 2, 0, "sfen 8k/9/6NG1/9/9/9/9/9/4K4 b P 1");
    g.line(BLACK, "+0022FU", 0.1);
    CHECK(g.both() == Lines{"+0022FU,T0"});
  }
  {
    Game g("p-0-2", 0, 2, 0, PIN_SFEN);
    g.line(BLACK, "+5848KI", 0.1);
    CHECK(g.take(WHITE) == Lines{"#ILLEGAL_MOVE", "#WIN"});
    CHECK(g.game->outcome().kind == GameEndKind::SelfCheck);
  }
}

TEST_CASE("%KACHI: echoed with its time, then judged by the 27-point rule") {
  {
    Game g("k-0-2", 0, 2, 0, KACHI_VALID_SFEN);
    g.line(BLACK, "%KACHI", 1.2);
    CHECK(g.take(BLACK) == Lines{"%KACHI,T1", "%KACHI", "#JISHOGI", "#WIN"});
    CHECK(g.take(WHITE) == Lines{"%KACHI,T1", "%KACHI", "#JISHOGI", "#LOSE"});
    CHECK(g.game->outcome().kind == GameEndKind::Kachi);
  }
  {
    Game g("k-0-2", 0, 2, 0, KACHI_SHORT_SFEN);
    g.line(BLACK, "%KACHI", 0.2);
    CHECK(g.take(BLACK) == Lines{"%KACHI,T0", "%KACHI", "#ILLEGAL_MOVE", "#LOSE"});
    CHECK(g.take(WHITE) == Lines{"%KACHI,T0", "%KACHI", "#ILLEGAL_MOVE", "#WIN"});
    CHECK(g.game->outcome().kind == GameEndKind::IllegalKachi);
    CHECK(g.game->outcome().detail.find("27 points") != std::string::npos);
  }
}

TEST_CASE("sennichite: the fourth occurrence (the start counts) ends with the move echoed, then #SENNICHITE #DRAW") {
  Game g;
  const char* cycle[] = {"+5958OU", "-5152OU", "+5859OU", "-5251OU"};
  double t = 0;
  for (int ply = 0; ply < 12; ++ply) {
    shogi::Color mover = ply % 2 ? WHITE : BLACK;
    g.line(mover, cycle[ply % 4], t += 0.01);
    Lines expect{std::string(cycle[ply % 4]) + ",T0"};
    if (ply == 11) expect.insert(expect.end(), {"#SENNICHITE", "#DRAW"});
    CHECK(g.both() == expect);
  }
  CHECK(g.game->outcome().kind == GameEndKind::Sennichite);
  CHECK_FALSE(g.game->outcome().winner);
}

TEST_CASE("perpetual check: #OUTE_SENNICHITE, the checking side loses") {
  Game g("o-0-2", 0, 2, 0, PERPETUAL_SFEN);
  const char* cycle[] = {"+2515HI", "-1121OU", "+1525HI", "-2111OU"};
  double t = 0;
  for (int ply = 0; ply < 12; ++ply) {
    shogi::Color mover = ply % 2 ? WHITE : BLACK;
    g.line(mover, cycle[ply % 4], t += 0.01);
    if (ply < 11) {
      CHECK(g.both() == Lines{std::string(cycle[ply % 4]) + ",T0"});
    } else {
      CHECK(g.take(BLACK) == Lines{"-2111OU,T0", "#OUTE_SENNICHITE", "#LOSE"});
      CHECK(g.take(WHITE) == Lines{"-2111OU,T0", "#OUTE_SENNICHITE", "#WIN"});
    }
  }
  CHECK(g.game->outcome().kind == GameEndKind::OuteSennichite);
}

TEST_CASE("Max_Moves: the last move is echoed, then #MAX_MOVES #CENSORED") {
  Game g("m-0-2", 0, 2, 0, "startpos", 0, 4);
  const char* moves[] = {"+7776FU", "-3334FU", "+2726FU", "-8384FU"};
  for (int ply = 0; ply < 4; ++ply) g.line(ply % 2 ? WHITE : BLACK, moves[ply], 0.1 * (ply + 1));
  Lines all = g.both();
  CHECK(all == Lines{"+7776FU,T0", "-3334FU,T0", "+2726FU,T0", "-8384FU,T0", "#MAX_MOVES", "#CENSORED"});
}

TEST_CASE("a move before its turn is queued and played when the turn starts; a repeated move is ignored") {
  Game g;
  g.line(WHITE, "-3334FU", 0.3);  // early
  CHECK(g.both().empty());
  g.line(BLACK, "+7776FU", 1.5);
  CHECK(g.both() == Lines{"+7776FU,T1", "-3334FU,T0"});
  // White sends its move again (a double send): equal to the last echoed move, so ignored, not even queued.
  g.line(WHITE, "-3334FU", 1.6);
  CHECK(g.both().empty());
  g.line(BLACK, "+2726FU", 1.7);
  CHECK(g.both() == Lines{"+2726FU,T0"});
  g.line(WHITE, "-8384FU", 1.8);
  CHECK(g.both() == Lines{"-8384FU,T0"});
}

TEST_CASE("'* comments are stored for the record, not relayed") {
  Game g;
  g.line(BLACK, "+7776FU,'* 30 -3334FU +2726FU", 0.2);
  CHECK(g.both() == Lines{"+7776FU,T0"});
  REQUIRE(g.game->moves().size() == 1);
  CHECK(g.game->moves()[0].comment == "'** 30 -3334FU +2726FU");
  g.line(WHITE, "%TORYO", 0.4);
  std::string record = server_csa_record(*g.game);
  CHECK(record.find("+7776FU\nT0\n'** 30 -3334FU +2726FU\n%TORYO\n'summary:toryo:alice win:bob lose\n") !=
        std::string::npos);
}

TEST_CASE("disconnect on turn: the survivor gets %TORYO #RESIGN #WIN at once") {
  Game g;
  g.line(BLACK, "+7776FU", 0.1);
  g.both();
  g.game->on_disconnect(WHITE, g.at(0.5), g.out);
  CHECK(g.take(BLACK) == Lines{"%TORYO", "#RESIGN", "#WIN"});
  CHECK(g.game->outcome().kind == GameEndKind::Abnormal);
  CHECK(g.game->outcome().winner == BLACK);
}

TEST_CASE("disconnect off turn: the survivor's move is echoed, then %TORYO #RESIGN #WIN") {
  Game g;
  g.game->on_disconnect(WHITE, g.at(0.5), g.out);
  CHECK(g.both().empty());
  CHECK_FALSE(g.game->finished());
  g.line(BLACK, "+7776FU", 1.0);
  CHECK(g.take(BLACK) == Lines{"+7776FU,T1", "%TORYO", "#RESIGN", "#WIN"});
  CHECK(g.game->outcome().winner == BLACK);
  std::string record = server_csa_record(*g.game);
  CHECK(record.find("+7776FU\nT1\n'white disconnected\n%TORYO\n") != std::string::npos);
}

TEST_CASE("disconnect off turn, then the survivor's flag falls: the survivor still wins") {
  Game g;
  g.game->on_disconnect(WHITE, g.at(0.5), g.out);
  g.game->on_timer(g.at(2.0), g.out);
  CHECK(g.take(BLACK) == Lines{"%TORYO", "#RESIGN", "#WIN"});
  std::string record = server_csa_record(*g.game);
  CHECK(record.find("%-ILLEGAL_ACTION\n") != std::string::npos);
}

TEST_CASE("server stop: #CHUDAN") {
  Game g;
  g.game->abort(g.out);
  CHECK(g.both() == Lines{"#CHUDAN"});
  CHECK(g.game->outcome().kind == GameEndKind::Chudan);
}

TEST_CASE("the record and the results list line") {
  Game g("r-60-0", 60, 0, 0);
  g.line(BLACK, "+7776FU", 1.2);
  g.line(WHITE, "%TORYO", 3.5);
  std::string rec = server_csa_record(*g.game);
  CHECK(rec.find("V2.2\nN+alice\nN-bob\n$EVENT:local+r-60-0+alice+bob+20260101000000\n$START_TIME:") !=
        std::string::npos);
  CHECK(rec.find("$TIME_LIMIT:00:01+00\n'Max_Moves:256\n'Least_Time_Per_Move:0\nP1-KY") != std::string::npos);
  CHECK(rec.find("+\n+7776FU\nT1\n%TORYO\n'summary:toryo:alice win:bob lose\n") != std::string::npos);
  std::string line = results_list_line(*g.game, "/x/y.csa");
  CHECK(line.find("\ttoryo\twin\talice\tbob\tlose\t/x/y.csa\t1\n") != std::string::npos);
  CHECK(rec.ends_with("'summary:toryo:alice win:bob lose\n'$END_TIME:" + rec.substr(rec.find("$END_TIME:") + 10, 19) +
                      "\n"));
  CHECK(rec.find("'rating:") == std::string::npos);  // no trips
  CHECK(record_relative_path(*g.game).ends_with("/local+r-60-0+alice+bob+20260101000000.csa"));
}

TEST_CASE("REJECT lines") {
  GameSetup s;
  s.game_id = "local+g-0-2+alice+bob+1";
  s.names[BLACK] = "alice";
  s.names[WHITE] = "bob";
  auto g = ServerGame::create(s, std::chrono::system_clock::now());
  REQUIRE(g);
  Outbox out;
  (*g)->reject("bob", out);
  CHECK(out.to[BLACK] == "REJECT:local+g-0-2+alice+bob+1 by bob\n");
  CHECK(out.to[WHITE] == out.to[BLACK]);
  CHECK((*g)->finished());
  CHECK_FALSE(ServerGame::create(
      [] {
        GameSetup bad;
        bad.position = "sfen nonsense";
        return bad;
      }(),
      std::chrono::system_clock::now()));
}
