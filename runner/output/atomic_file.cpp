#include "output/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace arena::output {

namespace fs = std::filesystem;

std::expected<AtomicFileWriter, std::string> AtomicFileWriter::open(const std::string& path, std::string_view what) {
  // Unique to this process: two processes replacing one file never write one temporary file.
  std::string temp = path + ".writing." + std::to_string(::getpid());
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return std::unexpected(path + ": cannot write " + std::string(what) + ": " + std::strerror(errno));
  return AtomicFileWriter(path, std::string(what), std::move(temp), fd);
}

AtomicFileWriter::AtomicFileWriter(AtomicFileWriter&& other) noexcept
    : path_(std::move(other.path_)),
      what_(std::move(other.what_)),
      temp_(std::move(other.temp_)),
      fd_(other.fd_),
      bytes_(other.bytes_) {
  other.fd_ = -1;
  other.temp_.clear();
}

AtomicFileWriter::~AtomicFileWriter() {
  if (fd_ >= 0) ::close(fd_);
  if (!temp_.empty()) ::unlink(temp_.c_str());
}

std::unexpected<std::string> AtomicFileWriter::failed(const std::string& why) {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!temp_.empty()) ::unlink(temp_.c_str());
  temp_.clear();
  return std::unexpected(path_ + ": cannot write " + what_ + ": " + why);
}

std::expected<void, std::string> AtomicFileWriter::write(std::string_view text) {
  if (fd_ < 0) return std::unexpected(path_ + ": cannot write " + what_ + ": already ended");
  for (size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return failed(std::strerror(errno));
    done += size_t(n);
  }
  bytes_ += text.size();
  return {};
}

std::expected<void, std::string> AtomicFileWriter::commit(Durability durability) {
  if (fd_ < 0) return std::unexpected(path_ + ": cannot write " + what_ + ": already ended");
  if (durability == Durability::Machine && ::fsync(fd_) != 0) return failed(std::strerror(errno));
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) return failed(std::strerror(errno));
  if (::rename(temp_.c_str(), path_.c_str()) != 0) return failed(std::strerror(errno));
  temp_.clear();
  if (durability == Durability::Process) return {};
  // The new name must survive a crash of the machine too.
  fs::path dir = fs::path(path_).parent_path();
  if (dir.empty()) dir = ".";
  if (const int d = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); d >= 0) {
    ::fsync(d);
    ::close(d);
  }
  return {};
}

std::expected<void, std::string> write_file_atomically(const std::string& path, std::string_view text,
                                                       std::string_view what, Durability durability) {
  auto file = AtomicFileWriter::open(path, what);
  if (!file) return std::unexpected(file.error());
  if (auto written = file->write(text); !written) return written;
  return file->commit(durability);
}

}  // namespace arena::output
