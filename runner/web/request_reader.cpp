#include "web/request_reader.h"

#include <boost/beast/http.hpp>
#include <optional>

namespace arena::web {

namespace http = boost::beast::http;

struct RequestReader::Impl {
  std::optional<http::request_parser<http::string_body>> parser;
  bool got_some = false;
};

RequestReader::RequestReader(RequestLimits limits) : impl_(std::make_unique<Impl>()), limits_(limits) { reset(); }
RequestReader::~RequestReader() = default;
RequestReader::RequestReader(RequestReader&&) noexcept = default;
RequestReader& RequestReader::operator=(RequestReader&&) noexcept = default;

void RequestReader::reset() {
  impl_->parser.emplace();
  impl_->parser->header_limit(std::uint32_t(limits_.max_header_bytes));
  impl_->parser->body_limit(limits_.max_body_bytes);
  impl_->parser->eager(true);
  impl_->got_some = false;
}

bool RequestReader::got_some() const { return impl_->got_some; }

ReadStep RequestReader::feed(std::string_view bytes) {
  ReadStep step;
  auto& parser = *impl_->parser;
  while (step.consumed < bytes.size() && !parser.is_done()) {
    boost::system::error_code ec;
    const size_t used = parser.put(boost::asio::buffer(bytes.data() + step.consumed, bytes.size() - step.consumed), ec);
    step.consumed += used;
    if (used > 0) impl_->got_some = true;
    if (ec == http::error::need_more) {
      // Beast wants the whole header in one buffer: what it has not taken yet stays with the caller, who adds
      // more and feeds again. Past the header limit, the parser reports header_limit on its own.
      if (bytes.size() - step.consumed > limits_.max_header_bytes + limits_.max_body_bytes) {
        step.kind = ReadStep::Kind::Refused;
        step.status = 413;
        step.why = "the request is larger than the live page accepts";
      }
      return step;
    }
    if (ec == http::error::header_limit || ec == http::error::body_limit || ec == http::error::buffer_overflow) {
      step.kind = ReadStep::Kind::Refused;
      step.status = 413;
      step.why = "the request is larger than the live page accepts";
      return step;
    }
    if (ec) {
      step.kind = ReadStep::Kind::Refused;
      step.status = 400;
      step.why = "malformed HTTP request (" + ec.message() + ")";
      return step;
    }
    if (used == 0) break;
  }
  if (!parser.is_done()) return step;
  const auto& req = parser.get();
  step.kind = ReadStep::Kind::Request;
  step.method = std::string(req.method_string());
  step.target = std::string(req.target());
  step.keep_alive = req.keep_alive();
  return step;
}

}  // namespace arena::web
