#include "web/live_page.h"

#include <iostream>

#include "config/values.h"
#include "web/server.h"

namespace arena::web {

LivePage::LivePage(std::string title) : state_(std::move(title)) {}

LivePage::~LivePage() { server_.reset(); }

std::string LivePage::url() const { return server_->url(); }

std::expected<std::unique_ptr<LivePage>, std::string> LivePage::start(const std::string& address, std::string title) {
  auto where = config::parse_listen_address(address, config::DEFAULT_WEB_PORT);
  if (!where) return std::unexpected("--web: '" + address + "': " + where.error());
  std::unique_ptr<LivePage> page(new LivePage(std::move(title)));
  auto server = WebServer::start(*where, page->state_);
  if (!server) return std::unexpected(server.error());
  page->server_ = std::move(*server);
  std::cerr << "Live page: " << page->url() << std::endl;
  return page;
}

}  // namespace arena::web
