// End-to-end: the CSA and KIF records the runner writes load in the two viewer libraries of tests/kifu
// (tsshogi, json-kifu-format), which must give back the same USI moves, the same whole-second times and an ending
// that names the same result. Exit 77 (skipped) when node or tests/kifu/node_modules is missing:
// `npm ci --prefix tests/kifu` installs the modules.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "output/csa_record.h"
#include "output/json.h"
#include "output/kif_record.h"
#include "output/record_common.h"
#include "rules/notation.h"
#include "sample_games.h"

namespace fs = std::filesystem;
using namespace arena;
namespace bj = boost::json;

namespace {

constexpr int SKIP = 77;
int failures = 0;

void fail(const std::string& what) {
  std::cout << "FAIL " << what << '\n';
  ++failures;
}

std::optional<std::string> run(const std::string& command, int& status) {
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return std::nullopt;
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
  int raw = pclose(pipe);
  status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return out;
}

// Who won according to a library's name for the ending. tsshogi names endings relative to the side to move
// (foulWin: the side to move wins); JKF uses the CSA names. Empty optional: no result (interrupted).
enum class Winner { Black, White, Draw, None, Unknown };
Winner winner_from(const std::string& name, shogi::Color stm) {
  Winner to_move = stm == shogi::BLACK ? Winner::Black : Winner::White;
  Winner other = stm == shogi::BLACK ? Winner::White : Winner::Black;
  for (const char* n : {"resign", "timeout", "foulLose", "mate", "TORYO", "TIME_UP", "ILLEGAL_MOVE", "TSUMI"})
    if (name == n) return other;
  for (const char* n : {"foulWin", "enteringOfKing", "KACHI", "ILLEGAL_ACTION"})
    if (name == n) return to_move;
  if (name == "+ILLEGAL_ACTION") return Winner::White;  // the CSA standard: black's foul
  if (name == "-ILLEGAL_ACTION") return Winner::Black;
  for (const char* n : {"repetitionDraw", "SENNICHITE", "maxMoves", "MAX_MOVES", "draw", "HIKIWAKE", "impass",
                        "JISHOGI"})
    if (name == n) return Winner::Draw;
  if (name == "interrupt" || name == "CHUDAN") return Winner::None;
  return Winner::Unknown;
}

Winner winner_of(Outcome o) {
  switch (o) {
    case Outcome::BlackWin: return Winner::Black;
    case Outcome::WhiteWin: return Winner::White;
    case Outcome::Draw: return Winner::Draw;
    case Outcome::None: return Winner::None;
  }
  return Winner::Unknown;
}

struct Expect {
  std::string tsshogi;
  std::string jkf;  // empty: JKF is known to reject the file (入玉勝ち in KIF)
};

// `lib` is the part of check_kifu's output for one library, or null.
void check_library(const std::string& label, const bj::value* lib, const PlayedGame& game,
                   const std::string& expected_result, shogi::Color stm, bool winner_known_wrong) {
  if (!lib || !lib->is_object()) return fail(label + ": no output");
  const bj::object& out = lib->get_object();
  auto text = [](const bj::value* v, std::string_view otherwise) {
    return std::string(v && v->is_string() ? std::string_view(v->get_string()) : otherwise);
  };
  if (expected_result.empty()) {
    const bj::value* err = out.if_contains("error");
    if (!err || err->is_null()) fail(label + ": expected the known parse error, got none");
    return;
  }
  if (const bj::value* err = out.if_contains("error"); err && !err->is_null())
    return fail(label + ": error " + text(err, "?"));
  std::vector<std::string> moves, want_moves;
  std::vector<int64_t> times, want_times;
  if (const bj::value* m = out.if_contains("moves"); m && m->is_array())
    for (const bj::value& v : m->get_array()) moves.push_back(text(&v, "?"));
  if (const bj::value* t = out.if_contains("times"); t && t->is_array())
    for (const bj::value& v : t->get_array()) times.push_back(v.is_int64() ? v.get_int64() : -1);
  for (const MoveRecord& mr : game.moves) {
    want_moves.push_back(shogi::to_usi(mr.move));
    want_times.push_back(record::whole_seconds(mr.time_ms));
  }
  if (moves != want_moves) fail(label + ": moves differ");
  if (times != want_times) fail(label + ": times differ");
  std::string result = text(out.if_contains("result"), "(none)");
  if (result != expected_result) fail(label + ": result " + result + ", expected " + expected_result);
  if (!winner_known_wrong && winner_from(result, stm) != winner_of(game.result.outcome))
    fail(label + ": the ending " + result + " names a different winner than the game's");
}

void check(const fs::path& dir, const std::string& script, const std::string& name, const PlayedGame& game,
           const Expect& csa, const Expect& kif) {
  record::GameWalk walk;
  (void)walk.start(game);
  while (!walk.done())
    if (!walk.next()) break;
  shogi::Color stm = walk.position().side_to_move();
  for (const char* ext : {"csa", "kif"}) {
    bool is_csa = std::string(ext) == "csa";
    auto text = is_csa ? to_csa_record(game) : to_kif_record(game);
    std::string label = name + "." + ext;
    if (!text) {
      fail(label + ": " + text.error());
      continue;
    }
    fs::path file = dir / label;
    std::ofstream(file) << *text;
    int status = 0;
    auto out = run("node '" + script + "' '" + file.string() + "'", status);
    if (!out) {
      fail(label + ": could not run node");
      continue;
    }
    auto doc = json::parse(*out);
    if (!doc || !doc->is_object()) {
      fail(label + ": check_kifu output is not a JSON object" + (doc ? "" : ": " + doc.error()));
      continue;
    }
    const Expect& e = is_csa ? csa : kif;
    // tsshogi reads %+ILLEGAL_ACTION / %-ILLEGAL_ACTION relative to the side to move, inverting the CSA standard's
    // meaning (README of tests/kifu); the name is still checked exactly.
    bool ts_inverted = is_csa && (e.tsshogi == "foulLose" || e.tsshogi == "foulWin") && e.jkf.find("ILLEGAL_ACTION") != std::string::npos;
    check_library(label + " tsshogi", doc->get_object().if_contains("tsshogi"), game, e.tsshogi, stm, ts_inverted);
    check_library(label + " jkf", doc->get_object().if_contains("jkf"), game, e.jkf, stm, false);
    bool expect_ok = !e.jkf.empty();
    if ((status == 0) != expect_ok) fail(label + ": check_kifu exit status " + std::to_string(status));
    std::cout << (failures ? "" : "") << "checked " << label << '\n';
  }
}

}  // namespace

