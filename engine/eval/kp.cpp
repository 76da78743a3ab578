#include "eval/kp.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cstring>
#include <fstream>
#include <sstream>

namespace shogi::kp {

static_assert(std::endian::native == std::endian::little, "the weights file is read and written as it is in memory");

namespace {

constexpr int HAND_OFFSET[HAND_TYPE_END] = {0, 0, 18, 22, 26, 30, 32, 34};
static_assert(HAND_OFFSET[GOLD] + HAND_SLOTS[GOLD] == HAND_SLOTS_TOTAL);

constexpr char MAGIC[8] = {'S', 'A', 'K', 'P', 'E', 'V', '1', '\n'};
constexpr char MAGIC_PAIRS[8] = {'S', 'A', 'K', 'P', 'E', 'V', '2', '\n'};
constexpr char MAGIC_NET[8] = {'S', 'A', 'K', 'P', 'E', 'V', '3', '\n'};
constexpr uint32_t FLAG_PAIRS = 1, FLAG_NET = 2;
constexpr size_t NET_ROWS = size_t(NET_KINGS) * FEATURES * NET_WIDTH;
// A network's bytes in a format 3 file: width, rows, bias, output weights, output bias.
constexpr size_t NET_SIZE = 4 + 2 * NET_ROWS + 4 * size_t(NET_WIDTH) + 2 * 2 * size_t(NET_WIDTH) + 4;
constexpr size_t HEADER_SIZE = 8 + 4 + 4 + 4 + 4;
constexpr size_t PAYLOAD_SIZE = HEADER_SIZE + 2 * size_t(FEATURES) * (1 + SQ_NB);
constexpr size_t PAYLOAD_SIZE_PAIRS = PAYLOAD_SIZE + 2 * size_t(PAIR_FEATURES);
constexpr size_t payload_size(bool pairs) { return pairs ? PAYLOAD_SIZE_PAIRS : PAYLOAD_SIZE; }

// A zone slot's mirror image: the slot whose file offset is the negation.
constexpr std::array<int, ZONE_SLOTS> MIRROR_SLOT = [] {
  std::array<int, ZONE_SLOTS> m{};
  for (int a = 0; a < ZONE_SLOTS; ++a)
    for (int b = 0; b < ZONE_SLOTS; ++b)
      if (ZONE_OFFSETS[b][0] == -ZONE_OFFSETS[a][0] && ZONE_OFFSETS[b][1] == ZONE_OFFSETS[a][1]) m[size_t(a)] = b;
  return m;
}();

constexpr int board_type_index(PieceType pt) { return pt <= GOLD ? pt - 1 : pt - 2; }

uint64_t fnv1a(const char* data, size_t n) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n; ++i) h = (h ^ uint8_t(data[i])) * 0x100000001b3ull;
  return h;
}

}  // namespace

int board_feature(Color side, Piece pc, Square s) {
  const int rel = color_of(pc) == side ? 0 : 1;
  const Square sq = side == BLACK ? s : flip(s);
  return (rel * BOARD_TYPES + board_type_index(type_of(pc))) * SQ_NB + sq;
}

int hand_feature(Color side, Color owner, PieceType pt, int n) {
  const int rel = owner == side ? 0 : 1;
  return BOARD_FEATURES + rel * HAND_SLOTS_TOTAL + HAND_OFFSET[pt] + std::min(n, HAND_SLOTS[pt] - 1);
}

Square turned_king(const Position& pos, Color side) {
  const Square k = pos.king_square(side);
  return k == SQ_NONE ? SQ_NONE : side == BLACK ? k : flip(k);
}

int active_features(const Position& pos, Color side, int* out) {
  int n = 0;
  Bitboard pieces = pos.pieces().andnot(pos.pieces(KING));
  pieces.for_each([&](Square s) { out[n++] = board_feature(side, pos.piece_on(s), s); });
  for (Color owner : {BLACK, WHITE})
    for (int pt = HAND_TYPE_BEGIN; pt < HAND_TYPE_END; ++pt) {
      const int count = std::min(hand_count(pos.hand(owner), PieceType(pt)), HAND_SLOTS[pt]);
      for (int i = 0; i < count; ++i) out[n++] = hand_feature(side, owner, PieceType(pt), i);
    }
  return n;
}

int mirror_feature(int feature) {
  if (feature >= BOARD_FEATURES) return feature;
  const int sq = feature % SQ_NB;
  return feature - sq + mirror(Square(sq));
}

