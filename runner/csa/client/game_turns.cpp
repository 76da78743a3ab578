// A CSA game under way (client_game.h): the server's lines (moves, their echoes, the end), our turn from the
// clocks to the move sent, pondering on the predicted reply, and an engine restarted when it fails.

#include "csa/client/answer.h"
#include "csa/client/client_game.h"
#include "csa/client/relayed_move.h"
#include "game/record_info.h"
#include "output/record_common.h"
#include "rules/movegen.h"
#include "rules/notation.h"

namespace arena::csa {

void ClientGame::play() {
  while (!end_.finished() && !conn_.closed()) {
    Color stm = game_.position().side_to_move();
    if (!desync_ && awaiting_ == Awaiting::Nothing && stm == us_) {
      our_turn();
      continue;
    }
    if (ponder_pending_) {
      ponder_pending_ = false;
      // A result or the opponent's reply already here makes pondering pointless.
      LinkEvent e = conn_.poll();
      if (e.kind == LinkEvent::Kind::Line) {
        process(e);
        continue;
      }
      if (e.kind == LinkEvent::Kind::Closed) break;
      start_ponder();
    }
    if (engine_broken_ && !pondering_) {
      blocking([&] { restart_engine("it did not answer in time"); });
      continue;  // the lines read meanwhile may have made it our turn
    }
    Deadline until = Clock::now() + LONG_WAIT;
    if (desync_ && awaiting_ == Awaiting::Nothing) until = desync_deadline_;
    LinkEvent e = conn_.receive(until);
    if (e.kind == LinkEvent::Kind::Line) {
      process(e);
    } else if (e.kind == LinkEvent::Kind::Timeout && desync_ && awaiting_ == Awaiting::Nothing &&
               Clock::now() >= desync_deadline_) {
      resign("the server accepted a move our rules reject and gave no verdict; the position is unknown");
    }
  }
}

void ClientGame::process(const LinkEvent& e) {
  auto msg = parse_server_line(e.text);
  if (!msg) {
    warn("ignoring a garbled line: " + msg.error());
    return;
  }
  switch (msg->kind) {
    case MessageKind::Empty:
      return;  // the server's answer to a keep-alive
    case MessageKind::Move:
      on_move(*msg, e.time);
      return;
    case MessageKind::Resign:
    case MessageKind::Declare:
    case MessageKind::OtherSpecial:
    case MessageKind::GameEnd:
      end_lines_ += (end_lines_.empty() ? "" : " ") + e.text;
      end_.feed(*msg);
      return;
    default:
      warn("unexpected line during the game: " + e.text);
      return;
  }
}

// A move relayed by the server (client/relayed_move.h), then what it means for the record, the turn and pondering.
void ClientGame::on_move(const Message& m, Clock::time_point time) {
  if (end_.finished()) return;
  if (desync_) {
    warn("move " + m.text + " after a move our rules rejected: ignored");
    return;
  }
  RelayedMove r = take_relayed_move(m, us_, awaiting_ == Awaiting::Echo ? sent_move_ : std::string(), game_, clock_,
                                    millis(time - last_move_time_));
  for (const auto& w : r.warnings) warn(w);
  const Color mover = r.mover;
  if (r.kind == RelayedMove::Kind::Ignored) return;
  if (r.kind == RelayedMove::Kind::Rejected) {
    report_.record.illegal_move_text = m.text;
    warn("the server relayed " + m.text + ", which our rules reject (" + r.rejection +
         "); waiting for the server's verdict");
    desync_ = true;
    desync_deadline_ = desync_deadline(clock_, us_, settings_, time);
    if (mover == us_) awaiting_ = Awaiting::Nothing;
    stop_search();
    return;
  }
  last_move_time_ = time;
  MoveRecord mr;
  mr.move = r.move;
  mr.time_ms = r.time_ms;
  if (mover == us_) {
    mr.info = sent_info_;
    awaiting_ = Awaiting::Nothing;
    ponder_pending_ = settings_.ponder && !ponder_move_.empty();
  } else {
    turn_start_ = time;
    if (pondering_) {
      if (shogi::to_usi(r.move) == pondered_move_ && engine_.running()) {
        engine_.usi().ponder_hit();
        pondering_ = false;
        ponder_hit_ = true;
        report_.line_to_go_us.push_back(micros(time, engine_.usi().ponderhit_time()));
      } else {
        stop_search();
      }
    }
  }
  report_.record.moves.push_back(std::move(mr));
  publish(mover == us_ ? "their turn" : "our turn");
}

// Our move: think, decide, send.
void ClientGame::our_turn() {
  if (stop_ && stop_->load() && settings_.resign_on_stop) return resign("stop requested");
  publish("our turn");
  bool clean = true;  // the go is sent in direct answer to the server's line (a latency sample)
  if (!ponder_hit_ && (engine_broken_ || !engine_.running())) {
    clean = false;
    if (!restart_engine(engine_broken_ ? "it did not answer in time" : "it is not running"))
      return resign("the engine cannot be started");
  }

  const auto [stop_at, emergency] = turn_deadlines(clock_, us_, settings_, turn_start_);

  usi::SearchInfo info;
  usi::SearchResult result;
  bool answered = false;
  bool restarted = false;
  bool need_go = !ponder_hit_;
  ponder_hit_ = false;
  while (true) {
    if (need_go) {
      need_go = false;
      auto& u = engine_.usi();
      bool ok = u.position(game_.usi_position_command()).ok() &&
                u.go(turn_go(clock_, us_, settings_, millis(Clock::now() - turn_start_))).ok();
      if (ok && clean) report_.line_to_go_us.push_back(micros(turn_start_, Clock::now()));
      if (!ok) {
        result.status = usi::Status::Disconnected;
      }
    }
    if (result.status != usi::Status::Disconnected) result = wait_engine(stop_at, info);
    if (end_.finished() || conn_.closed()) return stop_search();
    if (result.status == usi::Status::Disconnected && !restarted && Clock::now() < stop_at) {
      // A crash mid-search: a fresh engine gets the position again with the time that is left.
      restarted = true;
      clean = false;
      if (restart_engine("it exited while thinking")) {
        result = {};
        need_go = true;
        continue;
      }
    }
    answered = result.status == usi::Status::Ok || result.status == usi::Status::ProtocolError;
    break;
  }
  if (!answered && result.status == usi::Status::Timeout && engine_.running()) {
    // Our own flag: the engine had its whole budget minus the margin.
    warn("the engine did not answer within its budget: stop");
    engine_.usi().stop();
    result = wait_engine(emergency, info);
    if (end_.finished() || conn_.closed()) return stop_search();
    answered = result.status == usi::Status::Ok || result.status == usi::Status::ProtocolError;
    if (!answered) engine_broken_ = true;  // a late bestmove would be taken for the next search's answer
  }
  if (result.status == usi::Status::Disconnected) engine_broken_ = true;
  if (info.score) last_score_black_ = record::score_for_black(game::record_info(info), us_);
  decide_and_send(result, info, answered);
}

// Waits for the engine's bestmove until `until`, serving the server in between; info lines are merged.
usi::SearchResult ClientGame::wait_engine(Deadline until, usi::SearchInfo& info) {
  while (true) {
    auto slice_end = std::min(until, Clock::now() + SLICE);
    usi::SearchResult r = engine_.usi().wait_bestmove(slice_end);
    info.merge(r.info);
    if (r.status != usi::Status::Timeout) return r;
    while (true) {
      LinkEvent e = conn_.poll();
      if (e.kind != LinkEvent::Kind::Line) break;
      process(e);
    }
    if (end_.finished() || conn_.closed() || Clock::now() >= until) return r;
  }
}

void ClientGame::decide_and_send(const usi::SearchResult& result, const usi::SearchInfo& info, bool answered) {
  Answer a = decide_answer(game_.position(), result, info, answered, declaration_rule_);
  if (!a.fallback_why.empty()) ++report_.fallback_moves;
  if (a.kind == Answer::Kind::Declare) return declare();
  if (a.kind == Answer::Kind::Resign)
    return resign(a.fallback_why.empty() ? std::string() : a.fallback_why + "; no legal move to play instead");
  if (!a.fallback_why.empty()) warn(a.fallback_why + "; playing " + shogi::to_usi(a.move) + " instead");

  std::string token = shogi::to_csa(a.move);
  std::string line = token;
  SearchInfo rec_info = game::record_info(info);
  if (settings_.floodgate_comments) line += floodgate_comment(game_.position(), a.move, rec_info, us_);
  Clock::time_point sent;
  conn_.send(line, &sent);
  if (a.fallback_why.empty()) report_.bestmove_to_send_us.push_back(micros(result.bestmove_time, sent));
  sent_move_ = token;
  sent_info_ = rec_info;
  ponder_move_ = a.fallback_why.empty() ? result.bestmove.ponder : std::string();
  awaiting_ = Awaiting::Echo;
  publish("their turn");
}

void ClientGame::resign(const std::string& why) {
  if (!why.empty()) warn("resigning: " + why);
  conn_.send("%TORYO");
  awaiting_ = Awaiting::End;
  publish("resigned");
}

void ClientGame::declare() {
  note("declaring a win (%KACHI): the entering-king rule holds");
  conn_.send("%KACHI");
  awaiting_ = Awaiting::End;
  publish("declared");
}

void ClientGame::start_ponder() {
  if (!engine_.running() || engine_broken_) return;
  auto guess = shogi::parse_usi_move(game_.position(), ponder_move_);
  if (!guess) return;
  std::string position = game_.usi_position_command();
  position += game_.moves().empty() ? " moves " : " ";
  position += ponder_move_;
  usi::GoParams p = go_params_for_ponder();
  auto& u = engine_.usi();
  if (!u.position(position).ok() || !u.go(p).ok()) {
    engine_broken_ = true;
    return;
  }
  pondering_ = true;
  pondered_move_ = ponder_move_;
  publish("pondering");
}

// The clocks as they will be when the guessed move is played: ours as now, none of it spent yet.
usi::GoParams ClientGame::go_params_for_ponder() const {
  usi::GoParams p = turn_go(clock_, us_, settings_, 0);
  p.ponder = true;
  return p;
}

// Ends a search whose answer we no longer want (a ponder miss, the game ending while thinking).
void ClientGame::stop_search() {
  pondering_ = false;
  ponder_hit_ = false;
  if (!engine_.running()) return;
  auto state = engine_.usi().state();
  if (state != usi::EngineState::Thinking && state != usi::EngineState::Pondering) return;
  engine_.usi().stop();
  auto r = engine_.usi().wait_bestmove(Clock::now() + STOP_WAIT);
  if (r.status != usi::Status::Ok && r.status != usi::Status::ProtocolError) engine_broken_ = true;
}

bool ClientGame::restart_engine(const std::string& why) {
  note("restarting the engine: " + why);
  ++report_.engine_restarts;
  engine_broken_ = false;  // a failed start leaves it not running, which our_turn() handles
  auto ok = engine_.start();
  if (!ok) {
    report_.engine_failed = true;
    warn("engine restart failed: " + ok.error());
    return false;
  }
  if (!engine_.usi().new_game().ok()) engine_broken_ = true;
  return !engine_broken_;
}

}  // namespace arena::csa
