#include "position_counts.h"

namespace shogi {

void PositionCounts::clear() {
  for (Slot& s : slots_) s = Slot{};
  used_ = 0;
}

size_t PositionCounts::find(Key key) const {
  const size_t mask = slots_.size() - 1;
  // Zobrist keys are uniform: their low bits are a good hash. Linear probing; the table is at most half full.
  for (size_t i = size_t(key) & mask;; i = (i + 1) & mask)
    if (slots_[i].count == 0 || slots_[i].key == key) return i;
}

void PositionCounts::grow() {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(old.empty() ? 256 : old.size() * 2, Slot{});
  for (const Slot& s : old)
    if (s.count) slots_[find(s.key)] = s;
}

int PositionCounts::add(Key key) {
  if (2 * (used_ + 1) > slots_.size()) grow();
  Slot& s = slots_[find(key)];
  if (s.count == 0) {
    s.key = key;
    ++used_;
  }
  return ++s.count;
}

int PositionCounts::count(Key key) const {
  if (slots_.empty()) return 0;
  const Slot& s = slots_[find(key)];
  return s.count;
}

}  // namespace shogi
