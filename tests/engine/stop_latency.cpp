// Stop latency benchmark: time from the search deadline to the moment `bestmove` has been written, over a few
// hundred searches of varied positions and move times. Prints the median and the worst case.
//   engine-stop-latency [samples=300] [threads=1]
// Searches that end on their own before the deadline (a mate, or an iteration that could not finish in time) say
// nothing about stop latency; the tool runs until it has the requested number of searches stopped by the timer.
#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <string>
#include <vector>

#include "rules/notation.h"
#include "search/engine.h"
#include "usi/bench.h"

using namespace shogi;

int main(int argc, char* argv[]) {
  const int searches = argc > 1 ? std::stoi(argv[1]) : 300;
  const size_t threads = argc > 2 ? size_t(std::stoul(argv[2])) : 1;
  Engine engine;
  engine.set_threads(threads);
  engine.set_hash_size(64);
  engine.options().time.network_delay = 0;
  engine.options().time.network_delay2 = 0;
  engine.ready();

  std::mutex m;
  std::condition_variable cv;
  bool done = false;
  TimePoint written;
  SearchCallbacks cb;
  cb.on_bestmove = [&](Move best, Move ponder) {
    // Write the answer as the protocol loop would, then take the time.
    std::fprintf(stdout, "bestmove %s ponder %s\n", to_usi(best).c_str(), to_usi(ponder).c_str());
    std::fflush(stdout);
    std::lock_guard lock(m);
    written = Clock::now();
    done = true;
    cv.notify_all();
  };
  engine.set_callbacks(cb);

  // The bench positions plus the 593-move position, where a stop must still be quick.
  std::vector<std::string> positions(usi::bench_positions().begin(), usi::bench_positions().end());
  positions.push_back("sfen R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1");

  std::vector<double> latencies;
  int i = 0;
  for (; int(latencies.size()) < searches && i < searches * 10; ++i) {
    (void)engine.set_position(positions[size_t(i) % positions.size()]);
    SearchLimits limits;
    limits.movetime = 10 + (i * 37) % 90;
    limits.start_time = Clock::now();
    const TimePoint deadline = limits.start_time + std::chrono::milliseconds(limits.movetime);
    done = false;
    engine.go(limits);
    std::unique_lock lock(m);
    cv.wait(lock, [&] { return done; });
    if (written >= deadline) latencies.push_back(std::chrono::duration<double, std::milli>(written - deadline).count());
    lock.unlock();
    engine.wait_for_search_finished();
  }
  std::sort(latencies.begin(), latencies.end());
  if (latencies.empty()) {
    std::cerr << "no search ran to its deadline\n";
    return 1;
  }
  std::cerr << "searches " << i << " stopped by the timer " << latencies.size() << " threads " << threads
            << "\nstop latency ms: median " << latencies[latencies.size() / 2] << " p99 "
            << latencies[latencies.size() * 99 / 100] << " worst " << latencies.back() << '\n';
  return 0;
}