int canonical_feature(int feature) { return std::min(feature, mirror_feature(feature)); }

std::pair<Square, int> canonical_king_feature(Square king, int feature) {
  if (file_of(king) > FILE_5) return {mirror(king), mirror_feature(feature)};
  if (file_of(king) == FILE_5) return {king, canonical_feature(feature)};
  return {king, feature};
}

int zone_pieces(const Position& pos, Color side, int* out) {
  const Square k = turned_king(pos, side);
  if (k == SQ_NONE) return 0;
  return zone_pieces(side, k, [&](Square s) { return pos.piece_on(s); }, out);
}

int mirror_pair(int pair) {
  auto mirror_piece = [](int zp) {
    return MIRROR_SLOT[size_t(zp / ZONE_STATES)] * ZONE_STATES + zp % ZONE_STATES;
  };
  const int a = mirror_piece(pair / ZONE_PIECES), b = mirror_piece(pair % ZONE_PIECES);
  return a < b ? pair_feature(a, b) : pair_feature(b, a);
}

const std::vector<int>& slot_ordered_pairs() {
  static const std::vector<int> pairs = [] {
    std::vector<int> out;
    for (int a = 0; a < ZONE_PIECES; ++a)
      for (int b = (a / ZONE_STATES + 1) * ZONE_STATES; b < ZONE_PIECES; ++b) out.push_back(pair_feature(a, b));
    return out;
  }();
  return pairs;
}

int pairs_of(const int* zone, int n, int* out) {
  int count = 0;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) out[count++] = pair_feature(zone[i], zone[j]);
  return count;
}

int32_t pair_sum(const Weights& w, const Position& pos, Color side) {
  if (!w.has_pairs()) return 0;
  int zone[ZONE_SLOTS];
  const int n = zone_pieces(pos, side, zone);
  int32_t sum = 0;
  for (int i = 0; i < n; ++i) {
    const int16_t* row = &w.pairs[size_t(zone[i]) * ZONE_PIECES];
    for (int j = i + 1; j < n; ++j) sum += row[zone[j]];
  }
  return sum;
}

int32_t side_sum(const Weights& w, const Position& pos, Color side, NetSums* net) {
  int features[MAX_ACTIVE];
  const int n = active_features(pos, side, features);
  const Square k = turned_king(pos, side);
  if (net && w.has_net()) {
    *net = w.net.bias;
    for (int i = 0; i < n; ++i) add_row(*net, w.net.row(k, features[i]));
  }
  int32_t sum = 0;
  if (k == SQ_NONE) {
    for (int i = 0; i < n; ++i) sum += w.p[size_t(features[i])];
  } else {
    const int16_t* row = &w.kp[size_t(k) * FEATURES];
    for (int i = 0; i < n; ++i) sum += w.p[size_t(features[i])] + row[features[i]];
  }
  return sum;
}

void RefreshCache::clear() {
  for (auto& side : entries_)
    for (Entry& e : side) e.valid = false;
}

int32_t RefreshCache::side_sum(const Weights& w, const Position& pos, Color side, NetSums* net) {
  assert(pos.has_king(side));
  const Square k = turned_king(pos, side);
  Entry& e = entries_[side][k];
  const bool with_net = w.has_net();
  if (!e.valid) {
    e.sum = kp::side_sum(w, pos, side, &e.net);
    for (Color c : {BLACK, WHITE}) {
      for (int pt = PAWN; pt <= DRAGON; ++pt)
        if (pt != KING) e.pieces[c][pt] = pos.pieces(c, PieceType(pt));
      e.hand[c] = pos.hand(c);
    }
    e.valid = true;
    if (net && with_net) *net = e.net;
    return e.sum;
  }
  const int16_t* row = &w.kp[size_t(k) * FEATURES];
  int32_t sum = e.sum;
  auto add = [&](int f) {
    sum += int32_t(w.p[size_t(f)]) + row[f];
    if (with_net) add_row(e.net, w.net.row(k, f));
  };
  auto remove = [&](int f) {
    sum -= int32_t(w.p[size_t(f)]) + row[f];
    if (with_net) sub_row(e.net, w.net.row(k, f));
  };
  for (Color c : {BLACK, WHITE}) {
    for (int pt = PAWN; pt <= DRAGON; ++pt) {
      if (pt == KING) continue;
      const Bitboard now = pos.pieces(c, PieceType(pt));
      Bitboard& then = e.pieces[c][pt];
      if (now == then) continue;
      const Piece pc = make_piece(c, PieceType(pt));
      now.andnot(then).for_each([&](Square s) { add(board_feature(side, pc, s)); });
      then.andnot(now).for_each([&](Square s) { remove(board_feature(side, pc, s)); });
      then = now;
    }
    if (pos.hand(c) == e.hand[c]) continue;
    for (int pt = HAND_TYPE_BEGIN; pt < HAND_TYPE_END; ++pt) {
      // A hand of n turns on its first min(n, slots) slots.
      const int now = std::min(hand_count(pos.hand(c), PieceType(pt)), HAND_SLOTS[pt]);
      const int then = std::min(hand_count(e.hand[c], PieceType(pt)), HAND_SLOTS[pt]);
      for (int i = then; i < now; ++i) add(hand_feature(side, c, PieceType(pt), i));
      for (int i = now; i < then; ++i) remove(hand_feature(side, c, PieceType(pt), i));
    }
    e.hand[c] = pos.hand(c);
  }
  e.sum = sum;
  if (net && with_net) *net = e.net;
  return sum;
}

