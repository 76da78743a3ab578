#include "csa/server/record.h"

#include "csa/server/board.h"
#include "output/local_time.h"

#include <cstdio>
#include <ctime>

namespace arena::csa {

using shogi::BLACK;
using shogi::Color;
using shogi::WHITE;

namespace {

// Both players have a trip: shogi-server's rating scripts read the game.
bool rated(const GameSetup& s) {
  return s.list_names[BLACK].find('+') != std::string::npos && s.list_names[WHITE].find('+') != std::string::npos;
}

// A game the server stopped has no winner. Between rated players it is listed as abnormal with draws, since
// mk_rate stops at any other mark ("none"); like its other abnormal games it then counts beyond 30 moves only.
const char* result_word(const ServerGame& game, Color c) {
  const GameOutcome& o = game.outcome();
  if (o.kind == GameEndKind::Chudan) return rated(game.setup()) ? "draw" : "none";
  if (!o.winner) return "draw";
  return *o.winner == c ? "win" : "lose";
}

// A rate as shogi-server writes it (a Ruby float: "1051.0").
std::string rate_text(double rate) {
  std::string text = std::to_string(int64_t(rate));
  return text + ".0";
}

std::string list_type(const ServerGame& game) {
  if (game.outcome().kind == GameEndKind::Chudan && rated(game.setup())) return "abnormal";
  return summary_type(game.outcome().kind);
}

std::string illegal_action(Color loser) { return loser == BLACK ? "%+ILLEGAL_ACTION" : "%-ILLEGAL_ACTION"; }

}  // namespace

std::string record_relative_path(const ServerGame& game) {
  return output::format_local_time(game.created_time(), "%Y/%m/%d/") + game.setup().game_id + ".csa";
}

std::string server_csa_record(const ServerGame& game) {
  const GameSetup& s = game.setup();
  std::string out;
  out += "'CSA record by the shogi-arena CSA server\n";
  out += "V2.2\n";
  out += "N+" + s.names[BLACK] + "\n";
  out += "N-" + s.names[WHITE] + "\n";
  out += "$EVENT:" + s.game_id + "\n";
  out += "$START_TIME:" + output::record_time_text(game.created_time()) + "\n";
  if (game.end_time() != SystemTime{}) out += "$END_TIME:" + output::record_time_text(game.end_time()) + "\n";
  if (s.increment_s == 0) {
    char limit[32];
    std::snprintf(limit, sizeof limit, "%02d:%02d+%02d", s.total_s / 3600, s.total_s / 60 % 60, s.byoyomi_s);
    out += std::string("$TIME_LIMIT:") + limit + "\n";
  }
  out += "'Max_Moves:" + std::to_string(s.max_moves) + "\n";
  out += "'Least_Time_Per_Move:" + std::to_string(s.least_time_per_move_s) + "\n";
  if (s.increment_s > 0) out += "'Increment:" + std::to_string(s.increment_s) + "\n";
  // The start position, then the moves from it.
  shogi::Position start;
  shogi::StateInfo si;
  (void)start.set(game.start_sfen(), &si);
  out += csa_board_text(start);
  // mk_game_results (shogi-server's ratings) reads a game only with both players' ids on a 'rating: line.
  if (rated(s)) {
    out += "'rating:" + s.list_names[BLACK] + ":" + s.list_names[WHITE] + "\n";
    if (s.rates[BLACK] != 0) out += "'black_rate:" + s.list_names[BLACK] + ":" + rate_text(s.rates[BLACK]) + "\n";
    if (s.rates[WHITE] != 0) out += "'white_rate:" + s.list_names[WHITE] + ":" + rate_text(s.rates[WHITE]) + "\n";
  }
  size_t initial = 0;
  for (const ServerMove& m : game.moves()) initial += m.initial;
  if (initial > 0) out.append("'").append(std::to_string(initial)).append(" moves played before the game\n");
  for (const ServerMove& m : game.moves()) {
    out += m.csa + "\nT" + std::to_string(m.time_s) + "\n";
    if (!m.comment.empty()) out += m.comment + "\n";
  }

  const GameOutcome& o = game.outcome();
  Color to_move = game.record().position().side_to_move();
  std::optional<Color> loser;
  if (o.winner) loser = ~*o.winner;
  switch (o.kind) {
    case GameEndKind::None:
      break;
    case GameEndKind::Resign:
      out += "%TORYO\n";
      break;
    case GameEndKind::Abnormal:
      out.append("'").append(o.detail).append("\n");
      out += loser == to_move ? std::string("%TORYO\n") : illegal_action(*loser) + "\n";
      break;
    case GameEndKind::TimeUp:
      out += "%TIME_UP\n";
      break;
    case GameEndKind::IllegalMove:
    case GameEndKind::Uchifuzume:
    case GameEndKind::SelfCheck:
      out += "'ILLEGAL_MOVE(" + game.illegal_line() + ")\n";
      if (!o.detail.empty()) out.append("'").append(o.detail).append("\n");
      out += "%ILLEGAL_MOVE\n";
      break;
    case GameEndKind::Kachi:
      out += "%KACHI\n";
      break;
    case GameEndKind::IllegalKachi:
      out += "'ILLEGAL_MOVE(%KACHI): " + o.detail + "\n";
      out += "%ILLEGAL_MOVE\n";
      break;
    case GameEndKind::Sennichite:
      out += "%SENNICHITE\n";
      break;
    case GameEndKind::OuteSennichite:
      out += "'OUTE_SENNICHITE\n";
      out += illegal_action(*loser) + "\n";
      break;
    case GameEndKind::MaxMoves:
      out += "%MAX_MOVES\n";
      break;
    case GameEndKind::Chudan:
      out += "%CHUDAN\n";
      break;
  }
  if (o.kind != GameEndKind::None)
    out += "'summary:" + list_type(game) + ":" + s.names[BLACK] + " " + result_word(game, BLACK) + ":" +
           s.names[WHITE] + " " + result_word(game, WHITE) + "\n";
  // Last, as shogi-server ends its records (mk_game_results takes the time from this comment line).
  if (game.end_time() != SystemTime{}) out += "'$END_TIME:" + output::record_time_text(game.end_time()) + "\n";
  return out;
}

std::string results_list_line(const ServerGame& game, const std::string& record_path) {
  const GameSetup& s = game.setup();
  std::string out = output::record_time_text(game.end_time());
  out += '\t';
  out += list_type(game);
  out += '\t';
  out += result_word(game, BLACK);
  out += '\t' + s.list_names[BLACK] + '\t' + s.list_names[WHITE] + '\t';
  out += result_word(game, WHITE);
  size_t moves = 0;
  for (const ServerMove& m : game.moves()) moves += !m.initial;
  out += '\t' + record_path + '\t' + std::to_string(moves) + '\n';
  return out;
}

}  // namespace arena::csa
