#include "web/routes.h"

#include <charconv>

#include "web/page.h"

namespace arena::web {

namespace {

HttpAnswer error(int status, std::string why) {
  HttpAnswer a;
  a.status = status;
  a.content_type = "text/plain; charset=utf-8";
  a.body = std::string(status_text(status)) + ": " + std::move(why) + "\n";
  return a;
}

std::optional<int64_t> number(std::string_view text) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || v < 0) return std::nullopt;
  return v;
}

// The value of `key` in a query string "a=1&b=2"; nullopt when absent.
std::optional<std::string_view> query_value(std::string_view query, std::string_view key) {
  while (!query.empty()) {
    size_t amp = query.find('&');
    std::string_view part = query.substr(0, amp);
    size_t eq = part.find('=');
    if (part.substr(0, eq) == key) return eq == std::string_view::npos ? std::string_view() : part.substr(eq + 1);
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
  return std::nullopt;
}

}  // namespace

std::string_view status_text(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 400:
      return "Bad Request";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 413:
      return "Payload Too Large";
    case 503:
      return "Service Unavailable";
  }
  return "Error";
}

HttpAnswer route(const LiveState& state, std::string_view method, std::string_view target) {
  if (method != "GET" && method != "HEAD") return error(405, "the live page is read-only: GET or HEAD");
  if (target.empty() || target.front() != '/') return error(400, "expected a path starting with '/'");
  const size_t q = target.find('?');
  const std::string_view path = target.substr(0, q);
  const std::string_view query = q == std::string_view::npos ? std::string_view() : target.substr(q + 1);

  if (path == "/" || path == "/index.html") {
    HttpAnswer a;
    a.content_type = "text/html; charset=utf-8";
    a.body = live_page_with(state.update_json());
    return a;
  }
  if (path == "/api/state") return HttpAnswer{200, "application/json", state.update_json(), false};
  if (path == "/api/events") return HttpAnswer{200, "text/event-stream", {}, true};
  if (path == "/api/games") {
    auto from_text = query_value(query, "from");
    auto count_text = query_value(query, "count");
    auto from = from_text ? number(*from_text) : std::optional<int64_t>(0);
    auto count = count_text ? number(*count_text) : std::optional<int64_t>(100);
    if (!from || !count || *count > 1000) return error(400, "expected /api/games?from=F&count=C with C from 0 to 1000");
    return HttpAnswer{200, "application/json", state.finished_json(*from, *count), false};
  }
  constexpr std::string_view game_prefix = "/api/game/";
  if (path.starts_with(game_prefix)) {
    auto n = number(path.substr(game_prefix.size()));
    if (!n) return error(400, "expected /api/game/N with N a game number");
    auto line = state.journal_line(*n);
    if (!line) return error(404, "game " + std::to_string(*n) + " is not among the finished games kept in memory");
    return HttpAnswer{200, "application/json", std::move(*line), false};
  }
  return error(404, "no such page");
}

}  // namespace arena::web
