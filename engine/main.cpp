// shogi-arena-engine: a USI engine.
//   shogi-arena-engine                       the USI protocol on standard input/output
//   shogi-arena-engine --version             the version and the commit it was built from
//   shogi-arena-engine bench [depth] [threads] [hash_mb]
//                                            fixed-depth search of fixed positions with the built-in weights;
//                                            prints the node signature (one thread) or the time to depth
//   shogi-arena-engine perft <depth> [sfen]  move-generation node counts, divided by root move
//   shogi-arena-engine gensfen|rescore|shuffle|records ...   training data for the learned evaluation (learn/commands.h)
//   shogi-arena-engine-tune tune-params      the tunable search constants in fishtest's params format (a tune
//                                            build only: search/tune.h)
//   shogi-arena-engine <usi command ...>     runs one command, waits for its search, then exits

#include <exception>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "build_info.h"
#include "eval/builtin_weights.h"
#include "learn/commands.h"
#include "search/tune.h"
#include "usi/bench.h"
#include "usi/usi.h"

int main(int argc, char* argv[]) {
  try {
    std::ios::sync_with_stdio(false);
    if (argc == 1) {
      shogi::usi::UsiLoop loop(std::cin, std::cout);
      loop.run();
      return 0;
    }
    const std::string cmd = argv[1];
    if (cmd == "--version") {
      std::cout << "shogi-arena-engine" << (shogi::tune::TUNE_BUILD ? "-tune " : " ") << SHOGI_ARENA_VERSION
                << " (commit " << SHOGI_ARENA_COMMIT << ")\n";
      return 0;
    }
    if (cmd == "bench") {
      const int depth = argc > 2 ? std::stoi(argv[2]) : shogi::usi::BENCH_DEPTH;
      const size_t threads = argc > 3 ? size_t(std::stoul(argv[3])) : 1;
      const size_t hash_mb = argc > 4 ? size_t(std::stoul(argv[4])) : 16;
      shogi::usi::run_bench(std::cout, shogi::kp::builtin_weights(), depth, threads, hash_mb);
      return 0;
    }
    if (cmd == "tune-params" && !shogi::tune::TUNE_BUILD) {
      std::cerr << "shogi-arena-engine: tune-params: this build has no tunable options; use shogi-arena-engine-tune "
                   "(CMake option SHOGI_ARENA_ENGINE_TUNE)\n";
      return 2;
    }
    if (shogi::learn::is_learn_command(cmd))
      return shogi::learn::run_learn_command(cmd, std::vector<std::string>(argv + 2, argv + argc), std::cout,
                                             std::cerr);
    std::istringstream no_input;
    shogi::usi::UsiLoop loop(no_input, std::cout);
    if (cmd == "perft") {
      if (argc < 3) {
        std::cerr << "usage: shogi-arena-engine perft <depth> [sfen ...]\n";
        return 2;
      }
      std::string sfen;
      for (int i = 3; i < argc; ++i) sfen += std::string(i > 3 ? " " : "") + argv[i];
      if (!sfen.empty()) {
        const std::string position =
            sfen.rfind("sfen", 0) == 0 || sfen.rfind("startpos", 0) == 0 ? sfen : "sfen " + sfen;
        if (auto r = loop.engine().set_position(position); !r) {
          std::cerr << "bad position: " << r.error() << '\n';
          return 2;
        }
      }
      loop.execute(std::string("go perft ") + argv[2]);
      return 0;
    }
    std::string line;
    for (int i = 1; i < argc; ++i) line += std::string(i > 1 ? " " : "") + argv[i];
    loop.execute(line);
    loop.engine().wait_for_search_finished();
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "shogi-arena-engine: " << e.what() << '\n';
    return 1;
  }
}
