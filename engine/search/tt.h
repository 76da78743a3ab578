#pragma once
// The transposition table: clusters of three 10-byte entries in 32 bytes, so a probe touches one cache line.
// Entries keep 16 bits of the key; replacement prefers shallow and old entries (depth minus eight times age).
//
// Optional hash-quality statistics keep, beside each entry, a check code computed from the full key, which tells
// a true hit from a key-fragment collision. The newness of an entry is judged when the node stores its result,
// not when it probes: the node's children may have taken the same slot in between.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "rules/types.h"
#include "search/value.h"

namespace shogi {

class TranspositionTable;

struct TTEntry {
  Move16 move() const { return Move16(move16_); }
  Value value() const { return value16_; }
  Value eval() const { return eval16_; }
  Depth depth() const { return Depth(depth8_) + DEPTH_OFFSET; }
  bool is_pv() const { return genbound8_ & 0x4; }
  Bound bound() const { return Bound(genbound8_ & 0x3); }
  bool empty() const { return depth8_ == 0; }

 private:
  friend class TranspositionTable;
  void save(uint16_t key16, Value v, bool pv, Bound b, Depth d, Move16 m, Value ev, uint8_t generation8);
  uint8_t relative_age(uint8_t generation8) const;

  uint16_t key16_;
  uint8_t depth8_;
  uint8_t genbound8_;
  uint16_t move16_;
  int16_t value16_;
  int16_t eval16_;
};

struct TTStats {
  uint64_t probes = 0;            // probes made at nodes reached by a move
  uint64_t hits = 0;              // key fragment and check code both match
  uint64_t fragment_collisions = 0;  // key fragment matches, check code does not: a false hit
  uint64_t misses = 0;
  uint64_t occupied_at_miss = 0;  // other-key entries in the cluster summed over misses and false hits
  uint64_t stores_new = 0;        // result stored into an empty slot
  uint64_t stores_same = 0;       // result stored over the same position
  uint64_t stores_index_collision = 0;  // result stored over another position that shares the cluster
  size_t entries = 0;

  // A probe that is not a true hit meets each other occupied entry's random 16-bit fragment with chance 1/65536.
  double expected_fragment_collisions() const { return double(occupied_at_miss) / 65536.0; }
  std::string to_string() const;
};

class TranspositionTable {
 public:
  static constexpr int CLUSTER_SIZE = 3;

  TranspositionTable() = default;
  ~TranspositionTable();
  TranspositionTable(const TranspositionTable&) = delete;
  TranspositionTable& operator=(const TranspositionTable&) = delete;

  // Reallocates and clears; statistics need a parallel array of check codes, allocated only when enabled.
  void resize(size_t mb, bool with_stats = false);
  void clear();
  void new_search() { generation8_ += GENERATION_DELTA; }

  // Returns the entry for the key, or the one to replace; `found` tells which.
  TTEntry* probe(Key key, bool& found) const;
  // Stores through the table (not the entry) so the statistics can judge the slot when the node finishes.
  void save(TTEntry* e, Key key, Value v, bool pv, Bound b, Depth d, Move16 m, Value ev);
  // Per mille of entries written in the current search, sampled from the first 1,000 clusters.
  int hashfull() const;
  void prefetch(Key key) const { __builtin_prefetch(first_entry(key)); }

  size_t size_mb() const { return size_mb_; }
  size_t entry_count() const { return cluster_count_ * CLUSTER_SIZE; }
  bool stats_enabled() const { return check_ != nullptr; }
  TTStats stats() const;
  void reset_stats();

  static uint16_t key16(Key key) { return uint16_t(key); }
  // Independent of the index and the fragment, so equal codes with different full keys are very unlikely.
  static uint32_t check_code(Key key) { return uint32_t((key * 0x9E3779B97F4A7C15ULL) >> 32) | 1; }

 private:
  static constexpr uint8_t GENERATION_DELTA = 8;  // the low 3 bits of genbound8 hold pv and bound

  struct alignas(32) Cluster {
    TTEntry entry[CLUSTER_SIZE];
    char padding[2];
  };
  static_assert(sizeof(Cluster) == 32);

  TTEntry* first_entry(Key key) const {
    // The high half of the 128-bit product maps the key uniformly onto the clusters without a modulo.
    __extension__ using u128 = unsigned __int128;
    return &table_[size_t(u128(key) * u128(cluster_count_) >> 64)].entry[0];
  }
  size_t entry_index(const TTEntry* e) const;

  Cluster* table_ = nullptr;
  size_t cluster_count_ = 0;
  size_t size_mb_ = 0;
  uint8_t generation8_ = 0;

  // Statistics (mutable: probing is logically const). Relaxed atomics: threads share them, order is irrelevant.
  std::unique_ptr<uint32_t[]> check_;
  struct Counters {
    std::atomic<uint64_t> probes{0}, hits{0}, fragment_collisions{0}, misses{0}, occupied_at_miss{0};
    std::atomic<uint64_t> stores_new{0}, stores_same{0}, stores_index_collision{0};
  };
  mutable Counters counters_;
};

}  // namespace shogi