namespace {

int32_t fresh_side_sum(const Weights& w, const Position& pos, Color side, RefreshCache* cache, NetSums* net) {
  return cache && pos.has_king(side) ? cache->side_sum(w, pos, side, net) : side_sum(w, pos, side, net);
}

// The tables' and the network's sum from the side to move's view, in 1/WEIGHT_SCALE centipawns, without tempo.
int32_t mover_sum(const Weights& w, const Position& pos, const Accumulator& acc) {
  const int32_t pairs = pair_sum(w, pos, BLACK) - pair_sum(w, pos, WHITE);
  const int32_t black = acc.sum[BLACK] - acc.sum[WHITE] + pairs;
  const Color us = pos.side_to_move();
  int32_t v = us == BLACK ? black : -black;
  if (w.has_net()) v += net_output(w.net, acc.net[us], acc.net[~us]);
  return v;
}

}  // namespace

void refresh(const Weights& w, const Position& pos, Accumulator& acc, RefreshCache* cache) {
  acc.sum[BLACK] = fresh_side_sum(w, pos, BLACK, cache, &acc.net[BLACK]);
  acc.sum[WHITE] = fresh_side_sum(w, pos, WHITE, cache, &acc.net[WHITE]);
  acc.key = pos.key();
}

bool update(const Weights& w, const Position& pos, Move move, const Accumulator& parent, Accumulator& out,
            RefreshCache* cache) {
  if (move == MOVE_NULL) {
    out = parent;
    out.key = pos.key();
    return true;
  }
  if (!is_ok(move)) return false;
  const Color us = ~pos.side_to_move();
  int n_added = 0, n_removed = 0;
  // What the move changes, independent of the side that sees it; each side's index is computed below.
  struct Change {
    bool hand;
    Piece pc;   // board piece, or the hand piece's colour in make_piece(owner, raw)
    Square sq;  // board square
    int nth;    // 0-based index of the hand piece
  } add[2], rem[2];
  if (is_drop(move)) {
    const PieceType pt = dropped_type(move);
    const int left = hand_count(pos.hand(us), pt);  // the dropped piece was the (left+1)-th
    if (left < HAND_SLOTS[pt]) rem[n_removed++] = {true, make_piece(us, pt), SQ_NONE, left};
    add[n_added++] = {false, moved_piece_after(move), to_sq(move), 0};
  } else {
    // A king is no feature: its move changes only its own side's king square (handled below).
    if (type_of(moved_piece(move)) != KING) {
      rem[n_removed++] = {false, moved_piece(move), from_sq(move), 0};
      add[n_added++] = {false, moved_piece_after(move), to_sq(move), 0};
    }
    if (const Piece captured = pos.captured_piece(); captured != NO_PIECE) {
      rem[n_removed++] = {false, captured, to_sq(move), 0};
      const PieceType raw = raw_type(type_of(captured));
      const int held = hand_count(pos.hand(us), raw);  // the captured piece is the held-th
      if (held - 1 < HAND_SLOTS[raw]) add[n_added++] = {true, make_piece(us, raw), SQ_NONE, held - 1};
    }
  }
  const bool king_moved = type_of(moved_piece(move)) == KING;
  const bool with_net = w.has_net();
  for (Color side : {BLACK, WHITE}) {
    if (king_moved && side == us) {
      out.sum[side] = fresh_side_sum(w, pos, side, cache, &out.net[side]);
      continue;
    }
    const Square k = turned_king(pos, side);
    const int16_t* row = k == SQ_NONE ? nullptr : &w.kp[size_t(k) * FEATURES];
    auto feature = [&](const Change& c) {
      return c.hand ? hand_feature(side, color_of(c.pc), type_of(c.pc), c.nth) : board_feature(side, c.pc, c.sq);
    };
    int32_t sum = parent.sum[side];
    if (with_net) out.net[side] = parent.net[side];
    for (int i = 0; i < n_added; ++i) {
      const int f = feature(add[i]);
      sum += int32_t(w.p[size_t(f)]) + (row ? row[f] : 0);
      if (with_net) add_row(out.net[side], w.net.row(k, f));
    }
    for (int i = 0; i < n_removed; ++i) {
      const int f = feature(rem[i]);
      sum -= int32_t(w.p[size_t(f)]) + (row ? row[f] : 0);
      if (with_net) sub_row(out.net[side], w.net.row(k, f));
    }
    out.sum[side] = sum;
  }
  out.key = pos.key();
  return true;
}

