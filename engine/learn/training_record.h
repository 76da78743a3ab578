#pragma once
// The training data of the learned evaluation: one position a record, 64 bytes, written by `gensfen` and read by
// `learn`. A file is a plain array of records with no header, so that files can be concatenated, counted by their
// size, shuffled and split without parsing, and a torn last record (a killed writer) is cut off by size alone.
//
// Record layout (little-endian):
//   bytes  0-55  the position, a bit stream filled from the lowest bit of byte 0 upwards:
//                81 x 5 bits  the Piece code of each square, SQ_11 first (0 = empty, 1-14 black, 17-30 white)
//                 1 bit       the side to move (0 black, 1 white)
//                 2 x 21 bits the hands, black then white: pawn 5, lance 3, knight 3, silver 3, bishop 2, rook 2,
//                             gold 3 bits (the field widths of Hand, so every hand a Position holds fits)
//   bytes 56-57  int16   the search score in centipawns, from the side to move's view
//   bytes 58-59  uint16  the best move found by that search (Move16)
//   bytes 60-61  uint16  the SFEN move number of the position
//   byte  62     int8    the game's result from the side to move's view: 1 won, 0 drawn, -1 lost
//   byte  63     uint8   reserved, 0

#include <array>
#include <cstdint>
#include <expected>
#include <string>
#include <vector>

#include "rules/position.h"
#include "rules/sfen.h"

namespace shogi::learn {

struct TrainingRecord {
  std::array<uint8_t, 56> position{};
  int16_t score = 0;
  uint16_t move = 0;
  uint16_t ply = 0;
  int8_t result = 0;
  uint8_t reserved = 0;
};
static_assert(sizeof(TrainingRecord) == 64, "the record is the file format");

constexpr size_t RECORD_SIZE = sizeof(TrainingRecord);

// Packs the board, hands and side to move of pos (its move number goes to `ply`, not into the position bytes).
std::array<uint8_t, 56> pack_position(const Position& pos);
// The setup a record holds; an error names what is invalid (a piece code that is no piece, a reserved byte set).
std::expected<BoardSetup, std::string> unpack_position(const TrainingRecord& record);
// The record's position as an SFEN with its move number, for Position::set and for people.
std::expected<std::string, std::string> record_sfen(const TrainingRecord& record);

// A whole file of records, each checked: a size that is not a whole number of records, or a record that does not
// decode, is an error naming the file (and the record).
std::expected<std::vector<TrainingRecord>, std::string> read_record_file(const std::string& path);
// A record file that a run continues (gensfen, rescore): a missing file holds no records; an existing one must decode
// at its first and last whole records, so that anything else given as the output by mistake is left alone (an
// error). inspect_record_file changes nothing; cut_torn_record then cuts off a torn last record (a killed writer).
struct ContinuedFile {
  uint64_t records = 0;  // whole records in the file
  uint64_t torn_bytes = 0;
  TrainingRecord first{}, last{};  // the first and last whole records, when there is one
};
std::expected<ContinuedFile, std::string> inspect_record_file(const std::string& path);
std::expected<void, std::string> cut_torn_record(const std::string& path, const ContinuedFile& file);

// Writes n records through a temporary file renamed into place, so that a failure never leaves half a file.
std::expected<void, std::string> write_record_file(const std::string& path, const TrainingRecord* data, size_t n);

}  // namespace shogi::learn
