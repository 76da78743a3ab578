#pragma once
// Helpers shared by the game tests: time controls, reaping checks, reading I/O logs, and an independent check that a
// played game's result agrees with its record (replayed through the rules library).

#include <doctest/doctest.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include <unistd.h>

#include "game/game.h"
#include "rules/game_end.h"
#include "rules/notation.h"

namespace game_test {

inline bool pid_gone(pid_t pid) { return ::kill(pid, 0) == -1 && errno == ESRCH; }

// A time control from its text ("10+0.1", "0+1b"); a typo in a test fails it with the parser's message.
inline arena::game::TimeControl tc(std::string_view text) {
  auto r = arena::game::parse_time_control(text);
  REQUIRE_MESSAGE(r.has_value(), (r ? "" : r.error()));
  return *r;
}

// A fresh path for an engine's I/O log, in a per-process directory removed at exit (kept when the environment
// sets SHOGI_ARENA_KEEP_LOGS, for looking at a failure).
inline std::string temp_log(const std::string& tag) {
  struct Dir {
    std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("shogi-arena-game-test-" + std::to_string(::getpid()));
    Dir() { std::filesystem::create_directories(path); }
    ~Dir() {
      std::error_code ignored;
      if (!std::getenv("SHOGI_ARENA_KEEP_LOGS")) std::filesystem::remove_all(path, ignored);
    }
  };
  static Dir dir;
  static int counter = 0;
  auto path = dir.path / (tag + "-" + std::to_string(++counter) + ".log");
  std::filesystem::remove(path);
  return path.string();
}

// Lines of an I/O log ("<seconds> <name> <direction> <text>") in one direction, text only.
inline std::vector<std::string> logged(const std::string& path, char direction) {
  std::vector<std::string> out;
  std::ifstream in(path);
  std::string line;
  const std::string marker = std::string(" ") + direction + " ";
  while (std::getline(in, line)) {
    auto at = line.find(marker);
    if (at != std::string::npos) out.push_back(line.substr(at + marker.size()));
  }
  return out;
}

inline std::vector<std::string> lines_starting(const std::vector<std::string>& lines, const std::string& prefix) {
  std::vector<std::string> out;
  for (const auto& l : lines)
    if (l.rfind(prefix, 0) == 0) out.push_back(l);
  return out;
}

// The number after `key` in a go line, or -1.
inline long long go_value(const std::string& go, const std::string& key) {
  std::string k = " " + key + " ";
  auto at = go.find(k);
  if (at == std::string::npos) return -1;
  return std::stoll(go.substr(at + k.size()));
}

// Replays the record and checks that the termination agrees with the rules and the moves: every move legal,
// the final position's verdict matching the termination, the loser being the side the termination names.
inline void check_consistent(const arena::PlayedGame& game, int max_plies,
                             shogi::EnteringKingRule rule = shogi::EnteringKingRule::Point27) {
  using arena::Outcome;
  using arena::Termination;
  shogi::GameRecord record;
  REQUIRE(record.start("sfen " + game.start_sfen).has_value());
  for (size_t i = 0; i < game.moves.size(); ++i) {
    auto played = record.play_usi(shogi::to_usi(game.moves[i].move));
    REQUIRE_MESSAGE(played.has_value(), "move " << i + 1 << ": " << (played ? "" : played.error()));
    if (i + 1 < game.moves.size()) {
      // No earlier position may already have ended the game (opening moves excepted).
      if (!game.moves[i + 1].opening) CHECK(record.status(max_plies).end == shogi::GameEnd::None);
    }
  }
  shogi::GameStatus st = record.status(max_plies);
  shogi::Color stm = record.position().side_to_move();
  auto win_for = [](shogi::Color c) { return c == shogi::BLACK ? Outcome::BlackWin : Outcome::WhiteWin; };
  switch (game.result.termination) {
    case Termination::Checkmate:
      CHECK(st.end == shogi::GameEnd::NoLegalMoves);
      CHECK(game.result.outcome == win_for(~stm));
      break;
    case Termination::Sennichite:
      CHECK(st.end == shogi::GameEnd::Sennichite);
      CHECK(game.result.outcome == Outcome::Draw);
      break;
    case Termination::PerpetualCheck:
      CHECK(st.end == shogi::GameEnd::PerpetualCheck);
      CHECK(game.result.outcome == win_for(st.winner));
      break;
    case Termination::MaxMoves:
      CHECK(st.end == shogi::GameEnd::MaxMoves);
      CHECK(game.result.outcome == Outcome::Draw);
      break;
    case Termination::Declaration:
      CHECK(shogi::check_declaration(record.position(), rule).valid);
      CHECK(game.result.outcome == win_for(stm));
      break;
    case Termination::Resign:
    case Termination::IllegalDeclaration:
    case Termination::IllegalMove:
    case Termination::TimeForfeit:
    case Termination::Stall:
    case Termination::Disconnect:
      // The side to move is the one that failed.
      CHECK(st.end == shogi::GameEnd::None);
      CHECK(game.result.outcome == win_for(~stm));
      break;
    case Termination::Adjudication:
      CHECK(st.end == shogi::GameEnd::None);
      break;
    case Termination::Interrupted:
      CHECK(game.result.outcome == Outcome::None);
      break;
    case Termination::None:
      FAIL("game without a result");
      break;
  }
}

}  // namespace game_test