Value evaluate(const Weights& w, const Position& pos, const Accumulator& acc) {
  // Truncation toward zero keeps the exact negation under a colour flip.
  return Value(mover_sum(w, pos, acc) / WEIGHT_SCALE) + Value(w.tempo / WEIGHT_SCALE);
}

Value evaluate_black(const Weights& w, const Position& pos) {
  Accumulator acc;
  refresh(w, pos, acc);
  const Value v = Value(mover_sum(w, pos, acc) / WEIGHT_SCALE);
  return pos.side_to_move() == BLACK ? v : -v;
}

Value evaluate(const Weights& w, const Position& pos) {
  const Value v = evaluate_black(w, pos);
  return (pos.side_to_move() == BLACK ? v : -v) + Value(w.tempo / WEIGHT_SCALE);
}

std::string weights_to_bytes(const Weights& w) {
  const size_t payload = w.has_net() ? PAYLOAD_SIZE + 4 + (w.has_pairs() ? 2 * size_t(PAIR_FEATURES) : 0) + NET_SIZE
                                     : payload_size(w.has_pairs());
  std::string out(payload + 8, '\0');
  char* p = out.data();
  std::memcpy(p, w.has_net() ? MAGIC_NET : w.has_pairs() ? MAGIC_PAIRS : MAGIC, 8);
  const uint32_t features = FEATURES, kings = SQ_NB;
  std::memcpy(p + 8, &features, 4);
  std::memcpy(p + 12, &kings, 4);
  std::memcpy(p + 16, &w.tempo, 4);
  std::memcpy(p + 20, &w.base, 4);
  std::memcpy(p + HEADER_SIZE, w.p.data(), w.p.size() * 2);
  std::memcpy(p + HEADER_SIZE + w.p.size() * 2, w.kp.data(), w.kp.size() * 2);
  if (w.has_net()) {
    char* at = p + PAYLOAD_SIZE;
    auto put = [&](const void* data, size_t n) {
      std::memcpy(at, data, n);
      at += n;
    };
    const uint32_t flags = FLAG_NET | (w.has_pairs() ? FLAG_PAIRS : 0), width = NET_WIDTH;
    put(&flags, 4);
    if (w.has_pairs()) put(w.pairs.data(), w.pairs.size() * 2);
    put(&width, 4);
    put(w.net.rows.data(), NET_ROWS * 2);
    put(w.net.bias.data(), sizeof w.net.bias);
    put(w.net.out.data(), sizeof w.net.out);
    put(&w.net.out_bias, 4);
    assert(at == p + payload);
  } else if (w.has_pairs()) {
    std::memcpy(p + PAYLOAD_SIZE, w.pairs.data(), w.pairs.size() * 2);
  }
  const uint64_t sum = fnv1a(p, payload);
  std::memcpy(p + payload, &sum, 8);
  return out;
}

