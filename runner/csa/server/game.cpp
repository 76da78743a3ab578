#include "csa/server/game.h"

#include <algorithm>
#include <climits>

#include "csa/server/board.h"
#include "rules/notation.h"
#include "rules/position.h"

namespace arena::csa {

using shogi::BLACK;
using shogi::Color;
using shogi::WHITE;

namespace {

constexpr size_t MAX_DEFERRED = 256;  // lines queued before their turn, per player

char sign(Color c) { return c == BLACK ? '+' : '-'; }

int64_t elapsed_ms(SteadyTime from, SteadyTime to) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(to - from).count();
}

// The lines of §6 that follow the echo (if any), for the winner and the loser; a draw sends `both`.
struct EndLines {
  const char* both = nullptr;
  const char* winner = nullptr;
  const char* loser = nullptr;
};

EndLines end_lines(GameEndKind kind) {
  switch (kind) {
    case GameEndKind::Resign:
    case GameEndKind::Abnormal:
      return {nullptr, "%TORYO\n#RESIGN\n#WIN\n", "%TORYO\n#RESIGN\n#LOSE\n"};
    case GameEndKind::TimeUp:
      return {nullptr, "#TIME_UP\n#WIN\n", "#TIME_UP\n#LOSE\n"};
    case GameEndKind::IllegalMove:
    case GameEndKind::Uchifuzume:
    case GameEndKind::SelfCheck:
      return {nullptr, "#ILLEGAL_MOVE\n#WIN\n", "#ILLEGAL_MOVE\n#LOSE\n"};
    case GameEndKind::Kachi:
      return {nullptr, "%KACHI\n#JISHOGI\n#WIN\n", "%KACHI\n#JISHOGI\n#LOSE\n"};
    case GameEndKind::IllegalKachi:
      return {nullptr, "%KACHI\n#ILLEGAL_MOVE\n#WIN\n", "%KACHI\n#ILLEGAL_MOVE\n#LOSE\n"};
    case GameEndKind::OuteSennichite:
      return {nullptr, "#OUTE_SENNICHITE\n#WIN\n", "#OUTE_SENNICHITE\n#LOSE\n"};
    case GameEndKind::Sennichite:
      return {"#SENNICHITE\n#DRAW\n"};
    case GameEndKind::MaxMoves:
      return {"#MAX_MOVES\n#CENSORED\n"};
    case GameEndKind::Chudan:
      return {"#CHUDAN\n"};
    case GameEndKind::None:
      break;
  }
  return {};
}

// An illegal move's reason (from the rules library) decides shogi-server's finer result types.
GameEndKind illegal_kind(const std::string& reason) {
  if (reason.find("uchifuzume") != std::string::npos) return GameEndKind::Uchifuzume;
  if (reason.find("leaves the king in check") != std::string::npos) return GameEndKind::SelfCheck;
  return GameEndKind::IllegalMove;
}

}  // namespace

const char* summary_type(GameEndKind kind) {
  switch (kind) {
    case GameEndKind::None:
      return "";
    case GameEndKind::Resign:
      return "toryo";
    case GameEndKind::Abnormal:
      return "abnormal";
    case GameEndKind::TimeUp:
      return "time up";
    case GameEndKind::IllegalMove:
      return "illegal move";
    case GameEndKind::Uchifuzume:
      return "uchifuzume";
    case GameEndKind::SelfCheck:
      return "oute_kaihimore";
    case GameEndKind::Kachi:
      return "kachi";
    case GameEndKind::IllegalKachi:
      return "illegal kachi";
    case GameEndKind::Sennichite:
      return "sennichite";
    case GameEndKind::OuteSennichite:
      return "oute_sennichite";
    case GameEndKind::MaxMoves:
      return "max_moves";
    case GameEndKind::Chudan:
      return "chudan";
  }
  return "";
}

ServerGame::~ServerGame() = default;

std::expected<std::unique_ptr<ServerGame>, std::string> ServerGame::create(GameSetup setup, SystemTime now) {
  shogi::Position::init();
  std::unique_ptr<ServerGame> g(new ServerGame());
  if (auto ok = g->record_.start(setup.position); !ok)
    return std::unexpected("start position '" + setup.position + "': " + ok.error());
  g->start_sfen_ = g->record_.start_sfen();
  {
    shogi::Position start;
    shogi::StateInfo si;
    (void)start.set(g->start_sfen_, &si);
    g->start_board_ = csa_board_text(start);
  }
  for (shogi::Move m : g->record_.moves()) g->moves_.push_back({shogi::to_csa(m), 1, "", true});
  if (!g->moves_.empty()) g->last_move_ = g->moves_.back().csa + ",T1";
  TimeRule rule;
  rule.total_ms = int64_t(setup.total_s) * 1000;
  rule.byoyomi_ms = int64_t(setup.byoyomi_s) * 1000;
  rule.increment_ms = int64_t(setup.increment_s) * 1000;
  rule.least_ms = int64_t(setup.least_time_per_move_s) * 1000;
  g->clock_ = CsaClock(rule, rule);
  g->turn_ = g->record_.position().side_to_move();
  g->setup_ = std::move(setup);
  g->created_ = now;
  return g;
}

