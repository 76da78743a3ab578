// Perft speed: leaves per second with bulk counting at the last ply, one thread.
//   perft_bench                      the two reference runs (start position depth 6, matsuri depth 4)
//   perft_bench <depth> <sfen...>    one position
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "rules/perft.h"
#include "rules/position.h"

namespace {

int run(const std::string& name, const std::string& sfen, int depth) {
  shogi::Position pos;
  shogi::StateInfo si;
  if (auto r = pos.set(sfen, &si, shogi::PieceLimits::Relaxed); !r) {
    std::fprintf(stderr, "perft_bench: %s\n", r.error().c_str());
    return 1;
  }
  auto start = std::chrono::steady_clock::now();
  uint64_t nodes = shogi::perft(pos, depth);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%-10s depth %d  leaves %llu  time %.3f s  %.1f M leaves/s\n", name.c_str(), depth,
              static_cast<unsigned long long>(nodes), seconds, nodes / seconds / 1e6);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  shogi::Position::init();
  if (argc >= 3) {
    std::string sfen;
    for (int i = 2; i < argc; ++i) sfen += std::string(i > 2 ? " " : "") + argv[i];
    return run("position", sfen, std::atoi(argv[1]));
  }
  int status = run("startpos", std::string(shogi::START_SFEN), 6);
  status |= run("matsuri", "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1", 4);
  return status;
}
