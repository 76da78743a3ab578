#include "output/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace arena::output {

namespace fs = std::filesystem;

std::expected<void, std::string> write_file_atomically(const std::string& path, std::string_view text,
                                                       std::string_view what) {
  // Unique to this process: two processes replacing one file never write one temporary file.
  const std::string temp = path + ".writing." + std::to_string(::getpid());
  auto failed = [&](const std::string& why) -> std::expected<void, std::string> {
    ::unlink(temp.c_str());
    return std::unexpected(path + ": cannot write " + std::string(what) + ": " + why);
  };
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return failed(std::strerror(errno));
  for (size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = errno;
      ::close(fd);
      return failed(std::strerror(error));
    }
    done += size_t(n);
  }
  if (::fsync(fd) != 0) {
    const int error = errno;
    ::close(fd);
    return failed(std::strerror(error));
  }
  if (::close(fd) != 0) return failed(std::strerror(errno));
  if (::rename(temp.c_str(), path.c_str()) != 0) return failed(std::strerror(errno));
  // The new name must survive a crash of the machine too.
  fs::path dir = fs::path(path).parent_path();
  if (dir.empty()) dir = ".";
  if (const int d = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); d >= 0) {
    ::fsync(d);
    ::close(d);
  }
  return {};
}

}  // namespace arena::output
