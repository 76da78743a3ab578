// Fuzzes what the live page's server reads from a connection (runner/web/request_reader.h, then the routes): any
// bytes, fed in the chunks a network might deliver, end in "more", a request, or a refusal with 400 or 413, never a
// crash; a request is answered with one of the statuses the server knows, and every answer has a body or a page.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_common.h"
#include "web/live_state.h"
#include "web/request_reader.h"
#include "web/routes.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static arena::web::LiveState state("fuzz");
  // The first byte chooses the chunk size, the rest is the connection's bytes.
  const size_t chunk = size_t(data[0] % 64) + 1;
  const std::string input(reinterpret_cast<const char*>(data + 1), size - 1);
  arena::web::RequestReader reader;
  std::string buffer;
  size_t at = 0;
  int requests = 0;
  while (at < input.size() || !buffer.empty()) {
    if (at < input.size()) {
      buffer.append(input, at, chunk);
      at += chunk;
    }
    arena::web::ReadStep step = reader.feed(buffer);
    fuzz::require(step.consumed <= buffer.size(), "the reader consumes only what it was given", input);
    buffer.erase(0, step.consumed);
    if (step.kind == arena::web::ReadStep::Kind::NeedMore) {
      if (at >= input.size()) break;  // the connection ends here
      continue;
    }
    if (step.kind == arena::web::ReadStep::Kind::Refused) {
      fuzz::require(step.status == 400 || step.status == 413, "a refusal is 400 or 413", input);
      fuzz::require(!step.why.empty(), "a refusal says why", input);
      break;  // the server closes the connection
    }
    arena::web::HttpAnswer a = arena::web::route(state, step.method, step.target);
    fuzz::require(a.status == 200 || a.status == 400 || a.status == 404 || a.status == 405,
                  "a request gets a status the server knows", input);
    fuzz::require(a.event_stream || !a.body.empty(), "an answer has a body", input);
    if (a.event_stream || !step.keep_alive || a.status >= 400 || ++requests > 100) break;
    reader.reset();
  }
  return 0;
}
