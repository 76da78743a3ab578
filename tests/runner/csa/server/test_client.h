#pragma once
// A small blocking CSA client for the server tests: a TCP connection to 127.0.0.1 with line reads that give up
// after a timeout, so a test that expects a line fails instead of hanging. POSIX sockets on purpose: the tests
// must not share code (or bugs) with the server's Asio layer.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace csa_test {

using namespace std::chrono_literals;
using Millis = std::chrono::milliseconds;

class TestClient {
 public:
  explicit TestClient(uint16_t port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
      ::close(fd_);
      fd_ = -1;
      return;
    }
    int one = 1;
    ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  }
  ~TestClient() { close(); }
  TestClient(const TestClient&) = delete;
  TestClient& operator=(const TestClient&) = delete;

  bool connected() const { return fd_ >= 0; }

  // Sends bytes as they are; false if the connection is gone.
  bool send_raw(std::string_view bytes) {
    if (fd_ < 0) return false;
    while (!bytes.empty()) {
      ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (n <= 0) return false;
      bytes.remove_prefix(size_t(n));
    }
    return true;
  }
  bool send_line(std::string_view line) { return send_raw(std::string(line) + "\n"); }

  // The next line without its LF; nullopt on timeout or when the server closed the connection.
  std::optional<std::string> read_line(Millis timeout = 5000ms) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
      size_t nl = buffer_.find('\n');
      if (nl != std::string::npos) {
        std::string line = buffer_.substr(0, nl);
        buffer_.erase(0, nl + 1);
        return line;
      }
      if (eof_ || fd_ < 0 || !fill(deadline)) return std::nullopt;
    }
  }

  // Lines until (and including) `last`; stops early on timeout/EOF (the vector then lacks `last`).
  std::vector<std::string> read_until(std::string_view last, Millis timeout = 5000ms) {
    std::vector<std::string> lines;
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
      auto left = std::chrono::duration_cast<Millis>(deadline - std::chrono::steady_clock::now());
      auto line = read_line(left.count() > 0 ? left : Millis(0));
      if (!line) return lines;
      lines.push_back(*line);
      if (*line == last) return lines;
    }
  }

  // Whatever arrives within `window` (for "nothing more is sent" checks).
  std::vector<std::string> read_available(Millis window) {
    std::vector<std::string> lines;
    auto deadline = std::chrono::steady_clock::now() + window;
    while (true) {
      auto left = std::chrono::duration_cast<Millis>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return lines;
      auto line = read_line(left);
      if (!line) return lines;
      lines.push_back(*line);
    }
  }

  // True once the server has closed the connection (EOF or reset) within the timeout; lines still buffered
  // are discarded.
  bool wait_closed(Millis timeout = 5000ms) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!eof_) {
      buffer_.clear();
      if (!fill(deadline) && !eof_) return false;
    }
    return true;
  }

  // Half-close: the server sees EOF, this side can still read.
  void shutdown_write() {
    if (fd_ >= 0) ::shutdown(fd_, SHUT_WR);
  }

  void close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  // Reads what is available before the deadline; false on timeout. Sets eof_ on EOF or error.
  bool fill(std::chrono::steady_clock::time_point deadline) {
    auto left = std::chrono::duration_cast<Millis>(deadline - std::chrono::steady_clock::now()).count();
    pollfd p{fd_, POLLIN, 0};
    int r = ::poll(&p, 1, int(left > 0 ? left : 0));
    if (r <= 0) return false;
    char buf[4096];
    ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
    if (n <= 0) {
      eof_ = true;
      return false;
    }
    buffer_.append(buf, size_t(n));
    return true;
  }

  int fd_ = -1;
  std::string buffer_;
  bool eof_ = false;
};

}  // namespace csa_test
