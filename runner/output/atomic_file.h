#pragma once
// A file replaced whole or not at all: written to a temporary file beside it, synced, renamed over it, and the
// folder synced, so that a reader (a shard polling OUT/STOP, a coordinator's theta, a merged journal) never sees
// half of it and a crash of the machine leaves the old file or the new one. On a failure the temporary file is
// removed and the old file is left as it was.

#include <cstdint>
#include <expected>
#include <string>
#include <string_view>
#include <utility>

namespace arena::output {

// The error is one line: "<path>: cannot write <what>: <reason>" ("the report", "the tuned params file").
// Durability::Process skips the syncs: the file is still replaced whole if the process is killed, but a crash of
// the machine may lose the new one; for files written many times a second (the CSA server's records), where a
// sync each would hold everything else up.
enum class Durability { Machine, Process };
std::expected<void, std::string> write_file_atomically(const std::string& path, std::string_view text,
                                                       std::string_view what = "it",
                                                       Durability durability = Durability::Machine);

// The same for a file written piece by piece (a report too large to hold): nothing is at `path` until commit(),
// and a writer dropped before it (an error on the way, an exception) removes its temporary file.
class AtomicFileWriter {
 public:
  static std::expected<AtomicFileWriter, std::string> open(const std::string& path, std::string_view what = "it");
  AtomicFileWriter(AtomicFileWriter&& other) noexcept;
  AtomicFileWriter& operator=(AtomicFileWriter&&) = delete;
  ~AtomicFileWriter();

  std::expected<void, std::string> write(std::string_view text);
  // Sync, rename over `path`, sync the folder (only the rename with Durability::Process).
  std::expected<void, std::string> commit(Durability durability = Durability::Machine);
  uint64_t bytes() const { return bytes_; }

 private:
  AtomicFileWriter(std::string path, std::string what, std::string temp, int fd)
      : path_(std::move(path)), what_(std::move(what)), temp_(std::move(temp)), fd_(fd) {}
  std::unexpected<std::string> failed(const std::string& why);

  std::string path_, what_, temp_;
  int fd_ = -1;
  uint64_t bytes_ = 0;
};

}  // namespace arena::output
