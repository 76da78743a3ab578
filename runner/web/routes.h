#pragma once
// What the live page's server answers, apart from the sockets (server.h): one pure function from a request's
// method and target to a response, so every path and every bad request is testable without a network.
//
//   GET /                  the page (page.h), self-contained
//   GET /api/state         the current update (LiveState::update_json)
//   GET /api/events        server-sent events: an `update` event whenever the state changes (the server's part)
//   GET /api/games?from=F&count=C   finished games F..F+C-1 of the list (count at most 1000)
//   GET /api/game/N        the journal line of finished game N (404 once it is no longer kept)
// HEAD is answered like GET without the body; any other method gets 405, a target that is not a path 400, an
// unknown path 404. Read-only: nothing here changes the run.

#include <string>
#include <string_view>

#include "web/live_state.h"

namespace arena::web {

struct HttpAnswer {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  bool event_stream = false;  // /api/events: the server keeps the connection and streams updates
};

HttpAnswer route(const LiveState& state, std::string_view method, std::string_view target);

// The reason phrase of the statuses route() and the server use.
std::string_view status_text(int status);

}  // namespace arena::web