std::string ServerGame::summary(Color recipient) const {
  const GameSetup& s = setup_;
  std::string out;
  out.reserve(1024);
  out += "BEGIN Game_Summary\nProtocol_Version:1.2\nProtocol_Mode:Server\nFormat:Shogi 1.0\n";
  out += "Declaration:Jishogi 1.1\n";
  out += "Game_ID:" + s.game_id + "\n";
  out += "Name+:" + s.names[BLACK] + "\n";
  out += "Name-:" + s.names[WHITE] + "\n";
  out += std::string("Your_Turn:") + sign(recipient) + "\n";
  out += "Rematch_On_Draw:NO\n";
  out += to_move_and_clock_lines();
  out += "END Time\nBEGIN Position\n";
  out += start_board_;
  for (const ServerMove& m : moves_)
    if (m.initial) out += m.csa + ",T1\n";
  out += "END Position\nEND Game_Summary\n";
  return out;
}

// The lines from To_Move to Least_Time_Per_Move that the Game_Summary and %%SHOW share.
std::string ServerGame::to_move_and_clock_lines() const {
  const GameSetup& s = setup_;
  std::string out = std::string("To_Move:") + sign(record_.position().side_to_move()) + "\n";
  out += "Max_Moves:" + std::to_string(s.max_moves) + "\n";
  out += "BEGIN Time\nTime_Unit:1sec\n";
  out += "Total_Time:" + std::to_string(s.total_s) + "\n";
  out += "Byoyomi:" + std::to_string(s.byoyomi_s) + "\n";
  out += "Increment:" + std::to_string(s.increment_s) + "\n";
  out += "Least_Time_Per_Move:" + std::to_string(s.least_time_per_move_s) + "\n";
  return out;
}

std::string ServerGame::show() const {
  const GameSetup& s = setup_;
  std::string out;
  out += "BEGIN Game_Summary\nProtocol_Version:1.2\nProtocol_Mode:Server\nFormat:Shogi 1.0\n";
  out += "Declaration:Jishogi 1.1\n";
  out += "Game_ID:" + s.game_id + "\n";
  out += "Name+:" + s.names[BLACK] + "\n";
  out += "Name-:" + s.names[WHITE] + "\n";
  out += "Rematch_On_Draw:NO\n";
  out += to_move_and_clock_lines();
  out += "Remaining_Time+:" + std::to_string(clock_.remaining_ms(BLACK) / 1000) + "\n";
  out += "Remaining_Time-:" + std::to_string(clock_.remaining_ms(WHITE) / 1000) + "\n";
  out += "Last_Move:" + last_move_ + "\n";
  out += "Current_Turn:" + std::to_string(moves_.size()) + "\n";
  out += "END Time\nBEGIN Position\n";
  out += csa_board_text(record_.position());
  out += "END Position\nEND Game_Summary\n";
  return out;
}

void ServerGame::start(SteadyTime now, Outbox& out) {
  if (started_ || finished()) return;
  started_ = true;
  out.both("START:" + setup_.game_id + "\n");
  turn_start_ = now;
}

void ServerGame::reject(std::string_view who, Outbox& out) {
  if (finished()) return;
  rejected_ = true;
  std::string line = "REJECT:" + setup_.game_id + " by " + std::string(who) + "\n";
  out.both(line);
  end_time_ = std::chrono::system_clock::now();
}

std::optional<SteadyTime> ServerGame::deadline() const {
  if (!started_ || finished()) return std::nullopt;
  const TimeRule& rule = clock_.rule(turn_);
  auto budget = clock_.budget_ms(turn_);
  if (!budget) return std::nullopt;
  // The first elapsed time whose charge reaches the budget: charged = max(floor(e / unit) * unit, least).
  int64_t unit = std::max<int64_t>(rule.unit_ms, 1);
  int64_t flag_ms = rule.least_ms >= *budget ? 0 : (*budget + unit - 1) / unit * unit;
  return turn_start_ + std::chrono::milliseconds(flag_ms);
}

void ServerGame::on_command(Color from, const ClientCommand& cmd, SteadyTime now, Outbox& out) {
  if (!started_ || finished()) return;
  bool keep_alive = cmd.kind == ClientCommandKind::KeepAlive || cmd.kind == ClientCommandKind::KeepAliveSilent;
  if (!keep_alive && cmd.kind != ClientCommandKind::Move && cmd.kind != ClientCommandKind::Special) return;
  // shogi-server drops a move equal to the last echoed one before anything else (a client's double send).
  if (cmd.kind == ClientCommandKind::Move && !last_move_.empty() &&
      last_move_.substr(0, last_move_.find(',')) == cmd.text)
    return;
  if (from != turn_) {
    // Bounded, unlike shogi-server: a client trickling lines below the flood limit cannot grow it forever.
    if (!keep_alive && deferred_[from].size() < MAX_DEFERRED) deferred_[from].push_back(cmd);
    return;
  }
  play_turn(cmd, now, out);
  play_deferred(out);
}

