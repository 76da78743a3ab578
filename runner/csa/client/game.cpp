// play_csa_game (game.h) over a ClientGame (client_game.h): the Game_Summary read, AGREE or REJECT, and the end
// (the result, the record, the report).

#include "csa/client/game.h"

#include "csa/client/client_game.h"
#include "csa/client/game_terms.h"
#include "game/record_info.h"
#include "output/record_common.h"

namespace arena::csa {

bool ClientGame::read_summary() {
  GameSummaryParser parser;
  std::string error;
  bool done = false;
  auto feed = [&](const std::string& line) {
    if (line.starts_with("Game_ID:")) report_.game_id = line.substr(8);
    if (error.empty()) {
      auto r = parser.feed(line);
      if (!r)
        error = r.error();
      else if (*r)
        done = true;
    }
    // After an error the block is read to its end, so what follows is not taken for game lines.
    if (!error.empty() && line.starts_with("END Game_Summary")) done = true;
  };
  feed("BEGIN Game_Summary");
  while (!done) {
    LinkEvent e = conn_.receive(Clock::now() + LONG_WAIT);
    if (e.kind == LinkEvent::Kind::Closed) {
      report_.detail = "connection lost during the Game_Summary: " + e.text;
      return false;
    }
    if (e.kind == LinkEvent::Kind::Line) feed(e.text);
  }
  if (!error.empty()) return reject("cannot play this game: " + error);

  report_.summary = parser.summary();
  GameTerms terms = game_terms(*report_.summary, game_);
  for (const auto& n : terms.notes) note(n);
  for (const auto& w : terms.warnings) warn(w);
  us_ = terms.us;
  them_ = ~us_;
  report_.us = us_;
  if (!terms.unplayable.empty()) return reject(terms.unplayable);
  declaration_rule_ = terms.declaration_rule;
  clock_ = terms.clock;
  report_.record = std::move(terms.record);

  // The engine must be able to play before we promise to.
  publish("preparing the engine");
  if (auto ok = engine_.ensure_ready(); !ok) {
    report_.engine_failed = true;
    return reject("the engine is not ready: " + ok.error());
  }
  // The server's rules, told to an engine that can be told them: the declaration rule and Max_Moves.
  const game::RuleOptions told = engine_.set_rules({declaration_rule_, std::max(0, report_.summary->max_moves)});
  for (const auto& n : told.notes) note("engine: " + n);
  for (const auto& w : told.warnings) warn("engine: " + w);
  return true;
}

bool ClientGame::reject(const std::string& why) {
  report_.status = GameStatus::Rejected;
  report_.detail = why;
  note("REJECT: " + why);
  conn_.send(report_.game_id.empty() ? "REJECT" : "REJECT " + report_.game_id);
  // The server answers REJECT:<id> by <us> (and closes in CSA mode); read it so it is not taken for the
  // next game's lines.
  auto until = Clock::now() + std::chrono::seconds(10);
  while (true) {
    LinkEvent e = conn_.receive(until);
    if (e.kind != LinkEvent::Kind::Line) break;
    if (e.text.starts_with("REJECT:")) break;
  }
  return false;
}

bool ClientGame::agree() {
  publish("agreeing");
  conn_.send(report_.game_id.empty() ? "AGREE" : "AGREE " + report_.game_id);
  while (true) {
    LinkEvent e = conn_.receive(Clock::now() + LONG_WAIT);
    if (e.kind == LinkEvent::Kind::Closed) {
      report_.detail = "connection lost before START: " + e.text;
      return false;
    }
    if (e.kind != LinkEvent::Kind::Line) continue;
    auto msg = parse_server_line(e.text);
    if (!msg) {
      warn("ignoring a garbled line: " + msg.error());
      continue;
    }
    if (msg->kind == MessageKind::Start) {
      if (!report_.game_id.empty() && msg->text != report_.game_id)
        warn("START names game " + msg->text + ", the summary said " + report_.game_id);
      report_.started = true;
      turn_start_ = e.time;
      last_move_time_ = e.time;
      report_.record.start_time = std::chrono::system_clock::now();
      break;
    }
    if (msg->kind == MessageKind::Reject) {
      report_.status = GameStatus::Rejected;
      report_.detail = "rejected by " + (msg->detail.empty() ? std::string("the server") : msg->detail);
      note(report_.detail);
      return false;
    }
    if (msg->kind != MessageKind::Empty) warn("unexpected line while waiting for START: " + e.text);
  }
  note("START " + report_.game_id + ": we play " + (us_ == BLACK ? "black" : "white") + " against " +
       report_.summary->name[them_]);
  if (auto r = engine_.usi().new_game(); !r.ok()) engine_broken_ = true;
  return true;
}

CsaGameReport ClientGame::finish() {
  stop_search();
  PlayedGame& rec = report_.record;
  rec.end_time = std::chrono::system_clock::now();
  report_.end = end_.end();
  if (end_.finished()) {
    report_.status = GameStatus::Finished;
    rec.result = to_game_result(end_.end(), us_);
    report_.detail = end_lines_;
    rec.result.detail = "server: " + end_lines_;
    if (engine_.running()) {
      EndResult r = end_.end().result;
      engine_.usi().game_over(r == EndResult::Win    ? usi::UsiClient::GameOver::Win
                              : r == EndResult::Lose ? usi::UsiClient::GameOver::Lose
                                                     : usi::UsiClient::GameOver::Draw);
    }
  } else {
    report_.status = GameStatus::ConnectionLost;
    report_.detail = conn_.close_reason();
    rec.result = {Outcome::None, Termination::Interrupted, "connection lost: " + conn_.close_reason()};
    // shogi-server scores a game cut short against the player who left; the engine hears the same.
    if (engine_.running()) engine_.usi().game_over(usi::UsiClient::GameOver::Lose);
  }
  note("game " + report_.game_id + " ended: " + std::string(to_string(report_.status)) +
       (report_.detail.empty() ? "" : " (" + report_.detail + ")") + ", " + std::to_string(game_.moves().size()) +
       " plies");
  publish("finished");
  return std::move(report_);
}

CsaGameReport ClientGame::finish_without_game() {
  if (report_.status != GameStatus::Rejected) report_.status = GameStatus::ConnectionLost;
  return std::move(report_);
}

void ClientGame::publish(const std::string& phase) {
  if (!status_) return;
  LiveStatus s;
  s.phase = phase;
  if (report_.summary) s.opponent = report_.summary->name[them_];
  s.us = us_;
  s.ply = int(game_.moves().size());
  s.remaining_ms[BLACK] = clock_.remaining_ms(BLACK);
  s.remaining_ms[WHITE] = clock_.remaining_ms(WHITE);
  s.score_black = last_score_black_;
  status_(s);
}

CsaGameReport play_csa_game(ClientConnection& conn, ClientEngine& engine, const GameSettings& settings,
                            ProtocolLog& log, const std::atomic<bool>* stop, const StatusSink& status) {
  ClientGame game(conn, engine, settings, log, stop, status);
  return game.run();
}

}  // namespace arena::csa