std::expected<std::shared_ptr<const Weights>, std::string> weights_from_bytes(const std::string& bytes) {
  if (bytes.size() < HEADER_SIZE ||
      (std::memcmp(bytes.data(), MAGIC, 8) != 0 && std::memcmp(bytes.data(), MAGIC_PAIRS, 8) != 0 &&
       std::memcmp(bytes.data(), MAGIC_NET, 8) != 0))
    return std::unexpected("not a weights file of this engine (it does not start with SAKPEV1, SAKPEV2 or SAKPEV3)");
  const bool format3 = std::memcmp(bytes.data(), MAGIC_NET, 8) == 0;
  bool pairs = std::memcmp(bytes.data(), MAGIC_PAIRS, 8) == 0;
  size_t payload = payload_size(pairs);
  if (format3) {
    // The flags word says what follows the tables; the sizes are checked against it below.
    uint32_t flags = 0;
    if (bytes.size() < PAYLOAD_SIZE + 4)
      return std::unexpected(std::to_string(bytes.size()) + " bytes: a truncated file");
    std::memcpy(&flags, bytes.data() + PAYLOAD_SIZE, 4);
    if (flags & ~(FLAG_PAIRS | FLAG_NET) || !(flags & FLAG_NET))
      return std::unexpected("format 3 with unknown flags " + std::to_string(flags));
    pairs = flags & FLAG_PAIRS;
    payload = PAYLOAD_SIZE + 4 + (pairs ? 2 * size_t(PAIR_FEATURES) : 0) + NET_SIZE;
    const size_t width_at = payload - NET_SIZE;
    if (bytes.size() >= width_at + 4) {
      uint32_t width = 0;
      std::memcpy(&width, bytes.data() + width_at, 4);
      if (width != uint32_t(NET_WIDTH))
        return std::unexpected("a network " + std::to_string(width) + " wide; this engine reads " +
                               std::to_string(NET_WIDTH));
    }
  }
  uint32_t features = 0, kings = 0;
  std::memcpy(&features, bytes.data() + 8, 4);
  std::memcpy(&kings, bytes.data() + 12, 4);
  if (features != uint32_t(FEATURES) || kings != uint32_t(SQ_NB))
    return std::unexpected("made for " + std::to_string(features) + " features and " + std::to_string(kings) +
                           " king squares; this engine has " + std::to_string(FEATURES) + " and 81");
  if (bytes.size() != payload + 8)
    return std::unexpected(std::to_string(bytes.size()) + " bytes, expected " + std::to_string(payload + 8) +
                           " (a truncated or padded file)");
  uint64_t sum = 0;
  std::memcpy(&sum, bytes.data() + payload, 8);
  if (sum != fnv1a(bytes.data(), payload)) return std::unexpected("checksum mismatch: the file is damaged");
  auto w = std::make_shared<Weights>();
  std::memcpy(&w->tempo, bytes.data() + 16, 4);
  std::memcpy(&w->base, bytes.data() + 20, 4);
  if (w->base != Base::None && w->base != Base::HandWritten)
    return std::unexpected("unknown base evaluation " + std::to_string(uint32_t(w->base)));
  std::memcpy(w->p.data(), bytes.data() + HEADER_SIZE, w->p.size() * 2);
  std::memcpy(w->kp.data(), bytes.data() + HEADER_SIZE + w->p.size() * 2, w->kp.size() * 2);
  const char* at = bytes.data() + PAYLOAD_SIZE + (format3 ? 4 : 0);
  auto get = [&](void* data, size_t n) {
    std::memcpy(data, at, n);
    at += n;
  };
  if (pairs) {
    w->pairs.resize(PAIR_FEATURES);
    get(w->pairs.data(), w->pairs.size() * 2);
  }
  if (format3) {
    at += 4;  // the width, checked above
    w->net.rows.resize(NET_ROWS);
    get(w->net.rows.data(), NET_ROWS * 2);
    get(w->net.bias.data(), sizeof w->net.bias);
    get(w->net.out.data(), sizeof w->net.out);
    get(&w->net.out_bias, 4);
  }
  assert(at == bytes.data() + payload);
  return std::shared_ptr<const Weights>(std::move(w));
}

std::expected<std::shared_ptr<const Weights>, std::string> load_weights(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::unexpected(path + ": cannot open");
  std::ostringstream ss;
  ss << in.rdbuf();
  auto w = weights_from_bytes(ss.str());
  if (!w) return std::unexpected(path + ": " + w.error());
  return w;
}

std::expected<void, std::string> save_weights(const Weights& w, const std::string& path) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    const std::string bytes = weights_to_bytes(w);
    if (!out.write(bytes.data(), std::streamsize(bytes.size())) || !out.flush())
      return std::unexpected(tmp + ": cannot write");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) return std::unexpected(path + ": cannot rename " + tmp);
  return {};
}

}  // namespace shogi::kp
