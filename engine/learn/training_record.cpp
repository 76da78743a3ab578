#include "learn/training_record.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace shogi::learn {

namespace {

constexpr int HAND_BITS[HAND_TYPE_END] = {0, 5, 3, 3, 3, 2, 2, 3};

class BitWriter {
 public:
  explicit BitWriter(std::array<uint8_t, 56>& bytes) : bytes_(bytes) {}
  void put(uint32_t value, int bits) {
    for (int i = 0; i < bits; ++i, ++pos_)
      if (value >> i & 1) bytes_[pos_ / 8] |= uint8_t(1u << (pos_ % 8));
  }

 private:
  std::array<uint8_t, 56>& bytes_;
  size_t pos_ = 0;
};

class BitReader {
 public:
  explicit BitReader(const std::array<uint8_t, 56>& bytes) : bytes_(bytes) {}
  uint32_t get(int bits) {
    uint32_t v = 0;
    for (int i = 0; i < bits; ++i, ++pos_) v |= uint32_t(bytes_[pos_ / 8] >> (pos_ % 8) & 1) << i;
    return v;
  }

 private:
  const std::array<uint8_t, 56>& bytes_;
  size_t pos_ = 0;
};

bool is_piece_code(uint32_t code) {
  const uint32_t type = code & 15;
  return code < PIECE_NB && type != NO_PIECE_TYPE && type != 15;
}

}  // namespace

std::array<uint8_t, 56> pack_position(const Position& pos) {
  std::array<uint8_t, 56> bytes{};
  BitWriter w(bytes);
  for (int s = SQ_11; s < SQ_NB; ++s) w.put(uint32_t(pos.piece_on(Square(s))), 5);
  w.put(pos.side_to_move() == WHITE, 1);
  for (Color c : {BLACK, WHITE})
    for (int pt = HAND_TYPE_BEGIN; pt < HAND_TYPE_END; ++pt)
      w.put(hand_count(pos.hand(c), PieceType(pt)), HAND_BITS[pt]);
  return bytes;
}

std::expected<BoardSetup, std::string> unpack_position(const TrainingRecord& record) {
  BitReader r(record.position);
  BoardSetup setup;
  int kings[COLOR_NB] = {0, 0};
  for (int s = SQ_11; s < SQ_NB; ++s) {
    const uint32_t code = r.get(5);
    if (code != 0 && !is_piece_code(code))
      return std::unexpected("square " + to_string(Square(s)) + " holds piece code " + std::to_string(code) +
                             ", which is no piece");
    setup.board[s] = Piece(code);
    if (code && type_of(Piece(code)) == KING && ++kings[color_of(Piece(code))] > 1)
      return std::unexpected("two kings of one colour");
  }
  setup.side_to_move = r.get(1) ? WHITE : BLACK;
  for (Color c : {BLACK, WHITE})
    for (int pt = HAND_TYPE_BEGIN; pt < HAND_TYPE_END; ++pt)
      setup.hand[c] = hand_add(setup.hand[c], PieceType(pt), int(r.get(HAND_BITS[pt])));
  // The bits after the hands (448 = 56 bytes exactly, so none) and the reserved byte must be clear: anything else
  // is a file of another format or a damaged one.
  if (record.reserved != 0) return std::unexpected("reserved byte is " + std::to_string(record.reserved) + ", not 0");
  if (record.result < -1 || record.result > 1)
    return std::unexpected("result is " + std::to_string(record.result) + ", not -1, 0 or 1");
  setup.move_number = std::max<int>(1, record.ply);
  return setup;
}

std::expected<std::string, std::string> record_sfen(const TrainingRecord& record) {
  auto setup = unpack_position(record);
  if (!setup) return std::unexpected(setup.error());
  return to_sfen(*setup);
}

// Reads whole files of records; a size that is not a multiple of the record size or a record that does not decode
// is an error naming the file and the record.
std::expected<std::vector<TrainingRecord>, std::string> read_record_file(const std::string& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) return std::unexpected(path + ": " + ec.message());
  if (size % RECORD_SIZE)
    return std::unexpected(path + ": " + std::to_string(size) + " bytes is not a whole number of " +
                           std::to_string(RECORD_SIZE) +
                           "-byte records (a torn file: gensfen cuts it when it continues)");
  std::vector<TrainingRecord> records(size / RECORD_SIZE);
  std::ifstream in(path, std::ios::binary);
  if (!in.read(reinterpret_cast<char*>(records.data()), std::streamsize(size)))
    return std::unexpected(path + ": cannot read");
  for (size_t i = 0; i < records.size(); ++i)
    if (auto sfen = record_sfen(records[i]); !sfen)
      return std::unexpected(path + ": record " + std::to_string(i) + ": " + sfen.error());
  return records;
}

std::expected<void, std::string> write_record_file(const std::string& path, const TrainingRecord* data, size_t n) {
  // Into a temporary file first: a failed run never leaves half a data set under the real name.
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out.write(reinterpret_cast<const char*>(data), std::streamsize(n * RECORD_SIZE)) || !out.flush())
      return std::unexpected(tmp + ": cannot write");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) return std::unexpected(path + ": " + ec.message());
  return {};
}

std::expected<ContinuedFile, std::string> inspect_record_file(const std::string& path) {
  std::error_code ec;
  const auto size = std::filesystem::exists(path, ec) ? std::filesystem::file_size(path, ec) : 0;
  if (ec) return std::unexpected(path + ": " + ec.message());
  ContinuedFile file;
  file.records = size / RECORD_SIZE;
  file.torn_bytes = size % RECORD_SIZE;
  if (file.records > 0) {
    std::ifstream in(path, std::ios::binary);
    in.read(reinterpret_cast<char*>(&file.first), RECORD_SIZE);
    in.seekg(std::streamoff((file.records - 1) * RECORD_SIZE));
    in.read(reinterpret_cast<char*>(&file.last), RECORD_SIZE);
    auto a = record_sfen(file.first), b = record_sfen(file.last);
    if (!in || !a || !b)
      return std::unexpected(path + " exists and is not training data to continue (" +
                             (!in  ? std::string("cannot read it")
                              : !a ? "record 0: " + a.error()
                                   : "last record: " + b.error()) +
                             ")");
  }
  return file;
}

std::expected<void, std::string> cut_torn_record(const std::string& path, const ContinuedFile& file) {
  if (!file.torn_bytes) return {};
  std::error_code ec;
  std::filesystem::resize_file(path, file.records * RECORD_SIZE, ec);
  if (ec) return std::unexpected(path + ": cannot cut off the torn last record: " + ec.message());
  return {};
}

}  // namespace shogi::learn
