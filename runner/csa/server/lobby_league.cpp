// The lobby's Floodgate groups: players waiting for a group's round, the rounds at their times, the ratings the
// pairing reads (the server's own, rebuilt from the results list, or a players.yaml), what the groups remember
// across a restart, and what the live page and %%RATING / %%FLOODGATE show.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <system_error>

#include "csa/league/players_yaml.h"
#include "csa/league/rating_files.h"
#include "csa/league/results_list.h"
#include "csa/server/lobby_parts.h"
#include "output/local_time.h"

namespace arena::csa {

using shogi::BLACK;
using shogi::WHITE;

namespace {

std::string when_text(std::optional<league::WallTime> t) {
  return t ? output::format_local_time(*t, "%Y-%m-%d %H:%M:%S") : "never (no time in its schedule)";
}

}  // namespace

void Lobby::open_groups() {
  for (const league::FloodgateGroupConfig& g : config_.floodgate_groups) {
    groups_.push_back(std::make_unique<league::FloodgateGroup>(g));
    groups_.back()->arm(std::chrono::system_clock::now());
    log("Floodgate group " + g.name + ": pairs " + g.schedule.describe() + " by " +
        g.schedule.settings().pairing_factory + ", next at " + when_text(groups_.back()->next_pairing()));
  }
  if (!groups_.empty()) {
    restore_groups();
    refresh_rates();  // players.yaml rebuilt from the records before anyone logs in
    publish_league();
  }
}

std::filesystem::path Lobby::rounds_log(const league::FloodgateGroup& group) const {
  return config_.output_dir.empty() ? std::filesystem::path() : config_.output_dir / (group.name() + ".rounds");
}

// After a restart the groups remember what they knew: the games from the results list (last opponents, colours),
// the rounds and who sat out from each group's rounds log.
void Lobby::restore_groups() {
  if (config_.output_dir.empty()) return;
  const auto list =
      league::read_results_list(config_.results_file.empty() ? config_.output_dir / "00LIST" : config_.results_file);
  for (const league::ListedGame& g : list.games) {
    league::FloodgateGroup* group = group_of(g.game_name());
    if (!group) continue;
    std::optional<bool> black_won;
    if (g.marks[0] == "win" || g.marks[1] == "win") black_won = g.marks[0] == "win";
    group->record_game(g.players[0], g.players[1], black_won);
  }
  for (auto& group : groups_) {
    std::ifstream in(rounds_log(*group));
    for (std::string line; std::getline(in, line);) group->restore_round(line);
    if (group->rounds() > 0)
      log("Floodgate group " + group->name() + ": " + std::to_string(group->rounds()) + " rounds restored from " +
          rounds_log(*group).string());
  }
}

league::FloodgateGroup* Lobby::group_of(const std::string& game_name) {
  for (auto& g : groups_)
    if (g->name() == game_name) return g.get();  // exact: shogi-server's unanchored match lets 900-0 take 900-0F
  return nullptr;
}

// A request for a Floodgate group's game: the player waits for the group's next round (shogi-server answers
// nothing until the game summary).
bool Lobby::wait_for_round(Player& p, bool challenge, league::FloodgateGroup& group) {
  if (challenge || p.player_id.empty()) {
    p.status = Status::Connected;
    p.game_name.clear();
    p.sente.reset();
    if (challenge) return error(p, "can't find rival for " + group.name());
    return error(p, group.name() + " pairs players with a trip only: LOGIN " + p.name + " " + group.name() + ",<trip>");
  }
  p.status = Status::GameWaiting;
  p.game_name = group.name();
  p.sente.reset();
  log(p.name + " waits for " + group.name() + ", paired at " + when_text(group.next_pairing()));
  publish_league();
  return true;
}

void Lobby::publish_league() {
  if (!hooks_.league || groups_.empty()) return;
  CsaLeagueView view;
  for (const auto& g : groups_) {
    CsaLeagueView::Group v;
    v.name = g->name();
    v.next_pairing = g->next_pairing();
    v.rounds = g->rounds();
    for (const auto& [id, p] : players_) v.waiting += p->status == Status::GameWaiting && p->game_name == g->name();
    if (auto it = last_rounds_.find(g->name()); it != last_rounds_.end()) {
      v.last_round_time = it->second.first;
      v.last_round = it->second.second;
    }
    view.groups.push_back(std::move(v));
  }
  for (const auto& c : config_.floodgate_groups)
    for (auto& v : view.groups)
      if (v.name == c.name) v.schedule = c.schedule.describe();
  view.ratings = ratings_.players;
  hooks_.league(view);
}

void Lobby::refresh_rates() {
  if (!config_.players_file.empty()) {
    auto players = league::read_players(config_.players_file);
    if (!players) {
      log("ratings not read, the ones read before are kept: " + players.error());
      return;
    }
    rates_.clear();
    for (const league::PlayersEntry& e : *players) rates_[e.id] = e.rate;
    rating_rows_ = std::move(*players);
    return;
  }
  if (config_.output_dir.empty()) return;
  start_rating_job(/*beside_games=*/false);
  take_rating_job(true);
}

// The ratings from the results list take seconds for a long list (the whole list is read and fitted again, as
// mk_rate does): on a worker thread, so that the games' clocks and the other players' lines never wait for them.
void Lobby::start_rating_job(bool beside_games) {
  if (!config_.players_file.empty() || config_.output_dir.empty()) return;
  if (rating_job_.valid()) {
    rating_job_again_ = true;
    return;
  }
  league::RatingFiles files;
  files.results_list = config_.results_file.empty() ? config_.output_dir / "00LIST" : config_.results_file;
  files.players_yaml = config_.output_dir / "players.yaml";
  files.ratings_json = config_.output_dir / "ratings.json";
  files.complete_lines_only = beside_games;  // a last line without its newline is the next game's, half written
  auto job = [files, options = config_.rating] {
    RatingJobResult result;
    try {
      result.ratings = league::refresh_ratings(files, options, result.notes);
    } catch (const std::exception& e) {  // out of memory, a file system error: the ratings before are kept
      result.failed = true;
      result.notes.push_back(std::string("ratings not computed, the ones before are kept: ") + e.what());
    }
    return result;
  };
  rating_poll_at_ = std::chrono::steady_clock::now() + RATING_POLL;
  try {
    rating_job_ = std::async(std::launch::async, job);
  } catch (const std::system_error&) {  // no thread to be had: rated here, as before
    std::promise<RatingJobResult> done;
    done.set_value(job());
    rating_job_ = done.get_future();
  }
}

void Lobby::take_rating_job(bool wait) {
  if (!rating_job_.valid()) return;
  if (!wait && rating_job_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
  RatingJobResult result = rating_job_.get();
  if (result.failed)
    for (const std::string& note : result.notes) log(note);
  else
    adopt_ratings(std::move(result.ratings), result.notes);
  if (rating_job_again_) {
    rating_job_again_ = false;
    start_rating_job();
  }
  publish_league();
}

void Lobby::adopt_ratings(league::LeagueRatings ratings, const std::vector<std::string>& notes) {
  for (const std::string& note : notes) log(note);
  ratings_ = std::move(ratings);
  rates_ = ratings_.rates();
  rating_rows_.clear();
  for (const league::LeaguePlayer& p : ratings_.players)
    rating_rows_.push_back(
        {p.id, p.name, p.rating_group == 999 ? 0.0 : p.rate, output::format_local_time(p.last_modified, "%Y-%m-%d")});
}

// A round of a Floodgate group: everyone waiting for it is paired by its factory, with every decision logged.
// The pairing reads the ratings with every game finished before it (waiting for a refresh still running; one
// usually ended long before), or the other server's players.yaml as it is now.
void Lobby::run_round(league::FloodgateGroup& group, SteadyTime now) {
  if (config_.players_file.empty())
    while (rating_job_.valid()) take_rating_job(true);  // the running job, then one for games that ended meanwhile
  else
    refresh_rates();
  const std::map<std::string, double>& rates = rates_;
  std::vector<league::Candidate> waiting;
  std::map<std::string, Player*> by_id;
  for (PlayerId id : logged_in_) {
    Player* q = find(id);
    if (!q || q->status != Status::GameWaiting || q->game_name != group.name() || q->player_id.empty()) continue;
    auto rate = rates.find(q->player_id);
    waiting.push_back({q->player_id, q->name, rate == rates.end() ? 0.0 : rate->second});
    by_id[q->player_id] = q;
  }
  std::vector<std::string> notes;
  const std::string round = group.name() + " round " + std::to_string(group.rounds() + 1);
  league::RoundPlan plan =
      group.pair_round(std::move(waiting), rates, std::chrono::system_clock::now(), league_rng_, notes);
  for (const std::string& note : notes) log(group.name() + ": " + note);
  log(round + ": " + std::to_string(by_id.size()) + " waiting, " + std::to_string(plan.pairs.size()) + " game" +
      (plan.pairs.size() == 1 ? "" : "s") + " by " + plan.factory + "; next pairing at " +
      when_text(group.next_pairing()));
  const std::vector<std::string> decisions = plan.describe();
  for (const std::string& line : decisions) log(round + ": " + line);
  last_rounds_[group.name()] = {std::chrono::system_clock::now(), decisions};
  if (auto file = rounds_log(group); !file.empty())
    std::ofstream(file, std::ios::app) << group.rounds_log_line(plan, std::chrono::system_clock::now()) << "\n";
  const auto gn = parse_game_name(group.name(), config_.max_identifier);
  for (const league::PlannedPair& pair : plan.pairs) {
    Player* black = by_id.at(pair.black.id);
    Player* white = by_id.at(pair.white.id);
    black->sente = true;
    white->sente = false;
    create_game(*black, *white, group.name(), *gn, now, &group.settings());
  }
  publish_league();
}

// shogi-server's %%RATING: every player of the ratings, best first, as "<name> \t <rate> @<date>" (shogi-server
// means to write "<name>+<first 8 of the hash>" but never sets the hash part, so it writes the bare name too).
std::string Lobby::rating_text() const {
  std::vector<const league::PlayersEntry*> rows;
  for (const league::PlayersEntry& e : rating_rows_) rows.push_back(&e);
  std::stable_sort(rows.begin(), rows.end(), [](const auto* a, const auto* b) { return a->rate > b->rate; });
  std::string text;
  char rate[32];
  for (const league::PlayersEntry* e : rows) {
    std::snprintf(rate, sizeof rate, "%4d", int(e->rate));
    text += "##[RATING] " + e->name + " \t " + rate + " @" + e->last_modified.substr(0, 10) + "\n";
  }
  return text + "##[RATING] +OK\n";
}

std::string Lobby::floodgate_lines() const {
  std::string text;
  for (const auto& g : groups_) {
    size_t waiting = 0;
    for (const auto& [id, p] : players_) waiting += p->status == Status::GameWaiting && p->game_name == g->name();
    text += "##[FLOODGATE] " + g->name() + " next " + when_text(g->next_pairing()) + " waiting " +
            std::to_string(waiting) + " rounds " + std::to_string(g->rounds()) + "\n";
  }
  return text + "##[FLOODGATE] +OK\n";
}

}  // namespace arena::csa
