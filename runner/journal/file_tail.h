#pragma once
// Reading a journal file that another process is appending to (a shard's segment on a shared filesystem), a look
// at a time: each look returns only the complete lines the file gained since the last one, so that a look costs
// the new lines, not the whole file. A line still being written (no newline yet) waits for the next look, whole.
// A file cut shorter than what was read (rewritten by its writer) is read again from the start.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace arena::journal {

class FileTail {
 public:
  explicit FileTail(std::string path) : path_(std::move(path)) {}

  struct Line {
    int64_t number = 0;  // 1-based, in the file
    std::string text;
  };
  // The complete lines appended since the last call (none while the file does not exist).
  std::vector<Line> read_new();
  const std::string& path() const { return path_; }
  int64_t lines() const { return lines_; }

 private:
  std::string path_;
  uint64_t offset_ = 0;  // bytes read, up to the end of the last complete line
  int64_t lines_ = 0;    // complete lines read
};

}  // namespace arena::journal
