#include "csa/server/lobby.h"

#include <algorithm>
#include <ctime>

#include "csa/server/lobby_parts.h"
#include "csa/server/md5.h"
#include "output/local_time.h"

namespace arena::csa {

using shogi::BLACK;
using shogi::Color;
using shogi::WHITE;

namespace {

constexpr auto ONE_DAY = std::chrono::hours(24);

}  // namespace

Lobby::Lobby(const CsaServerConfig& config, Hooks hooks)
    : config_(config), hooks_(std::move(hooks)), rng_(std::random_device{}()), league_rng_(std::random_device{}()) {
  open_groups();
}

Lobby::~Lobby() = default;

const char* Lobby::status_name(Status s) {
  switch (s) {
    case Status::LoggingIn:
      return "login";
    case Status::Connected:
      return "connected";
    case Status::GameWaiting:
      return "game_waiting";
    case Status::AgreeWaiting:
      return "agree_waiting";
    case Status::StartWaiting:
      return "start_waiting";
    case Status::InGame:
      return "game";
    case Status::Finished:
      return "finished";
  }
  return "";
}

void Lobby::log(const std::string& text) const {
  if (hooks_.log) hooks_.log(text);
}

Lobby::Player* Lobby::find(PlayerId id) {
  auto it = players_.find(id);
  return it == players_.end() ? nullptr : it->second.get();
}

void Lobby::send(Player& p, std::string_view text) {
  if (p.status != Status::Finished && p.conn) p.conn->send(text);
}

Lobby::PlayerId Lobby::connect(std::shared_ptr<Connection> conn, SteadyTime now) {
  auto p = std::make_unique<Player>();
  p->id = next_player_++;
  p->conn = std::move(conn);
  p->login_deadline = now + std::chrono::seconds(config_.login_timeout_s);
  p->last_command_at = now;
  PlayerId id = p->id;
  players_.emplace(id, std::move(p));
  return id;
}

bool Lobby::on_line(PlayerId id, std::string_view line, SteadyTime now) {
  Player* p = find(id);
  if (!p || p->status == Status::Finished) return true;
  if (p->status == Status::LoggingIn) return handle_login(*p, line, now);
  p->last_command_at = now;
  return handle_command(*p, parse_client_command(line), line, now);
}

bool Lobby::handle_login(Player& p, std::string_view line, SteadyTime now) {
  std::string_view body = line;
  if (!body.empty() && body.back() == '\r') {
    body.remove_suffix(1);
    p.eol = "\r\n";
  }
  auto req = parse_login(body, config_.max_identifier);
  if (!req) {
    send(p, "LOGIN:incorrect" + p.eol);
    if (token_count(body) >= 4) send(p, "type 'LOGIN name password' or 'LOGIN name password x1'" + p.eol);
    log("login failed from " + p.conn->peer() + ": " + mask_login(body));
    return false;
  }
  std::string password;
  std::string game_name;
  char turn = '*';
  if (req->x1) {
    password = req->password;
  } else {
    CsaPassword csa = parse_csa_password(req->password, config_.max_identifier);
    password = csa.trip;
    game_name = csa.game_name;
    turn = csa.turn;
  }
  if (auto it = by_name_.find(req->name); it != by_name_.end()) {
    Player* current = find(it->second);
    if (!current || current->status == Status::Finished) {
      by_name_.erase(it);  // defensive: retire() removes finished players from the index
      current = nullptr;
    }
  }
  if (auto it = by_name_.find(req->name); it != by_name_.end()) {
    Player* current = find(it->second);
    if (current->password == password &&
        (current->status != Status::InGame || now - current->last_command_at > ONE_DAY)) {
      // shogi-server lets the same name and password take over a session that is not playing.
      log("player " + req->name + " logs in again from " + p.conn->peer() + ": the former session (" +
          status_name(current->status) + ") is dropped");
      current->conn->close();
      drop(*current, now);
    } else {
      send(p, "LOGIN:incorrect\n");
      if (token_count(body) >= 4) send(p, "username " + req->name + " is already connected\n");
      log("login refused for " + req->name + " from " + p.conn->peer() + ": already connected");
      p.conn->close();
      retire(p);
      return false;
    }
  }
  p.name = req->name;
  p.x1 = req->x1;
  p.password = password;
  if (!password.empty()) p.player_id = p.name + "+" + md5_hex(password);
  p.status = Status::Connected;
  by_name_[p.name] = p.id;
  logged_in_.push_back(p.id);
  send(p, "LOGIN:" + p.name + " OK\n");
  if (p.x1) send(p, "##[LOGIN] +OK x1\n");
  log("login " + p.name + " (" + (p.x1 ? "x1" : "CSA") + ") from " + p.conn->peer());
  // In CSA mode the password names the game: as if the client had sent %%GAME <name> <turn>.
  if (!p.x1) return game_command(p, false, game_name, turn, now);
  return true;
}

// A player's line after login: in-game lines go to the game, the rest is the lobby's (game requests, agreement,
// the x1 listings, logout). Errors are shogi-server's "##[ERROR]" lines; the connection stays.
bool Lobby::handle_command(Player& p, const ClientCommand& cmd, std::string_view line, SteadyTime now) {
  std::string_view body = line;
  if (!body.empty() && body.back() == '\r') body.remove_suffix(1);
  GameEntry* entry = entry_of(p);
  auto to_game = [&] {
    uint64_t key = p.game;
    Outbox out;
    entry->game->on_command(entry->players[BLACK] == p.id ? BLACK : WHITE, cmd, now, out);
    after_game_call(key, out);
  };

  switch (cmd.kind) {
    case ClientCommandKind::KeepAlive:
    case ClientCommandKind::KeepAliveSilent:
      if (cmd.kind == ClientCommandKind::KeepAlive) send(p, "\n");
      if (entry && p.status == Status::InGame) to_game();
      return true;
    case ClientCommandKind::Blank:
    case ClientCommandKind::Ignored:
      return true;
    case ClientCommandKind::Move:
    case ClientCommandKind::Special:
      // Outside a game shogi-server ignores moves and %-commands without a reply.
      if (entry && p.status == Status::InGame) to_game();
      return true;
    case ClientCommandKind::Agree:
    case ClientCommandKind::Reject:
      return agreement_command(p, cmd.kind == ClientCommandKind::Agree, now);
    case ClientCommandKind::GameCancel:
      if (p.status != Status::Connected && p.status != Status::GameWaiting)
        return error(p, std::string("you are in ") + status_name(p.status) +
                            " status. GAME is valid in connected or game_waiting status");
      p.status = Status::Connected;
      p.game_name.clear();
      return true;
    case ClientCommandKind::Game:
    case ClientCommandKind::Challenge:
      return game_command(p, cmd.kind == ClientCommandKind::Challenge, cmd.text, cmd.turn, now);
    case ClientCommandKind::MissingTurn:
      return error(p, "A turn identifier is required: " + std::string(body));
    case ClientCommandKind::Who:
    case ClientCommandKind::List:
    case ClientCommandKind::Show:
    case ClientCommandKind::Chat:
    case ClientCommandKind::Help:
    case ClientCommandKind::Version:
    case ClientCommandKind::Rating:
    case ClientCommandKind::Floodgate:
      x1_info_command(p, cmd);
      return true;
    case ClientCommandKind::Logout:
      send(p, "LOGOUT:completed\n");
      log("logout " + p.name);
      p.conn->close();
      drop(p, now);
      return true;
    case ClientCommandKind::CsaChallenge:
      send(p, "CHALLENGE ACCEPTED\n");
      return true;
    case ClientCommandKind::Unsupported:
      return error(p, "command not supported by this server: " + std::string(body));
    case ClientCommandKind::Unknown:
      return error(p, "unknown command: " + mask_login(body));
  }
  return true;
}

Lobby::GameEntry* Lobby::entry_of(const Player& p) {
  if (!p.game) return nullptr;
  auto it = games_.find(p.game);
  return it != games_.end() ? it->second.get() : nullptr;
}

bool Lobby::error(Player& p, const std::string& text) {
  send(p, "##[ERROR] " + text + "\n");
  return false;
}

// AGREE or REJECT of the game proposed: the game starts when both sides agreed; a reject ends it for both.
bool Lobby::agreement_command(Player& p, bool agree, SteadyTime now) {
  GameEntry* entry = entry_of(p);
  if (p.status != Status::AgreeWaiting || !entry)
    return error(p, std::string("you are in ") + status_name(p.status) + " status. " + (agree ? "AGREE" : "REJECT") +
                        " is valid in agree_waiting status");
  Outbox out;
  if (!agree) {
    entry->game->reject(p.name, out);
    after_game_call(p.game, out);
    return true;
  }
  p.status = Status::StartWaiting;
  Player* b = find(entry->players[BLACK]);
  Player* w = find(entry->players[WHITE]);
  if (b && w && b->status == Status::StartWaiting && w->status == Status::StartWaiting) {
    b->status = w->status = Status::InGame;
    entry->game->start(now, out);
    log("game started " + entry->game->setup().game_id);
    after_game_call(p.game, out);
  }
  return true;
}

// The x1 (extended mode) commands that list or tell: %%WHO, %%LIST, %%SHOW, %%CHAT, %%HELP, %%VERSION, %%RATING.
void Lobby::x1_info_command(Player& p, const ClientCommand& cmd) {
  std::string text;
  switch (cmd.kind) {
    case ClientCommandKind::Who:
      for (PlayerId id : logged_in_)
        if (Player* q = find(id)) text += "##[WHO] " + who_line(*q) + "\n";
      text += "##[WHO] +OK\n";
      break;
    case ClientCommandKind::List:
      for (auto& [key, g] : games_) text += "##[LIST] " + g->game->setup().game_id + "\n";
      text += "##[LIST] +OK\n";
      break;
    case ClientCommandKind::Show:
      for (auto& [key, g] : games_) {
        if (g->game->setup().game_id != cmd.text) continue;
        const std::string shown = g->game->show();
        for (size_t start = 0; start < shown.size();) {
          const size_t end = shown.find('\n', start);
          text += "##[SHOW] " + shown.substr(start, end - start) + "\n";
          start = end == std::string::npos ? shown.size() : end + 1;
        }
      }
      text += "##[SHOW] +OK\n";
      break;
    case ClientCommandKind::Chat:
      for (PlayerId id : logged_in_)
        if (Player* q = find(id); q && q->x1) send(*q, "##[CHAT][" + p.name + "] " + cmd.text + "\n");
      return;
    case ClientCommandKind::Help:
      text =
          "##[HELP] available commands \"%%WHO\", \"%%CHAT str\", \"%%GAME game_name +\", "
          "\"%%GAME game_name -\"\n";
      break;
    case ClientCommandKind::Version:
      text = "##[VERSION] shogi-arena CSA server (shogi-server protocol)\n##[VERSION] +OK\n";
      break;
    case ClientCommandKind::Rating:
      text = rating_text();
      break;
    case ClientCommandKind::Floodgate:
      text = floodgate_lines();
      break;
    default:
      return;
  }
  send(p, text);
}

std::string Lobby::who_line(const Player& p) const {
  std::string s =
      (p.player_id.empty() ? p.name : p.player_id) + " " + (p.x1 ? "x1" : "CSA") + " " + status_name(p.status);
  if (p.status == Status::GameWaiting || p.status == Status::AgreeWaiting || p.status == Status::StartWaiting ||
      p.status == Status::InGame)
    s += " " + p.game_name + " " + (p.sente ? (*p.sente ? "+" : "-") : "*");
  return s;
}

bool Lobby::game_command(Player& p, bool challenge, const std::string& name, char turn, SteadyTime now) {
  auto error = [&](const std::string& text) {
    send(p, "##[ERROR] " + text + "\n");
    return false;
  };
  if (stopping_) return error("As the service is going to shutdown shortly, starting new games is not allowed now.");
  auto gn = parse_game_name(name, config_.max_identifier);
  if (!gn) {
    send(p, "##[ERROR] bad game name: " + name + ".\n");
    if (has_game_name_shape(name)) return error("invalid identifiers are found or too many characters are used.");
    return error("game name should consist of three parts like game-1500-60.");
  }
  if (p.status != Status::Connected && p.status != Status::GameWaiting)
    return error(std::string("you are in ") + status_name(p.status) +
                 " status. GAME is valid in connected or game_waiting status");
  if (gn->stop_watch)
    return error("stop-watch game names (a byoyomi part with a leading zero) are not supported: " + name);
  if (is_floodgate_game_name(name) && turn != '*')
    return error(std::string("You are not allowed to specify TEBAN ") + turn + " for the game " + name);
  std::optional<bool> sente;
  if (turn == '+') sente = true;
  if (turn == '-') sente = false;
  if (league::FloodgateGroup* group = group_of(name)) return wait_for_round(p, challenge, *group);
  if (!sente && handicap_sfen(name)) return error("Random turn preference is not allowed for handicapped games");
  p.sente = sente;

  // The first waiting player (in login order) for the same game whose preference fits.
  Player* rival = nullptr;
  for (PlayerId id : logged_in_) {
    Player* q = find(id);
    if (!q || q == &p || q->status != Status::GameWaiting || q->game_name != name) continue;
    if (sente && q->sente && *q->sente == *sente) continue;
    rival = q;
    break;
  }
  if (!rival) {
    if (challenge) {
      p.status = Status::Connected;
      p.game_name.clear();
      p.sente.reset();
      return error("can't find rival for " + name);
    }
    p.status = Status::GameWaiting;
    p.game_name = name;
    log(p.name + " waits for " + name + " " + turn);
    return true;
  }
  p.game_name = name;
  // shogi-server's decide_turns: the waiting player's preference wins, two '*' toss a coin.
  if (turn == '*' && !rival->sente) {
    bool heads = std::uniform_int_distribution<int>(0, 1)(rng_) == 0;
    p.sente = heads;
    rival->sente = !heads;
  } else if (rival->sente) {
    p.sente = !*rival->sente;
  } else {
    rival->sente = !*p.sente;
  }
  create_game(p, *rival, name, *gn, now);
  return true;
}

std::string Lobby::issue_timestamp() {
  // Strictly increasing seconds keep Game_IDs unique even when many games start within one second.
  int64_t now = std::time(nullptr);
  if (now <= last_timestamp_) now = last_timestamp_ + 1;
  last_timestamp_ = now;
  return output::format_local_time(std::chrono::system_clock::from_time_t(std::time_t(now)), "%Y%m%d%H%M%S");
}

void Lobby::create_game(Player& p1, Player& p2, const std::string& name, const GameName& gn, SteadyTime now,
                        const league::GroupSettings* group) {
  Player& black = *p1.sente ? p1 : p2;
  Player& white = *p1.sente ? p2 : p1;
  GameSetup setup;
  setup.game_name = name;
  setup.names[BLACK] = black.name;
  setup.names[WHITE] = white.name;
  setup.list_names[BLACK] = black.player_id.empty() ? black.name : black.player_id;
  setup.list_names[WHITE] = white.player_id.empty() ? white.name : white.player_id;
  for (Color c : {BLACK, WHITE})
    if (auto rate = rates_.find(setup.list_names[c]); rate != rates_.end()) setup.rates[c] = rate->second;
  setup.total_s = gn.total_s;
  setup.byoyomi_s = gn.byoyomi_s;
  setup.increment_s = gn.increment_s;
  // A Floodgate group's settings always reach its games, whatever the server's own (as on Floodgate).
  setup.least_time_per_move_s = group ? group->least_time_per_move : config_.least_time_per_move;
  setup.max_moves = group ? group->max_moves : config_.max_moves;
  if (auto sfen = handicap_sfen(name)) {
    setup.position = "sfen " + *sfen;
  } else if (config_.position_for) {
    if (auto pos = config_.position_for(name)) setup.position = *pos;
  }
  setup.game_id = config_.event + "+" + name + "+" + black.name + "+" + white.name + "+" + issue_timestamp();
  auto game = ServerGame::create(setup, std::chrono::system_clock::now());
  if (!game) {
    log("cannot create game " + setup.game_id + ": " + game.error());
    for (Player* q : {&black, &white}) {
      send(*q, "##[ERROR] cannot start " + name + ": " + game.error() + "\n");
      q->status = Status::Connected;
      q->game_name.clear();
    }
    return;
  }
  auto entry = std::make_unique<GameEntry>();
  entry->game = std::move(*game);
  entry->players[BLACK] = black.id;
  entry->players[WHITE] = white.id;
  entry->expires = now + std::chrono::seconds(config_.agree_timeout_s);
  uint64_t key = next_game_++;
  black.game = white.game = key;
  black.status = white.status = Status::AgreeWaiting;
  send(black, entry->game->summary(BLACK));
  send(white, entry->game->summary(WHITE));
  log("game created " + setup.game_id);
  games_.emplace(key, std::move(entry));
}

void Lobby::deliver(GameEntry& entry, Outbox& out) {
  for (Color c : {BLACK, WHITE}) {
    if (out.to[c].empty()) continue;
    if (Player* q = find(entry.players[c]); q && q->game != 0) send(*q, out.to[c]);
    out.to[c].clear();
  }
}

void Lobby::after_game_call(uint64_t key, Outbox& out) {
  auto it = games_.find(key);
  if (it == games_.end()) return;
  deliver(*it->second, out);
  GameEntry& entry = *it->second;
  if (hooks_.game_progress && entry.game->started() && !entry.game->rejected() &&
      entry.reported_moves != entry.game->moves().size()) {
    entry.reported_moves = entry.game->moves().size();
    hooks_.game_progress(*entry.game);
  }
  if (it->second->game->finished()) finish_game(key);
}

void Lobby::finish_game(uint64_t key) {
  auto it = games_.find(key);
  if (it == games_.end()) return;
  std::unique_ptr<GameEntry> entry = std::move(it->second);
  games_.erase(it);
  const ServerGame& g = *entry->game;
  if (g.rejected()) {
    log("game rejected " + g.setup().game_id);
  } else {
    log("game finished " + g.setup().game_id + " " + summary_type(g.outcome().kind) +
        (g.outcome().detail.empty() ? "" : " (" + g.outcome().detail + ")"));
    if (hooks_.game_finished) hooks_.game_finished(g);
    if (league::FloodgateGroup* group = group_of(g.setup().game_name)) {
      std::optional<bool> black_won;
      if (g.outcome().winner) black_won = *g.outcome().winner == BLACK;
      group->record_game(g.setup().list_names[BLACK], g.setup().list_names[WHITE], black_won);
      // The round's last game: another server's players.yaml is read again for the page and %%RATING.
      const bool round_over = std::none_of(games_.begin(), games_.end(), [&](const auto& e) {
        return e.second->game->setup().game_name == group->name();
      });
      if (round_over && !config_.players_file.empty()) {
        refresh_rates();
        publish_league();
      }
    }
    // Every listed game counts in the server's own ratings (mk_rate rates the whole list): rated again beside the
    // games, so that the next round, the page and players.yaml have it, even while long games of a round go on.
    if (!groups_.empty()) start_rating_job();
  }
  for (PlayerId id : entry->players) {
    Player* q = find(id);
    if (!q || q->game != key) continue;
    q->game = 0;
    if (q->status == Status::Finished) continue;
    q->status = Status::Connected;
    // CSA mode is one game per connection; x1 goes back to the lobby.
    if (!q->x1) {
      q->conn->close();
      retire(*q);
    }
  }
}

void Lobby::retire(Player& p) {
  if (p.status != Status::LoggingIn && p.status != Status::Finished) {
    if (auto it = by_name_.find(p.name); it != by_name_.end() && it->second == p.id) by_name_.erase(it);
    std::erase(logged_in_, p.id);
  }
  p.status = Status::Finished;
}

void Lobby::drop(Player& p, SteadyTime now) {
  uint64_t key = p.game;
  const bool left_a_group = p.status == Status::GameWaiting && group_of(p.game_name);
  retire(p);
  if (left_a_group) publish_league();
  // A player who leaves a running game off turn stays out of it: the game ends when the survivor acts.
  p.game = 0;
  auto it = games_.find(key);
  if (key == 0 || it == games_.end()) return;
  GameEntry& entry = *it->second;
  Outbox out;
  Color c = entry.players[BLACK] == p.id ? BLACK : WHITE;
  if (!entry.game->started())
    entry.game->reject(p.name, out);
  else
    entry.game->on_disconnect(c, now, out);
  after_game_call(key, out);
}

void Lobby::on_disconnect(PlayerId id, SteadyTime now) {
  Player* p = find(id);
  if (!p) return;
  if (p->status != Status::Finished && p->status != Status::LoggingIn)
    log("disconnected " + p->name + " (" + status_name(p->status) + ")");
  drop(*p, now);
  players_.erase(id);
}

void Lobby::on_timer(SteadyTime now) {
  take_rating_job(false);
  if (rating_job_.valid() && now >= rating_poll_at_) rating_poll_at_ = now + RATING_POLL;
  std::vector<uint64_t> keys;
  for (auto& [key, entry] : games_) keys.push_back(key);
  for (uint64_t key : keys) {
    auto it = games_.find(key);
    if (it == games_.end()) continue;
    GameEntry& entry = *it->second;
    Outbox out;
    if (!entry.game->started()) {
      if (now >= entry.expires) {
        log("agreement timed out for " + entry.game->setup().game_id);
        entry.game->reject("the Server (timed out)", out);
      }
    } else {
      entry.game->on_timer(now, out);
    }
    after_game_call(key, out);
  }
  for (auto& [id, p] : players_) {
    if (p->status == Status::LoggingIn && now >= p->login_deadline) {
      log("no LOGIN from " + p->conn->peer() + " within " + std::to_string(config_.login_timeout_s) + " s");
      p->conn->close();
      retire(*p);
    }
  }
  const auto wall = std::chrono::system_clock::now();
  for (auto& group : groups_)
    if (!stopping_ && group->next_pairing() && *group->next_pairing() <= wall) run_round(*group, now);
}

std::optional<SteadyTime> Lobby::next_deadline() const {
  std::optional<SteadyTime> next;
  auto consider = [&](SteadyTime t) {
    if (!next || t < *next) next = t;
  };
  for (auto& [key, entry] : games_) {
    if (!entry->game->started())
      consider(entry->expires);
    else if (auto d = entry->game->deadline())
      consider(*d);
  }
  for (auto& [id, p] : players_)
    if (p->status == Status::LoggingIn) consider(p->login_deadline);
  if (rating_job_.valid()) consider(rating_poll_at_);
  if (!groups_.empty() && !stopping_) {
    // Rounds are set in wall-clock time (a schedule says "Thu 22:00"); the timer runs on the steady clock.
    const auto wall = std::chrono::system_clock::now();
    const auto steady = std::chrono::steady_clock::now();
    for (const auto& group : groups_)
      if (auto t = group->next_pairing())
        consider(steady + std::chrono::duration_cast<std::chrono::steady_clock::duration>(*t - wall));
  }
  return next;
}

void Lobby::shutdown(SteadyTime now) {
  stopping_ = true;
  std::vector<uint64_t> keys;
  for (auto& [key, entry] : games_) keys.push_back(key);
  for (uint64_t key : keys) {
    auto it = games_.find(key);
    if (it == games_.end()) continue;
    Outbox out;
    if (it->second->game->started())
      it->second->game->abort(out);
    else
      it->second->game->reject("the Server (shutdown)", out);
    after_game_call(key, out);
  }
  for (auto& [id, p] : players_) {
    if (p->status != Status::Finished) p->conn->close();
    retire(*p);
  }
  // The ratings with the games just stopped, before the server goes: players.yaml is read by others between runs.
  while (rating_job_.valid()) take_rating_job(true);
  (void)now;
}

}  // namespace arena::csa
