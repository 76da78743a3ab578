#include "commands/serve_cli.h"

#include <CLI/CLI.hpp>
#include <optional>

#include "config/config.h"
#include "csa/server/server.h"
#include "web/csa_server_watch.h"
#include "web/live_page.h"

namespace arena::commands {

void ServeCli::add_to(CLI::App& app) {
  server_.add_to(app);
  app.footer("Example:\n  shogi-arena serve --listen 0.0.0.0:4081 --out csa-server --log csa-server/server.log");
}

int ServeCli::run(const std::atomic<bool>* stop) const {
  auto config = server_.build();
  if (!config) throw config::ConfigError(config.error());
  // The live page of the server's games, when asked for: fed by the server's hooks on its own thread.
  std::unique_ptr<web::LivePage> page;
  std::optional<web::CsaServerWatch> watch;
  if (!server_.web().empty()) {
    // Port 0 is the system's pick, known only once the server listens: the page then names the host alone.
    const std::string where =
        config->listen_address + (config->port ? ":" + std::to_string(config->port) : std::string());
    auto started = web::LivePage::start(server_.web(), "CSA server " + where);
    if (!started) throw config::ConfigError(started.error());
    page = std::move(*started);
    watch.emplace(page->state(), where);
    config->on_game_progress = [&watch](const csa::CsaGameProgress& g) { watch->progress(g); };
    config->on_game_finished = [&watch](const csa::CsaFinishedGame& g) { watch->finished(g); };
  }
  return csa::run_csa_server(*config, stop);
}

}  // namespace arena::commands
