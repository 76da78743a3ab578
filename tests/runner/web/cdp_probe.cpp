// cdp_probe: drives a headless Chromium through its DevTools protocol, for the live page's browser tests.
//
//   cdp_probe DEVTOOLS_PORT STEP...
//     open URL     navigate and wait for the load event
//     reload       reload and wait for the load event
//     wait MS      let the page run for MS milliseconds
//     eval JS      evaluate JS in the page and print its value as JSON on a line of its own
//     shot FILE    save a PNG screenshot
//
// Console errors and uncaught exceptions of the page are printed as "console-error: ..." lines; the exit code is 1
// if there was any (or a step failed), else 0. The browser is started by the caller (with --remote-debugging-port).
#include <boost/beast/core.hpp>
#include <boost/beast/core/detail/base64.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/json.hpp>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace bj = boost::json;
using tcp = asio::ip::tcp;

namespace {

std::string http_get(const std::string& port, const std::string& target, http::verb verb = http::verb::get) {
  asio::io_context io;
  tcp::resolver resolver(io);
  beast::tcp_stream stream(io);
  stream.connect(resolver.resolve("127.0.0.1", port));
  http::request<http::empty_body> req{verb, target, 11};
  req.set(http::field::host, "127.0.0.1");
  http::write(stream, req);
  beast::flat_buffer buffer;
  http::response<http::string_body> res;
  http::read(stream, buffer, res);
  return res.body();
}

class Page {
 public:
  Page(const std::string& port, const std::string& path) : ws_(io_) {
    tcp::resolver resolver(io_);
    asio::connect(ws_.next_layer(), resolver.resolve("127.0.0.1", port));
    ws_.read_message_max(64 * 1024 * 1024);
    ws_.handshake("127.0.0.1:" + port, path);
  }

  // Sends a command and reads messages until its answer, noting the events that come first.
  bj::value call(const std::string& method, bj::object params = {}) {
    const int64_t id = ++next_id_;
    bj::object msg{{"id", id}, {"method", method}, {"params", std::move(params)}};
    ws_.write(asio::buffer(bj::serialize(msg)));
    for (;;) {
      bj::object m = read();
      if (m.contains("id") && m.at("id").to_number<int64_t>() == id) {
        if (m.contains("error")) throw std::runtime_error(method + ": " + bj::serialize(m.at("error")));
        return m.contains("result") ? m.at("result") : bj::value();
      }
    }
  }

  void wait_for_event(const std::string& method) {
    seen_load_ = false;
    while (!seen_load_) read();
    (void)method;
  }

  int errors() const { return errors_; }

 private:
  bj::object read() {
    beast::flat_buffer buffer;
    ws_.read(buffer);
    bj::value v = bj::parse(beast::buffers_to_string(buffer.data()));
    bj::object& m = v.as_object();
    if (m.contains("method")) event(m.at("method").as_string(), m.contains("params") ? m.at("params") : bj::value());
    return std::move(m);
  }

  void event(bj::string_view method, const bj::value& params) {
    if (method == "Page.loadEventFired") seen_load_ = true;
    if (method == "Runtime.exceptionThrown") {
      ++errors_;
      std::cout << "console-error: exception " << bj::serialize(params.at("exceptionDetails")) << std::endl;
    }
    if (method == "Runtime.consoleAPICalled" && params.at("type").as_string() == "error") {
      ++errors_;
      std::cout << "console-error: " << bj::serialize(params.at("args")) << std::endl;
    }
    if (method == "Log.entryAdded" && params.at("entry").at("level").as_string() == "error") {
      ++errors_;
      std::cout << "console-error: " << bj::serialize(params.at("entry").at("text")) << " "
                << (params.at("entry").as_object().contains("url") ? bj::serialize(params.at("entry").at("url")) : "")
                << std::endl;
    }
  }

  asio::io_context io_;
  websocket::stream<tcp::socket> ws_;
  int64_t next_id_ = 0;
  int errors_ = 0;
  bool seen_load_ = false;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: cdp_probe DEVTOOLS_PORT STEP... (open URL | reload | wait MS | eval JS | shot FILE)\n";
    return 2;
  }
  const std::string port = argv[1];
  try {
    // The first page target; a browser started with about:blank has one.
    std::string ws_path;
    for (int attempt = 0; attempt < 50 && ws_path.empty(); ++attempt) {
      bj::value list = bj::parse(http_get(port, "/json/list"));
      for (const bj::value& t : list.as_array())
        if (t.at("type").as_string() == "page") {
          std::string url(t.at("webSocketDebuggerUrl").as_string());
          ws_path = url.substr(url.find("/devtools/"));
          break;
        }
      if (ws_path.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    if (ws_path.empty()) throw std::runtime_error("no page target in /json/list");
    Page page(port, ws_path);
    page.call("Runtime.enable");
    page.call("Page.enable");
    page.call("Log.enable");
    for (int i = 2; i < argc; ++i) {
      const std::string step = argv[i];
      auto arg = [&]() -> std::string {
        if (i + 1 >= argc) throw std::runtime_error(step + ": expected an argument");
        return argv[++i];
      };
      if (step == "open") {
        page.call("Page.navigate", {{"url", arg()}});
        page.wait_for_event("Page.loadEventFired");
      } else if (step == "reload") {
        page.call("Page.reload");
        page.wait_for_event("Page.loadEventFired");
      } else if (step == "wait") {
        const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(std::stol(arg()));
        while (std::chrono::steady_clock::now() < end) {
          page.call("Runtime.evaluate", {{"expression", "1"}});  // events are read meanwhile
          std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
      } else if (step == "eval") {
        bj::value r = page.call("Runtime.evaluate", {{"expression", arg()}, {"returnByValue", true}});
        if (r.as_object().contains("exceptionDetails"))
          throw std::runtime_error("eval: " + bj::serialize(r.at("exceptionDetails")));
        const bj::value& result = r.at("result");
        std::cout << (result.as_object().contains("value") ? bj::serialize(result.at("value")) : "undefined")
                  << std::endl;
      } else if (step == "shot") {
        const std::string file = arg();
        bj::value r = page.call("Page.captureScreenshot", {{"format", "png"}});
        const bj::string& b64 = r.at("data").as_string();
        std::string png(beast::detail::base64::decoded_size(b64.size()), '\0');
        auto [written, read] = beast::detail::base64::decode(png.data(), b64.data(), b64.size());
        (void)read;
        png.resize(written);
        std::ofstream(file, std::ios::binary) << png;
      } else {
        throw std::runtime_error("unknown step '" + step + "'");
      }
    }
    std::cout << "console-errors: " << page.errors() << std::endl;
    return page.errors() == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "cdp_probe: " << e.what() << std::endl;
    return 1;
  }
}
