#include "output/csa_record.h"

#include "output/local_time.h"
#include "output/record_common.h"
#include "rules/notation.h"

namespace arena {

namespace {

using record::Ending;

// Names and events come from engines and configuration: a line break would end the header line early.
std::string one_line(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c == '\n' || c == '\r') c = ' ';
  return out;
}

char sign(shogi::Color c) { return c == shogi::BLACK ? '+' : '-'; }

void write_position(std::string& out, const shogi::Position& pos) {
  if (record::is_standard_start(pos)) {
    out += "PI\n";
  } else {
    for (int r = shogi::RANK_1; r <= shogi::RANK_9; ++r) {
      out += 'P';
      out += char('1' + r);
      for (int f = shogi::FILE_9; f >= shogi::FILE_1; --f) {
        shogi::Piece pc = pos.piece_on(shogi::make_square(shogi::File(f), shogi::Rank(r)));
        if (pc == shogi::NO_PIECE) {
          out += " * ";
        } else {
          out += sign(shogi::color_of(pc));
          out += shogi::csa_piece_name(shogi::type_of(pc));
        }
      }
      out += '\n';
    }
    for (shogi::Color c : {shogi::BLACK, shogi::WHITE}) {
      shogi::Hand h = pos.hand(c);
      if (h == shogi::HAND_ZERO) continue;
      out += {'P', sign(c)};
      // Strongest first, as the CSA server writes hands.
      for (shogi::PieceType pt :
           {shogi::ROOK, shogi::BISHOP, shogi::GOLD, shogi::SILVER, shogi::KNIGHT, shogi::LANCE, shogi::PAWN})
        for (int n = shogi::hand_count(h, pt); n > 0; --n) out += "00" + std::string(shogi::csa_piece_name(pt));
      out += '\n';
    }
  }
  out += sign(pos.side_to_move());
  out += '\n';
}

// "'** 35 -3334FU +2726FU" from the engine's last info before `played`; empty without a score.
std::string info_comment(const shogi::Position& before, const MoveRecord& mr) {
  std::optional<int> score = record::score_for_black(mr.info, before.side_to_move());
  if (!score) return {};
  std::string line = "'** ";
  line += std::to_string(*score);
  std::vector<shogi::Move> pv = record::legal_pv(before, mr.info.pv);
  size_t first = !pv.empty() && pv.front() == mr.move ? 1 : 0;
  for (size_t i = first; i < pv.size(); ++i) line += ' ' + shogi::to_csa(pv[i]);
  return line + '\n';
}

std::string ending_line(Ending e, shogi::Color side_to_move) {
  switch (e) {
    case Ending::None:
      return {};
    case Ending::Resign:
      return "%TORYO";
    case Ending::Mate:
      return "%TSUMI";
    case Ending::Repetition:
      return "%SENNICHITE";
    case Ending::FoulLoss:
      return "%ILLEGAL_MOVE";
    // %+ILLEGAL_ACTION: black's foul, white wins. The loser here is the side that just moved.
    case Ending::FoulByOpponent:
      return std::string{'%', sign(~side_to_move)} + "ILLEGAL_ACTION";
    case Ending::TimeUp:
      return "%TIME_UP";
    case Ending::Declaration:
      return "%KACHI";
    case Ending::MaxMoves:
      return "%MAX_MOVES";
    case Ending::Draw:
      return "%HIKIWAKE";
    case Ending::Interrupted:
      return "%CHUDAN";
  }
  return {};
}

}  // namespace

std::expected<std::string, std::string> to_csa_record(const PlayedGame& game) {
  record::GameWalk walk;
  if (auto r = walk.start(game); !r) return std::unexpected(r.error());

  std::string out = "V2.2\n";
  out += "N+" + one_line(game.names[shogi::BLACK]) + '\n';
  out += "N-" + one_line(game.names[shogi::WHITE]) + '\n';
  if (!game.event.empty()) out += "$EVENT:" + one_line(game.event) + '\n';
  if (std::string t = output::record_time_text(game.start_time); !t.empty()) out += "$START_TIME:" + t + '\n';
  if (std::string t = output::record_time_text(game.end_time); !t.empty()) out += "$END_TIME:" + t + '\n';
  if (!game.time_control.empty()) out += "$TIME_LIMIT:" + one_line(game.time_control) + '\n';
  write_position(out, walk.position());

  for (const MoveRecord& mr : game.moves) {
    out += shogi::to_csa(mr.move);
    out += '\n';
    // T must be an integer: json-kifu-format rejects "T0.5".
    out += 'T';
    out += std::to_string(record::whole_seconds(mr.time_ms));
    out += '\n';
    out += info_comment(walk.position(), mr);
    if (auto r = walk.next(); !r) return std::unexpected(r.error());
  }

  shogi::Color stm = walk.position().side_to_move();
  Ending ending = record::ending_of(game.result, stm);
  if (std::string line = ending_line(ending, stm); !line.empty()) out += line + '\n';
  // "'*" comments are shown by viewers; tsshogi drops plain "'" comments.
  if (!game.illegal_move_text.empty())
    out += std::string("'*illegal move by ") + (stm == shogi::BLACK ? "black: " : "white: ") +
           one_line(game.illegal_move_text) + '\n';
  if (!game.result.detail.empty()) {
    out += "'*";
    out += one_line(game.result.detail);
    out += '\n';
  }
  if (ending != Ending::None) out += "'result: " + record::result_in_words(game.result) + '\n';
  return out;
}

}  // namespace arena
