#include "search/tt.h"

#include <cstdlib>
#include <cstring>
#include <sstream>

namespace shogi {

void TTEntry::save(uint16_t key16, Value v, bool pv, Bound b, Depth d, Move16 m, Value ev, uint8_t generation8) {
  // Keep the old move when the new result has none for the same position.
  if (m || key16 != key16_) move16_ = m;
  // Overwrite less valuable entries; an exact bound or a different position always wins.
  if (b == BOUND_EXACT || key16 != key16_ || d - DEPTH_OFFSET + 2 * pv > depth8_ - 4 ||
      relative_age(generation8)) {
    key16_ = key16;
    depth8_ = uint8_t(d - DEPTH_OFFSET);
    genbound8_ = uint8_t(generation8 | uint8_t(pv) << 2 | b);
    value16_ = int16_t(v);
    eval16_ = int16_t(ev);
  }
}

uint8_t TTEntry::relative_age(uint8_t generation8) const {
  // 0x100 keeps the difference positive across the wrap-around of the 8-bit generation; the extra 7 cancels the
  // pv and bound bits below the generation so that they never borrow from it.
  return uint8_t((0x107 + generation8 - genbound8_) & 0xF8);
}

TranspositionTable::~TranspositionTable() { std::free(table_); }

void TranspositionTable::resize(size_t mb, bool with_stats) {
  std::free(table_);
  table_ = nullptr;
  size_mb_ = mb;
  cluster_count_ = mb * 1024 * 1024 / sizeof(Cluster);
  table_ = static_cast<Cluster*>(std::aligned_alloc(64, cluster_count_ * sizeof(Cluster)));
  if (!table_) throw std::bad_alloc();
  check_.reset(with_stats ? new uint32_t[entry_count()] : nullptr);
  clear();
}

void TranspositionTable::clear() {
  // Also called before the first resize (a setoption that clears the table comes before isready).
  if (table_) std::memset(static_cast<void*>(table_), 0, cluster_count_ * sizeof(Cluster));
  if (check_) std::memset(check_.get(), 0, entry_count() * sizeof(uint32_t));
  generation8_ = 0;
  reset_stats();
}

size_t TranspositionTable::entry_index(const TTEntry* e) const {
  auto c = reinterpret_cast<const Cluster*>(reinterpret_cast<uintptr_t>(e) & ~uintptr_t(sizeof(Cluster) - 1));
  return size_t(c - table_) * CLUSTER_SIZE + size_t(e - c->entry);
}

TTEntry* TranspositionTable::probe(Key key, bool& found) const {
  TTEntry* const tte = first_entry(key);
  const uint16_t k16 = key16(key);

  for (int i = 0; i < CLUSTER_SIZE; ++i)
    if (tte[i].key16_ == k16 || tte[i].empty()) {
      // Refresh the generation so that a reused entry is not taken for an old one.
      tte[i].genbound8_ = uint8_t(generation8_ | (tte[i].genbound8_ & 0x7));
      found = !tte[i].empty();
      if (check_) {
        counters_.probes.fetch_add(1, std::memory_order_relaxed);
        int others = 0;
        for (int j = 0; j < CLUSTER_SIZE; ++j) others += j != i && !tte[j].empty();
        if (!found) {
          counters_.misses.fetch_add(1, std::memory_order_relaxed);
          counters_.occupied_at_miss.fetch_add(others, std::memory_order_relaxed);
        } else if (check_[entry_index(&tte[i])] == check_code(key)) {
          counters_.hits.fetch_add(1, std::memory_order_relaxed);
        } else {
          counters_.fragment_collisions.fetch_add(1, std::memory_order_relaxed);
          counters_.occupied_at_miss.fetch_add(others + 1, std::memory_order_relaxed);
        }
      }
      return &tte[i];
    }

  // Replace the entry with the lowest depth minus eight times its age.
  TTEntry* replace = tte;
  for (int i = 1; i < CLUSTER_SIZE; ++i)
    if (replace->depth8_ - replace->relative_age(generation8_) >
        tte[i].depth8_ - tte[i].relative_age(generation8_))
      replace = &tte[i];
  found = false;
  if (check_) {
    counters_.probes.fetch_add(1, std::memory_order_relaxed);
    counters_.misses.fetch_add(1, std::memory_order_relaxed);
    counters_.occupied_at_miss.fetch_add(CLUSTER_SIZE, std::memory_order_relaxed);
  }
  return replace;
}

void TranspositionTable::save(TTEntry* e, Key key, Value v, bool pv, Bound b, Depth d, Move16 m, Value ev) {
  if (check_) {
    uint32_t& code = check_[entry_index(e)];
    const uint32_t mine = check_code(key);
    if (e->empty())
      counters_.stores_new.fetch_add(1, std::memory_order_relaxed);
    else if (code == mine && e->key16_ == key16(key))
      counters_.stores_same.fetch_add(1, std::memory_order_relaxed);
    else
      counters_.stores_index_collision.fetch_add(1, std::memory_order_relaxed);
    code = mine;
  }
  e->save(key16(key), v, pv, b, d, m, ev, generation8_);
}

int TranspositionTable::hashfull() const {
  int count = 0;
  const size_t clusters = std::min<size_t>(1000, cluster_count_);
  for (size_t i = 0; i < clusters; ++i)
    for (const TTEntry& e : table_[i].entry) count += !e.empty() && (e.genbound8_ & 0xF8) == generation8_;
  return clusters ? int(count * 1000 / (clusters * CLUSTER_SIZE)) : 0;
}

TTStats TranspositionTable::stats() const {
  TTStats s;
  s.probes = counters_.probes.load();
  s.hits = counters_.hits.load();
  s.fragment_collisions = counters_.fragment_collisions.load();
  s.misses = counters_.misses.load();
  s.occupied_at_miss = counters_.occupied_at_miss.load();
  s.stores_new = counters_.stores_new.load();
  s.stores_same = counters_.stores_same.load();
  s.stores_index_collision = counters_.stores_index_collision.load();
  s.entries = entry_count();
  return s;
}

void TranspositionTable::reset_stats() {
  for (auto* c : {&counters_.probes, &counters_.hits, &counters_.fragment_collisions, &counters_.misses,
                  &counters_.occupied_at_miss, &counters_.stores_new, &counters_.stores_same,
                  &counters_.stores_index_collision})
    c->store(0);
}

std::string TTStats::to_string() const {
  std::ostringstream os;
  auto pct = [](uint64_t a, uint64_t b) { return b ? 100.0 * double(a) / double(b) : 0.0; };
  const uint64_t stores = stores_new + stores_same + stores_index_collision;
  os.setf(std::ios::fixed);
  os.precision(3);
  os << "entries " << entries << " probes " << probes << " hits " << hits << " (" << pct(hits, probes) << "%)"
     << " misses " << misses << " fragment_collisions " << fragment_collisions << " expected "
     << expected_fragment_collisions() << " stores " << stores << " new " << stores_new << " same " << stores_same
     << " index_collisions " << stores_index_collision << " (" << pct(stores_index_collision, stores) << "%)";
  return os.str();
}

}  // namespace shogi
