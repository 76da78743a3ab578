// runner_overhead: the runner's own time per move, from reading one engine's bestmove to writing the other
// engine's go (judging the move, the end-of-game checks and the position line included), over games between
// two instant-move mock engines.
//
//   runner_overhead [moves=10000] [mock_usi_engine path]
//
// Per move k > 1 of a game: moves[k].started (the go written) - moves[k-1].answered (the bestmove read).
// Prints median, p90, p99, max and mean in microseconds.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "game/game.h"
#include "process/engine_process.h"
#include "rules/position.h"

using namespace arena;
using namespace arena::game;

int main(int argc, char** argv) {
  long target = argc > 1 ? std::atol(argv[1]) : 10000;
  std::string mock = argc > 2 ? argv[2] : MOCK_USI_ENGINE;
  if (target <= 0) {
    std::fprintf(stderr, "usage: runner_overhead [moves] [mock_usi_engine]\n");
    return 2;
  }
  shogi::Position::init();

  auto loop = std::make_shared<process::EventLoop>();
  auto config = [&](const char* name, const char* seed) {
    EngineConfig c;
    c.name = name;
    c.command = mock;
    c.args = {"--random", "--seed", seed};
    c.time_control = *parse_time_control("60+1");
    return c;
  };
  Player black(config("black", "1"), loop), white(config("white", "2"), loop);
  for (Player* p : {&black, &white}) {
    if (auto r = p->start(); !r) {
      std::fprintf(stderr, "runner_overhead: %s\n", r.error().c_str());
      return 1;
    }
  }

  GameOptions options;
  options.max_plies = 200;
  std::vector<double> micros;
  micros.reserve(size_t(target));
  int games = 0;
  auto t0 = std::chrono::steady_clock::now();
  while (long(micros.size()) < target) {
    PlayedGame g = play_game(games % 2 ? white : black, games % 2 ? black : white, "startpos", options);
    ++games;
    if (g.result.termination == Termination::Disconnect || g.result.termination == Termination::Stall ||
        g.result.termination == Termination::TimeForfeit || g.result.termination == Termination::IllegalMove) {
      std::fprintf(stderr, "runner_overhead: unexpected end of game %d: %s\n", games, g.result.detail.c_str());
      return 1;
    }
    for (size_t k = 1; k < g.moves.size() && long(micros.size()) < target; ++k)
      micros.push_back(std::chrono::duration<double, std::micro>(g.moves[k].started - g.moves[k - 1].answered).count());
  }
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  std::vector<double> sorted = micros;
  std::sort(sorted.begin(), sorted.end());
  auto at = [&](double q) { return sorted[std::min(sorted.size() - 1, size_t(q * double(sorted.size())))]; };
  double sum = 0;
  for (double v : sorted) sum += v;
  std::printf("runner overhead per move (bestmove read -> opponent's go written), %zu moves in %d games, %.1f s\n",
              sorted.size(), games, wall);
  std::printf("  median %.1f us   p90 %.1f us   p99 %.1f us   max %.1f us   mean %.1f us\n", at(0.5), at(0.9), at(0.99),
              sorted.back(), sum / double(sorted.size()));
  return 0;
}
