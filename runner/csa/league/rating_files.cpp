#include "csa/league/rating_files.h"

#include <boost/json.hpp>
#include <cmath>
#include <cstdio>

#include "csa/league/players_yaml.h"
#include "csa/league/results_list.h"
#include "output/atomic_file.h"
#include "output/json.h"
#include "output/local_time.h"

namespace arena::csa::league {

LeagueRatings refresh_ratings(const RatingFiles& files, LeagueRatingOptions options, std::vector<std::string>& log) {
  options.base_date = std::chrono::system_clock::now();
  ResultsList list = read_results_list(files.results_list, files.complete_lines_only);
  for (std::string& w : list.warnings) log.push_back(std::move(w));
  LeagueRatings ratings = rate_league(list.games, options);
  for (const std::string& note : ratings.notes) log.push_back("ratings: " + note);
  if (!ratings.fit_error.empty())
    log.push_back("ratings: " + ratings.fit_error + "; its players are listed unrated (group 999)");
  if (!files.players_yaml.empty()) {
    if (auto ok = output::write_file_atomically(files.players_yaml.string(), players_yaml_text(ratings), "the ratings");
        !ok)
      log.push_back(ok.error());
  }
  if (!files.ratings_json.empty())
    if (auto ok = output::write_file_atomically(files.ratings_json.string(), ratings_json_text(ratings, options),
                                                "the rating list");
        !ok)
      log.push_back(ok.error());
  return ratings;
}

std::string ratings_json_text(const LeagueRatings& ratings, const LeagueRatingOptions& options) {
  boost::json::object root;
  root["counted_games"] = ratings.counted_games;
  root["half_life_days"] = options.half_life_days;
  root["games_limit"] = options.games_limit;
  root["fit_error"] = ratings.fit_error;
  boost::json::array players;
  for (const LeaguePlayer& p : ratings.players) {
    boost::json::object o;
    o["id"] = p.id;
    o["name"] = p.name;
    o["rating_group"] = p.rating_group;
    o["rate"] = p.rate;
    o["win"] = p.win;
    o["loss"] = p.loss;
    o["last_modified"] = output::record_time_text(p.last_modified);
    o["games"] = p.games;
    if (p.listed) {
      o["elo"] = std::round(p.elo * 10) / 10;
      o["lower"] = std::round(p.lower * 10) / 10;
      o["upper"] = std::round(p.upper * 10) / 10;
      o["list_group"] = p.list_group;
    }
    players.push_back(std::move(o));
  }
  root["players"] = std::move(players);
  return json::serialize(root) + "\n";
}

std::string rating_table_text(const LeagueRatings& ratings) {
  std::string out;
  char line[256];
  std::snprintf(line, sizeof line, "%-4s %-24s %5s %5s %7s %15s %6s %8s %8s\n", "rank", "player", "group", "rate",
                "elo", "95 %", "games", "win", "loss");
  out += line;
  int rank = 0;
  for (const LeaguePlayer& p : ratings.players) {
    const std::string group = p.rating_group == 999 ? "-" : std::to_string(p.rating_group);
    const std::string rate = p.rating_group == 999 ? "-" : std::to_string(int64_t(p.rate));
    char elo[16] = "-", interval[32] = "";
    if (p.listed) {
      std::snprintf(elo, sizeof elo, "%.1f", p.elo);
      std::snprintf(interval, sizeof interval, "[%.0f, %.0f]", p.lower, p.upper);
    }
    std::snprintf(line, sizeof line, "%-4d %-24s %5s %5s %7s %15s %6lld %8.2f %8.2f\n", ++rank, p.name.c_str(),
                  group.c_str(), rate.c_str(), elo, interval, static_cast<long long>(p.games), p.win, p.loss);
    out += line;
  }
  out += std::to_string(ratings.counted_games) + " games counted";
  if (!ratings.fit_error.empty()) out += "; " + ratings.fit_error;
  return out + "\n";
}

}  // namespace arena::csa::league
