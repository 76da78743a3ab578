#include "csa/client/game.h"

#include <algorithm>

#include "csa/client/answer.h"
#include "csa/client/game_terms.h"
#include "csa/client/relayed_move.h"
#include "csa/client/turn_time.h"
#include "csa/protocol/message.h"
#include "game/record_info.h"
#include "output/record_common.h"
#include "rules/game_end.h"
#include "rules/movegen.h"
#include "rules/notation.h"

namespace arena::csa {

namespace {

using shogi::BLACK;
using shogi::Color;
using shogi::WHITE;
using Clock = SteadyClock;

// How long the engine may take to answer `stop` when we no longer care about its move.
constexpr auto STOP_WAIT = std::chrono::milliseconds(2000);
// While the engine thinks, the server is served between waits this long (a game end, a keep-alive).
constexpr auto SLICE = std::chrono::milliseconds(20);
// "Forever" for waits on the server; keep-alives still go out on time.
constexpr auto LONG_WAIT = std::chrono::hours(24);

int64_t micros(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration_cast<std::chrono::microseconds>(to - from).count();
}
int64_t millis(Clock::duration d) { return std::chrono::duration_cast<std::chrono::milliseconds>(d).count(); }

class Game {
 public:
  Game(ClientConnection& conn, ClientEngine& engine, const GameSettings& settings, ProtocolLog& log,
       const std::atomic<bool>* stop, const StatusSink& status)
      : conn_(conn), engine_(engine), settings_(settings), log_(log), stop_(stop), status_(status) {}

  CsaGameReport run() {
    if (!read_summary()) return finish_without_game();
    if (!agree()) return finish_without_game();
    play();
    return finish();
  }

 private:
  enum class Awaiting { Nothing, Echo, End };

  // ---------------------------------------------------------------- summary and agreement

  bool read_summary() {
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

  bool reject(const std::string& why) {
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

  bool agree() {
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

  // ---------------------------------------------------------------- the game

  void play() {
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

  void process(const LinkEvent& e) {
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
  void on_move(const Message& m, Clock::time_point time) {
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
  void our_turn() {
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
  usi::SearchResult wait_engine(Deadline until, usi::SearchInfo& info) {
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

  void decide_and_send(const usi::SearchResult& result, const usi::SearchInfo& info, bool answered) {
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

  void resign(const std::string& why) {
    if (!why.empty()) warn("resigning: " + why);
    conn_.send("%TORYO");
    awaiting_ = Awaiting::End;
    publish("resigned");
  }

  void declare() {
    note("declaring a win (%KACHI): the entering-king rule holds");
    conn_.send("%KACHI");
    awaiting_ = Awaiting::End;
    publish("declared");
  }

  // ---------------------------------------------------------------- pondering and engine upkeep

  void start_ponder() {
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
  usi::GoParams go_params_for_ponder() const {
    usi::GoParams p = turn_go(clock_, us_, settings_, 0);
    p.ponder = true;
    return p;
  }

  // Ends a search whose answer we no longer want (a ponder miss, the game ending while thinking).
  void stop_search() {
    pondering_ = false;
    ponder_hit_ = false;
    if (!engine_.running()) return;
    auto state = engine_.usi().state();
    if (state != usi::EngineState::Thinking && state != usi::EngineState::Pondering) return;
    engine_.usi().stop();
    auto r = engine_.usi().wait_bestmove(Clock::now() + STOP_WAIT);
    if (r.status != usi::Status::Ok && r.status != usi::Status::ProtocolError) engine_broken_ = true;
  }

  bool restart_engine(const std::string& why) {
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

  // Runs something that keeps us away from the socket (an engine restart). A line read afterwards may have come
  // at any time since it began, so it is dated at the beginning: our turn then starts no later than it did.
  template <class F>
  void blocking(F&& f) {
    auto began = Clock::now();
    f();
    while (!end_.finished()) {
      LinkEvent e = conn_.poll();
      if (e.kind != LinkEvent::Kind::Line) break;
      e.time = std::min(e.time, began);
      process(e);
    }
  }

  // ---------------------------------------------------------------- the end

  CsaGameReport finish() {
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

  CsaGameReport finish_without_game() {
    if (report_.status != GameStatus::Rejected) report_.status = GameStatus::ConnectionLost;
    return std::move(report_);
  }

  void publish(const std::string& phase) {
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

  void note(const std::string& text) { log_.note(text); }
  void warn(const std::string& text) {
    log_.note("warning: " + text);
    if (report_.warnings.size() < 200) report_.warnings.push_back(text);
  }

  ClientConnection& conn_;
  ClientEngine& engine_;
  const GameSettings& settings_;
  ProtocolLog& log_;
  const std::atomic<bool>* stop_;
  const StatusSink& status_;

  CsaGameReport report_;
  Color us_ = BLACK, them_ = WHITE;
  shogi::EnteringKingRule declaration_rule_ = shogi::EnteringKingRule::Point27;
  shogi::GameRecord game_;
  CsaClock clock_;
  GameEndCollector end_;
  std::string end_lines_;

  Awaiting awaiting_ = Awaiting::Nothing;
  Clock::time_point turn_start_{};
  Clock::time_point last_move_time_{};
  std::string sent_move_;    // our last move token, until its echo
  SearchInfo sent_info_;     // the engine's info for it
  std::string ponder_move_;  // the engine's guess at the reply (USI)
  bool ponder_pending_ = false;
  bool pondering_ = false;
  bool ponder_hit_ = false;
  std::string pondered_move_;
  bool engine_broken_ = false;
  bool desync_ = false;
  Deadline desync_deadline_{};
  std::optional<int> last_score_black_;
};

}  // namespace

CsaGameReport play_csa_game(ClientConnection& conn, ClientEngine& engine, const GameSettings& settings,
                            ProtocolLog& log, const std::atomic<bool>* stop, const StatusSink& status) {
  Game game(conn, engine, settings, log, stop, status);
  return game.run();
}

}  // namespace arena::csa
