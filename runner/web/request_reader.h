#pragma once
// One HTTP request read from a connection's bytes as they arrive, with the live page's limits: Beast's parser fed
// by hand, so that the server and the fuzz target (tests/fuzz/fuzz_web_request.cpp) run the same code. What it
// returns is either "more bytes", a request, or the status to refuse it with (400 malformed, 413 too large).

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace arena::web {

struct RequestLimits {
  size_t max_header_bytes = 8 * 1024;
  size_t max_body_bytes = 1024;
};

struct ReadStep {
  enum class Kind { NeedMore, Request, Refused } kind = Kind::NeedMore;
  // Request:
  std::string method, target;
  bool keep_alive = false;
  // Refused:
  int status = 0;
  std::string why;
  // Bytes of the input used; with a Request, bytes after it belong to the next request on the connection.
  size_t consumed = 0;
};

class RequestReader {
 public:
  explicit RequestReader(RequestLimits limits = {});
  ~RequestReader();
  RequestReader(RequestReader&&) noexcept;
  RequestReader& operator=(RequestReader&&) noexcept;

  // Feeds bytes (the unread rest of what arrived); after a Request or Refused, call reset() before the next one.
  ReadStep feed(std::string_view bytes);
  // The connection ended before the request was whole: was any of it received?
  bool got_some() const;
  void reset();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  RequestLimits limits_;
};

}  // namespace arena::web