void ServerGame::play_deferred(Outbox& out) {
  while (!finished() && !deferred_[turn_].empty()) {
    ClientCommand cmd = std::move(deferred_[turn_].front());
    deferred_[turn_].pop_front();
    if (cmd.kind == ClientCommandKind::Move && !last_move_.empty() &&
        last_move_.substr(0, last_move_.find(',')) == cmd.text)
      continue;
    // Played the moment its turn starts.
    play_turn(cmd, turn_start_, out);
  }
}

void ServerGame::on_timer(SteadyTime now, Outbox& out) {
  if (!started_ || finished()) return;
  auto flag = deadline();
  if (!flag || now < *flag) return;
  ClientCommand silent;
  silent.kind = ClientCommandKind::KeepAliveSilent;
  play_turn(silent, now, out);
}

void ServerGame::on_disconnect(Color who, SteadyTime, Outbox& out) {
  if (!started_ || finished() || gone_[who]) return;
  gone_[who] = true;
  deferred_[who].clear();
  // Off turn, shogi-server lets the game run until the survivor acts (see play_turn).
  if (who == turn_)
    finish(GameEndKind::Abnormal, ~who, std::string(who == BLACK ? "black" : "white") + " disconnected on its turn",
           out);
}

void ServerGame::abort(Outbox& out) {
  if (!started_ || finished()) return;
  finish(GameEndKind::Chudan, std::nullopt, "the server stopped the game", out);
}

void ServerGame::play_turn(const ClientCommand& cmd, SteadyTime now, Outbox& out) {
  Color us = turn_, them = ~us;
  bool keep_alive = cmd.kind == ClientCommandKind::KeepAlive || cmd.kind == ClientCommandKind::KeepAliveSilent;
  std::string gone_detail = std::string(them == BLACK ? "black" : "white") + " disconnected";
  CsaClock::Verdict verdict = clock_.judge(us, elapsed_ms(turn_start_, now));
  if (verdict.time_up) {
    if (gone_[them]) return finish(GameEndKind::Abnormal, us, gone_detail, out);
    return finish(GameEndKind::TimeUp, them, "", out);
  }
  if (keep_alive) return;
  clock_.apply(us, verdict.charged_ms);
  int64_t t = verdict.charged_ms / 1000;

  if (cmd.kind == ClientCommandKind::Special) {
    if (cmd.special == SpecialKind::Toryo) {
      if (gone_[them]) return finish(GameEndKind::Abnormal, us, gone_detail, out);
      return finish(GameEndKind::Resign, them, "", out);
    }
    if (cmd.special == SpecialKind::Kachi) {
      out.both("%KACHI,T" + std::to_string(t) + "\n");
      if (gone_[them]) return finish(GameEndKind::Abnormal, us, gone_detail, out);
      shogi::DeclarationCheck check = shogi::check_declaration(record_.position(), shogi::EnteringKingRule::Point27);
      if (check.valid) return finish(GameEndKind::Kachi, us, "", out);
      return finish(GameEndKind::IllegalKachi, them, check.reason, out);
    }
    illegal_line_ = cmd.text;
    if (gone_[them]) return finish(GameEndKind::Abnormal, us, gone_detail, out);
    return finish(GameEndKind::IllegalMove, them, cmd.text + ": not a command a player may send", out);
  }

  auto move = shogi::parse_csa_move(record_.position(), cmd.text);
  if (!move) {
    illegal_line_ = cmd.text;
    if (gone_[them]) return finish(GameEndKind::Abnormal, us, gone_detail, out);
    return finish(illegal_kind(move.error()), them, move.error(), out);
  }
  record_.play(*move);
  last_move_ = cmd.text + ",T" + std::to_string(t);
  out.both(last_move_ + "\n");
  moves_.push_back({cmd.text, t, cmd.comment ? "'*" + *cmd.comment : std::string(), false});

  if (gone_[them]) return finish(GameEndKind::Abnormal, us, gone_detail, out);
  // After the move `them` is to move: Win means `us` checked on every move of the cycle and loses.
  switch (record_.position().repetition(4, INT_MAX)) {
    case shogi::Repetition::Draw:
      return finish(GameEndKind::Sennichite, std::nullopt, "", out);
    case shogi::Repetition::Win:
      return finish(GameEndKind::OuteSennichite, them, "", out);
    case shogi::Repetition::Loss:
      return finish(GameEndKind::OuteSennichite, us, "", out);
    case shogi::Repetition::None:
      break;
  }
  if (setup_.max_moves > 0 && int(moves_.size()) >= setup_.max_moves)
    return finish(GameEndKind::MaxMoves, std::nullopt, "", out);
  turn_ = them;
  turn_start_ = now;
}

void ServerGame::finish(GameEndKind kind, std::optional<Color> winner, std::string detail, Outbox& out) {
  outcome_ = {kind, winner, std::move(detail)};
  end_time_ = std::chrono::system_clock::now();
  EndLines lines = end_lines(kind);
  if (lines.both) {
    out.both(lines.both);
  } else if (winner) {
    out.to[*winner] += lines.winner;
    out.to[~*winner] += lines.loser;
  }
  deferred_[BLACK].clear();
  deferred_[WHITE].clear();
}

}  // namespace arena::csa
