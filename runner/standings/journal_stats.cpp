#include "standings/journal_stats.h"

#include <cstdlib>
#include <filesystem>
#include <iostream>

namespace arena::standings {

stats::SprtConfig parse_sprt_args(const std::vector<std::string>& args, stats::SprtConfig s) {
  for (const std::string& t : args) {
    size_t eq = t.find('=');
    const std::string key = t.substr(0, eq), value = eq == std::string::npos ? "" : t.substr(eq + 1);
    double* field = key == "elo0"    ? &s.elo0
                    : key == "elo1"  ? &s.elo1
                    : key == "alpha" ? &s.alpha
                    : key == "beta"  ? &s.beta
                                     : nullptr;
    if (key == "model" && (value == "normalized" || value == "logistic")) {
      s.model = value == "logistic" ? stats::EloModel::Logistic : stats::EloModel::Normalized;
      continue;
    }
    char* end = nullptr;
    const double v = field ? std::strtod(value.c_str(), &end) : 0;
    if (!field || value.empty() || *end != '\0')
      throw config::ConfigError("--sprt: '" + t + "': expected elo0=, elo1=, alpha=, beta= numbers or model=");
    *field = v;
  }
  if (auto ok = stats::validate(s); !ok) throw config::ConfigError("--sprt: " + ok.error());
  return s;
}

JournalStandings standings_of(const journal::JournalContents& contents, const std::optional<stats::SprtConfig>& sprt) {
  RunInfo info;
  std::vector<std::string> names;
  std::vector<run::Pairing> pairings;
  int games_per_pair = 2;
  if (const auto& h = contents.header) {
    names = h->engines;
    games_per_pair = h->games_per_pair;
    info.total_games = h->games;
    info.sprt = h->sprt;
    info.rating_anchor = h->rating_anchor;
    info.rating_anchor_elo = h->rating_anchor_elo;
    info.builds = h->builds;
    info.scale_tc = h->scale_tc;
    if (h->type == "roundrobin") {
      info.type = config::TournamentType::RoundRobin;
      for (int i = 0; i < int(names.size()); ++i)
        for (int j = i + 1; j < int(names.size()); ++j) pairings.push_back({i, j});
    } else {
      info.type = h->type == "sprt"   ? config::TournamentType::Sprt
                  : h->type == "play" ? config::TournamentType::Play
                                      : config::TournamentType::Gauntlet;
      for (int j = 1; j < int(names.size()); ++j) pairings.push_back({0, j});
    }
  } else {
    info.total_games = int64_t(contents.games.size());
  }
  if (sprt) info.sprt = sprt;
  JournalStandings s{info, Tally(names, pairings, games_per_pair)};
  if (info.sprt) s.tally.decide_sprt(*info.sprt);
  for (const journal::JournalGame& g : contents.games) s.tally.add(g);
  return s;
}

int print_journal_stats(const journal::JournalContents& contents, const std::string& source,
                        const StatsRequest& request) {
  std::optional<stats::SprtConfig> sprt;
  if (!request.sprt_args.empty())
    sprt = parse_sprt_args(request.sprt_args,
                           contents.header && contents.header->sprt ? *contents.header->sprt : stats::SprtConfig{});
  JournalStandings st = standings_of(contents, sprt);
  if (const int64_t n = st.tally.duplicates(); n > 0)
    std::cerr << "warning: " << source << ": " << n << (n == 1 ? " line repeats a game" : " lines repeat a game")
              << " already counted (left out)" << std::endl;
  if (!request.rating_anchor.empty()) {
    bool known = false;
    for (const EngineRecord& e : st.tally.engines()) known |= e.name == request.rating_anchor;
    if (!known)
      throw config::ConfigError("--rating-anchor: '" + request.rating_anchor + "' is not an engine of " + source);
    st.info.rating_anchor = request.rating_anchor;
  }
  if (request.rating_anchor_elo) st.info.rating_anchor_elo = *request.rating_anchor_elo;
  const bool json = request.json;
  // A journal's statistics are complete as far as they go: only an SPRT verdict decides the exit code.
  Summary s;
  s.info = st.info;
  s.journal = source;
  s.end = run::RunEnd::Completed;
  if (st.info.sprt) {
    const stats::SprtVerdict v = sprt_status(st.tally, *st.info.sprt).verdict;
    s.exit_code = v == stats::SprtVerdict::AcceptH1 ? 0 : v == stats::SprtVerdict::AcceptH0 ? 1 : 2;
    if (v != stats::SprtVerdict::Continue) s.end = run::RunEnd::SprtDecided;
  }
  if (json)
    std::cout << summary_json(st.tally, s) << std::endl;
  else
    std::cout << summary_text(st.tally, s) << std::flush;
  return s.exit_code;
}

}  // namespace arena::standings
