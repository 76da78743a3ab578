// The server's records on disk: written as the game goes, replaced whole at its end with its results line, and
// a record a killed server left open closed and listed at the next start (abnormal without a winner when rated).
#include <doctest/doctest.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "csa/server/command.h"
#include "csa/server/record.h"
#include "csa/server/record_store.h"
#include "output/local_time.h"

using namespace arena::csa;
using shogi::BLACK;
using shogi::WHITE;

namespace {

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Folder {
  Folder() {
    static int n = 0;
    path = std::filesystem::temp_directory_path() /
           ("shogi_arena_records_" + std::to_string(::getpid()) + "_" + std::to_string(n++));
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~Folder() { std::filesystem::remove_all(path); }
  std::filesystem::path path;
};

std::unique_ptr<ServerGame> rated_game(const std::string& stamp = "20260101000000") {
  GameSetup s;
  s.game_name = "floodgate-300-10F";
  s.game_id = "local+floodgate-300-10F+alice+bob+" + stamp;
  s.names[BLACK] = "alice";
  s.names[WHITE] = "bob";
  s.list_names[BLACK] = "alice+0123";
  s.list_names[WHITE] = "bob+4567";
  s.rates[BLACK] = 1210;
  s.total_s = 300;
  s.increment_s = 10;
  auto g = ServerGame::create(s, std::chrono::system_clock::now());
  REQUIRE(g);
  return std::move(*g);
}

const SteadyTime T0 = SteadyTime{} + std::chrono::hours(1000);

}  // namespace

TEST_CASE("a record is on disk from the start, grows with each move, and is replaced whole at the end") {
  Folder dir;
  std::vector<std::string> log;
  RecordStore store(dir.path, {}, [&](const std::string& l) { log.push_back(l); });
  auto game = rated_game();
  Outbox out;
  game->start(T0, out);
  store.progress(*game);
  const std::filesystem::path path = dir.path / record_relative_path(*game);
  std::string text = read(path);
  CHECK(text.find("'rating:alice+0123:bob+4567\n'black_rate:alice+0123:1210.0\n") != std::string::npos);
  CHECK(text.find("'white_rate:") == std::string::npos);
  CHECK(text.find("'summary:") == std::string::npos);
  game->on_command(BLACK, parse_client_command("+7776FU"), T0 + std::chrono::seconds(2), out);
  store.progress(*game);
  game->on_command(WHITE, parse_client_command("-3334FU"), T0 + std::chrono::seconds(3), out);
  store.progress(*game);
  text = read(path);
  CHECK(text.ends_with("+\n'rating:alice+0123:bob+4567\n'black_rate:alice+0123:1210.0\n+7776FU\nT2\n-3334FU\nT1\n"));
  game->on_command(BLACK, parse_client_command("%TORYO"), T0 + std::chrono::seconds(4), out);
  CHECK(store.finish(*game) == path);
  CHECK(read(path) == server_csa_record(*game));
  const std::string list = read(dir.path / "00LIST");
  CHECK(list.find("\ttoryo\tlose\talice+0123\tbob+4567\twin\t" + path.string() + "\t2\n") != std::string::npos);
  CHECK(log.empty());
}

TEST_CASE("a game the server stopped between rated players is abnormal without a winner; unrated, stopped") {
  auto game = rated_game();
  Outbox out;
  game->start(T0, out);
  game->abort(out);
  const std::string record = server_csa_record(*game);
  CHECK(record.find("%CHUDAN\n'summary:abnormal:alice draw:bob draw\n'$END_TIME:") != std::string::npos);
  CHECK(results_list_line(*game, "x.csa").find("\tabnormal\tdraw\talice+0123\tbob+4567\tdraw\tx.csa\t0\n") !=
        std::string::npos);
  GameSetup s = game->setup();
  s.list_names[BLACK] = "alice";
  auto unrated = ServerGame::create(s, std::chrono::system_clock::now());
  REQUIRE(unrated);
  (*unrated)->start(T0, out);
  (*unrated)->abort(out);
  CHECK(server_csa_record(**unrated).find("'summary:chudan:alice none:bob none\n") != std::string::npos);
}

TEST_CASE("at start, a record left open by a kill is closed, listed once, and its moves kept") {
  Folder dir;
  std::vector<std::string> log;
  auto logger = [&](const std::string& l) { log.push_back(l); };
  std::filesystem::path path;
  {
    RecordStore store(dir.path, {}, logger);
    auto game = rated_game("20260101000001");
    Outbox out;
    game->start(T0, out);
    game->on_command(BLACK, parse_client_command("+7776FU"), T0 + std::chrono::seconds(2), out);
    store.progress(*game);
    path = dir.path / record_relative_path(*game);
  }
  // The kill cut a line in half.
  std::ofstream(path, std::ios::app) << "-33";
  // An unrated game left open too, and a finished record that must stay as it is.
  const std::filesystem::path day = path.parent_path();
  std::ofstream(day / "local+x-300-10F+carol+dave+20260101000002.csa")
      << "'CSA record by the shogi-arena CSA server\nV2.2\nN+carol\nN-dave\nP1-KY\n+\n+2726FU\nT3\n";
  const std::string finished = "'CSA record\nV2.2\nN+e\nN-f\n+\n%TORYO\n'summary:toryo:e win:f lose\n";
  std::ofstream(day / "local+x-300-10F+e+f+20260101000003.csa") << finished;

  RecordStore again(dir.path, {}, logger);
  CHECK(again.recover(std::chrono::system_clock::now()) == 2);
  const std::string closed = read(path);
  CHECK(closed.find("+7776FU\nT2\n-33\n'the server stopped during the game; closed when it started again\n"
                    "%CHUDAN\n'summary:abnormal:alice draw:bob draw\n'$END_TIME:") != std::string::npos);
  CHECK(read(day / "local+x-300-10F+carol+dave+20260101000002.csa").find("'summary:chudan:carol none:dave none\n") !=
        std::string::npos);
  CHECK(read(day / "local+x-300-10F+e+f+20260101000003.csa") == finished);
  const std::string list = read(dir.path / "00LIST");
  CHECK(list.find("\tabnormal\tdraw\talice+0123\tbob+4567\tdraw\t" + path.string() + "\t1\n") != std::string::npos);
  CHECK(list.find("\tchudan\tnone\tcarol\tdave\tnone\t") != std::string::npos);
  REQUIRE(log.size() == 2);
  CHECK(log[0].find("had no ending") != std::string::npos);
  // Once closed, never again.
  CHECK(again.recover(std::chrono::system_clock::now()) == 0);
}