int main() {
  fs::path source = SHOGI_ARENA_SOURCE_DIR;
  fs::path kifu = source / "tests" / "kifu";
  std::string script = (kifu / "check_kifu.mjs").string();
  if (!fs::exists(kifu / "node_modules" / "tsshogi") || !fs::exists(kifu / "node_modules" / "json-kifu-format")) {
    std::cout << "SKIP: tests/kifu/node_modules missing (npm ci --prefix tests/kifu)\n";
    return SKIP;
  }
  if (std::system("node --version > /dev/null 2>&1") != 0) {
    std::cout << "SKIP: node not found\n";
    return SKIP;
  }
  setenv("TZ", "UTC", 1);
  tzset();
  std::string tmpl = (fs::temp_directory_path() / "shogi-arena-kifu-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) {
    std::cout << "FAIL: cannot create a temporary directory\n";
    return 1;
  }
  fs::path dir = tmpl;

  check(dir, script, "resign_game", testing::resign_game(), {"resign", "TORYO"}, {"resign", "TORYO"});
  check(dir, script, "mate_from_sfen", testing::mate_from_sfen_game(), {"mate", "TSUMI"}, {"mate", "TSUMI"});
  check(dir, script, "promoted_pieces", testing::promoted_pieces_game(), {"resign", "TORYO"}, {"resign", "TORYO"});

  // name -> {CSA: tsshogi, JKF}, {KIF: tsshogi, JKF}
  const std::map<std::string, std::pair<Expect, Expect>> endings = {
      {"resign", {{"resign", "TORYO"}, {"resign", "TORYO"}}},
      {"sennichite", {{"repetitionDraw", "SENNICHITE"}, {"repetitionDraw", "SENNICHITE"}}},
      {"perpetual_check", {{"foulLose", "-ILLEGAL_ACTION"}, {"foulWin", "-ILLEGAL_ACTION"}}},
      {"declaration", {{"enteringOfKing", "KACHI"}, {"enteringOfKing", ""}}},
      {"illegal_declaration", {{"foulLose", "ILLEGAL_MOVE"}, {"foulLose", "ILLEGAL_MOVE"}}},
      {"illegal_move", {{"foulLose", "ILLEGAL_MOVE"}, {"foulLose", "ILLEGAL_MOVE"}}},
      {"time_forfeit", {{"timeout", "TIME_UP"}, {"timeout", "TIME_UP"}}},
      {"stall", {{"timeout", "TIME_UP"}, {"timeout", "TIME_UP"}}},
      {"disconnect", {{"resign", "TORYO"}, {"resign", "TORYO"}}},
      {"disconnect_not_to_move", {{"foulLose", "-ILLEGAL_ACTION"}, {"foulWin", "-ILLEGAL_ACTION"}}},
      {"max_moves", {{"maxMoves", "MAX_MOVES"}, {"impass", "JISHOGI"}}},
      {"adjudication_win", {{"resign", "TORYO"}, {"resign", "TORYO"}}},
      {"adjudication_draw", {{"draw", "HIKIWAKE"}, {"impass", "JISHOGI"}}},
      {"interrupted", {{"interrupt", "CHUDAN"}, {"interrupt", "CHUDAN"}}},
  };
  for (const testing::NamedGame& g : testing::ending_games()) {
    auto it = endings.find(g.name);
    if (it == endings.end()) {
      fail(g.name + ": no expectation");
      continue;
    }
    check(dir, script, "ending_" + g.name, g.game, it->second.first, it->second.second);
  }

  if (failures == 0) fs::remove_all(dir);
  else std::cout << "records kept in " << dir << '\n';
  std::cout << (failures ? "FAILED: " + std::to_string(failures) + " check(s)\n" : "all records load in both libraries\n");
  return failures ? 1 : 0;
}
