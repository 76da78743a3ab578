#pragma once
// Raw match counts that every statistic is computed from: per-game W/L/D and per-pair pentanomial buckets.
// Always from the point of view of one engine (the "first" engine of a pairing).

#include <cstdint>

namespace arena::stats {

enum class Outcome { Loss, Draw, Win };

struct WdlCounts {
  int64_t wins = 0;
  int64_t losses = 0;
  int64_t draws = 0;

  int64_t games() const { return wins + losses + draws; }
  void add(Outcome o) {
    if (o == Outcome::Win) ++wins;
    else if (o == Outcome::Loss) ++losses;
    else ++draws;
  }
  // The same counts from the opponent's side.
  WdlCounts flipped() const { return {losses, wins, draws}; }
  WdlCounts& operator+=(const WdlCounts& o) {
    wins += o.wins, losses += o.losses, draws += o.draws;
    return *this;
  }
  bool operator==(const WdlCounts&) const = default;
};

// A pair is two games from the same opening with colours swapped; its score is 0, 1/2, 1, 3/2 or 2 points.
// A win+loss pair and a draw+draw pair both score one point and share a bucket, as in fishtest and fastchess:
// the pentanomial model only sees the pair's total.
struct PentaCounts {
  int64_t ll = 0;     // 0 points
  int64_t ld = 0;     // 1/2
  int64_t dd_wl = 0;  // 1 (DD or WL)
  int64_t wd = 0;     // 3/2
  int64_t ww = 0;     // 2

  int64_t pairs() const { return ll + ld + dd_wl + wd + ww; }
  void add_pair(Outcome first, Outcome second) {
    switch (points(first) + points(second)) {
      case 0: ++ll; break;
      case 1: ++ld; break;
      case 2: ++dd_wl; break;
      case 3: ++wd; break;
      default: ++ww; break;
    }
  }
  PentaCounts flipped() const { return {ww, wd, dd_wl, ld, ll}; }
  PentaCounts& operator+=(const PentaCounts& o) {
    ll += o.ll, ld += o.ld, dd_wl += o.dd_wl, wd += o.wd, ww += o.ww;
    return *this;
  }
  bool operator==(const PentaCounts&) const = default;

 private:
  // Half-points, so the bucket index is an integer.
  static int points(Outcome o) { return o == Outcome::Win ? 2 : o == Outcome::Draw ? 1 : 0; }
};

}  // namespace arena::stats
