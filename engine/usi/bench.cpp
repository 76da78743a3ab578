#include "usi/bench.h"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <ostream>
#include <string>

#include "rules/notation.h"
#include "search/engine.h"

namespace shogi::usi {

const std::vector<std::string_view>& bench_positions() {
  static const std::vector<std::string_view> positions = {
      "startpos",
      // Openings from the project's suite (GPSShogi self-play, 24 plies).
      "startpos moves 7g7f 5c5d 7i6h 3c3d 6g6f 8b3b 6h6g 3a4b 2h6h 5a6b 5i4h 3d3e 3i3h 4b5c 4h3i 6b7b 3i2h 7b8b "
      "9g9f 9a9b 6i5h 8b9a 4g4f 7a8b",
      "startpos moves 3g3f 4a3b 3i4h 8c8d 7g7f 3c3d 6g6f 8d8e 8h7g 7a6b 4h3g 6c6d 2h6h 6b6c 7i7h 5a4a 6f6e 6d6e "
      "6h6e P*6d 6e6h 2b7g+ 7h7g 3a4b",
      "startpos moves 2g2f 4a3b 7g7f 8c8d 6i7h 3c3d 2f2e 2b8h+ 7i8h 3a2b 3i3h 2b3c 8h7g 7a6b 5i6h 6c6d 3h2g 6b6c "
      "2g2f 1c1d 3g3f 6a5b 6h7i 3c4d",
      // Middle games and endgames with pieces in hand.
      "sfen l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
      "sfen l7l/3s5/prnp2kp1/2p1Gppnp/1P7/PnPP1P3/3BP2PP/1S1G5/LN1K1G1+rL b SBG3ps 91",
      "sfen l6nl/3+R1pk2/3p3gp/p1p3p2/1p1nsN3/2P3P1P/PP1P1S3/1SG2GK2/LN6L b BGPrbs4p 1",
      "sfen 4kp+R2/1+B4n2/4p1Sp1/2pps1l1g/1p3PR2/2P6/1GNPP+pN2/3S5/1+lBKG4 b GNL4Psl3p 105",
  };
  return positions;
}

BenchResult run_bench(std::ostream& out, std::shared_ptr<const kp::Weights> weights, int depth, size_t threads,
                      size_t hash_mb) {
  Engine engine;
  engine.set_eval_weights(std::move(weights));
  engine.set_threads(std::max<size_t>(1, threads));
  engine.set_hash_size(std::max<size_t>(1, hash_mb));
  std::mutex m;
  std::condition_variable cv;
  bool done = false;
  SearchCallbacks cb;
  cb.on_bestmove = [&](Move, Move) {
    std::lock_guard lock(m);
    done = true;
    cv.notify_all();
  };
  engine.set_callbacks(cb);

  uint64_t total = 0;
  const TimePoint start = Clock::now();
  int index = 0;
  for (std::string_view p : bench_positions()) {
    engine.new_game();
    if (auto r = engine.set_position(p); !r) {
      out << "bench position " << index << " rejected: " << r.error() << '\n';
      continue;
    }
    SearchLimits limits;
    limits.depth = depth;
    done = false;
    const TimePoint position_start = Clock::now();
    engine.go(limits);
    {
      std::unique_lock lock(m);
      cv.wait(lock, [&] { return done; });
    }
    engine.wait_for_search_finished();
    const uint64_t n = engine.nodes_searched();
    total += n;
    out << "position " << ++index << ": " << n << " nodes, " << elapsed_ms(position_start) << " ms\n";
  }
  const Milliseconds ms = std::max<Milliseconds>(1, elapsed_ms(start));
  BenchResult r{total, total * 1000 / uint64_t(ms)};
  out << "\nTotal time (ms) : " << ms << "\nNodes searched: " << r.nodes << "\nNodes/second: " << r.nps << std::endl;
  return r;
}

}  // namespace shogi::usi
