#include "commands/serve_cli.h"

#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>
#include <optional>

#include "config/config.h"
#include "csa/league/rating_files.h"
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
  if (!server_.rate_only().empty()) return rate_only(*config);
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
    config->on_league = [&watch](const csa::CsaLeagueView& v) { watch->league(v); };
  }
  return csa::run_csa_server(*config, stop);
}

// The ratings of a folder of records alone (as shogi-server's mk_game_results | mk_rate): players.yaml and
// ratings.json rewritten, the list printed.
int ServeCli::rate_only(const csa::CsaServerConfig& config) const {
  const std::filesystem::path dir = server_.rate_only();
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec))
    throw config::ConfigError("--rate-only '" + dir.string() + "': expected the folder of a server's records");
  csa::league::RatingFiles files;
  files.results_list = dir / "00LIST";
  if (!std::filesystem::exists(files.results_list, ec))
    throw config::ConfigError("--rate-only: " + files.results_list.string() + " does not exist (no results list)");
  files.players_yaml = dir / "players.yaml";
  files.ratings_json = dir / "ratings.json";
  std::vector<std::string> notes;
  const auto ratings = csa::league::refresh_ratings(files, config.rating, notes);
  for (const std::string& note : notes) std::cerr << note << "\n";
  std::cout << csa::league::rating_table_text(ratings) << std::flush;
  return 0;
}

}  // namespace arena::commands
