#include "output/kif_record.h"

#include <cstdio>

#include "output/local_time.h"
#include "output/record_common.h"
#include "rules/notation.h"

namespace arena {

namespace {

using record::Ending;

constexpr std::string_view FULL_WIDTH_DIGITS[] = {"１", "２", "３", "４", "５", "６", "７", "８", "９"};
constexpr std::string_view KANJI_NUMBERS[] = {"", "一", "二", "三", "四", "五", "六", "七", "八", "九", "十"};
// Piece names in moves, by PieceType (PAWN .. DRAGON).
constexpr std::string_view MOVE_NAMES[] = {"",   "歩", "香",   "桂",   "銀",   "角", "飛", "金",
                                           "玉", "と", "成香", "成桂", "成銀", "馬", "龍"};
// One-character names for the board diagram.
constexpr std::string_view BOARD_NAMES[] = {"",   "歩", "香", "桂", "銀", "角", "飛", "金",
                                            "玉", "と", "杏", "圭", "全", "馬", "龍"};
constexpr std::string_view FULL_WIDTH_SPACE = "\u3000";

std::string one_line(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c == '\n' || c == '\r') c = ' ';
  return out;
}

std::string kanji_count(int n) {  // 1..18 as in hands: 二, 十, 十八
  if (n <= 10) return std::string(KANJI_NUMBERS[n]);
  return std::string(KANJI_NUMBERS[10]) + std::string(KANJI_NUMBERS[n - 10]);
}

std::string hand_text(shogi::Hand h) {
  std::string out;
  for (shogi::PieceType pt :
       {shogi::ROOK, shogi::BISHOP, shogi::GOLD, shogi::SILVER, shogi::KNIGHT, shogi::LANCE, shogi::PAWN}) {
    int n = shogi::hand_count(h, pt);
    if (n == 0) continue;
    if (!out.empty()) out += FULL_WIDTH_SPACE;
    out += BOARD_NAMES[pt];
    if (n > 1) out += kanji_count(n);
  }
  return out.empty() ? "なし" : out;
}

// The BOD diagram: white's hand, the board from black's side ("v" marks white pieces), black's hand, the side
// to move.
void write_board(std::string& out, const shogi::Position& pos) {
  out += "後手の持駒：" + hand_text(pos.hand(shogi::WHITE)) + '\n';
  out += "  ９ ８ ７ ６ ５ ４ ３ ２ １\n";
  out += "+---------------------------+\n";
  for (int r = shogi::RANK_1; r <= shogi::RANK_9; ++r) {
    out += '|';
    for (int f = shogi::FILE_9; f >= shogi::FILE_1; --f) {
      shogi::Piece pc = pos.piece_on(shogi::make_square(shogi::File(f), shogi::Rank(r)));
      if (pc == shogi::NO_PIECE) {
        out += " ・";
      } else {
        out += shogi::color_of(pc) == shogi::WHITE ? "v" : " ";
        out += BOARD_NAMES[shogi::type_of(pc)];
      }
    }
    out += '|';
    out += KANJI_NUMBERS[r + 1];
    out += '\n';
  }
  out += "+---------------------------+\n";
  out += "先手の持駒：" + hand_text(pos.hand(shogi::BLACK)) + '\n';
  out += pos.side_to_move() == shogi::BLACK ? "先手番\n" : "後手番\n";
}

// "７六歩(77)", "同　銀(31)", "２二角成(88)", "４五角打". `previous_to` is the last move's destination.
std::string kif_move(shogi::Move m, shogi::Square previous_to) {
  shogi::Square to = shogi::to_sq(m);
  std::string out;
  if (to == previous_to)
    out += "同" + std::string(FULL_WIDTH_SPACE);
  else
    out += std::string(FULL_WIDTH_DIGITS[shogi::file_of(to)]) + std::string(KANJI_NUMBERS[shogi::rank_of(to) + 1]);
  out += MOVE_NAMES[shogi::type_of(shogi::moved_piece(m))];
  if (shogi::is_drop(m)) return out + "打";
  if (shogi::is_promotion(m)) out += "成";
  shogi::Square from = shogi::from_sq(m);
  return out + '(' + char('1' + shogi::file_of(from)) + char('1' + shogi::rank_of(from)) + ')';
}

// Width in half-width columns: Kakinoki aligns the time column assuming full-width characters take two.
size_t display_width(std::string_view s) {
  size_t w = 0;
  for (unsigned char c : s) {
    if (c < 0x80)
      w += 1;
    else if ((c & 0xC0) != 0x80)
      w += 2;  // the lead byte of a multi-byte character
  }
  return w;
}

std::string move_line(size_t number, std::string_view text, int64_t seconds, int64_t total_seconds) {
  std::string padded(text);
  padded.append(display_width(text) < 13 ? 13 - display_width(text) : 1, ' ');
  char head[16], time[48];
  std::snprintf(head, sizeof head, "%4zu ", number);
  std::snprintf(time, sizeof time, "(%2lld:%02lld/%02lld:%02lld:%02lld)\n", static_cast<long long>(seconds / 60),
                static_cast<long long>(seconds % 60), static_cast<long long>(total_seconds / 3600),
                static_cast<long long>(total_seconds / 60 % 60), static_cast<long long>(total_seconds % 60));
  return head + padded + time;
}

std::string info_comment(const shogi::Position& before, const MoveRecord& mr) {
  std::optional<int> score = record::score_for_black(mr.info, before.side_to_move());
  if (!score) return {};
  std::string out = "*#評価値=" + std::to_string(*score) + '\n';
  std::vector<shogi::Move> pv = record::legal_pv(before, mr.info.pv);
  size_t first = !pv.empty() && pv.front() == mr.move ? 1 : 0;
  if (first < pv.size()) {
    out += "*#読み筋=";
    shogi::Square previous = shogi::to_sq(mr.move);
    for (size_t i = first; i < pv.size(); ++i) {
      out += shogi::color_of(shogi::moved_piece(pv[i])) == shogi::BLACK ? "▲" : "△";
      out += kif_move(pv[i], previous);
      previous = shogi::to_sq(pv[i]);
    }
    out += '\n';
  }
  return out;
}

std::string_view ending_word(Ending e) {
  switch (e) {
    case Ending::None:
      return {};
    case Ending::Resign:
      return "投了";
    case Ending::Mate:
      return "詰み";
    case Ending::Repetition:
      return "千日手";
    case Ending::FoulLoss:
      return "反則負け";
    case Ending::FoulByOpponent:
      return "反則勝ち";  // the side to move wins by the other's foul
    case Ending::TimeUp:
      return "切れ負け";
    case Ending::Declaration:
      return "入玉勝ち";
    case Ending::MaxMoves:
    case Ending::Draw:
      return "持将棋";
    case Ending::Interrupted:
      return "中断";
  }
  return {};
}

// The closing "まで…" line in Kakinoki's words.
std::string summary_line(Ending e, size_t plies, shogi::Color side_to_move) {
  std::string next = side_to_move == shogi::BLACK ? "先手" : "後手";
  std::string last = side_to_move == shogi::BLACK ? "後手" : "先手";
  std::string out = "まで" + std::to_string(plies) + "手で";
  switch (e) {
    case Ending::None:
      return {};
    case Ending::Resign:
    case Ending::Mate:
      return out + last + "の勝ち\n";
    case Ending::TimeUp:
      return out + "時間切れにより" + last + "の勝ち\n";
    case Ending::Declaration:
      return out + next + "の入玉勝ち\n";
    case Ending::FoulLoss:
      return out + next + "の反則負け\n";
    case Ending::FoulByOpponent:
      return out + next + "の反則勝ち\n";
    default:
      return out + std::string(ending_word(e)) + '\n';
  }
}

}  // namespace

std::expected<std::string, std::string> to_kif_record(const PlayedGame& game) {
  record::GameWalk walk;
  if (auto r = walk.start(game); !r) return std::unexpected(r.error());

  std::string out = "#KIF version=2.0 encoding=UTF-8\n";
  if (std::string t = output::record_time_text(game.start_time); !t.empty()) out += "開始日時：" + t + '\n';
  if (std::string t = output::record_time_text(game.end_time); !t.empty()) out += "終了日時：" + t + '\n';
  if (!game.event.empty()) out += "棋戦：" + one_line(game.event) + '\n';
  if (!game.time_control.empty()) out += "持ち時間：" + one_line(game.time_control) + '\n';
  bool standard = record::is_standard_start(walk.position());
  if (standard) out += "手合割：平手\n";
  out += "先手：" + one_line(game.names[shogi::BLACK]) + '\n';
  out += "後手：" + one_line(game.names[shogi::WHITE]) + '\n';
  if (!standard) write_board(out, walk.position());
  out += "手数----指手---------消費時間--\n";

  int64_t total[shogi::COLOR_NB] = {0, 0};
  shogi::Square previous_to = shogi::SQ_NONE;
  for (const MoveRecord& mr : game.moves) {
    shogi::Color mover = walk.position().side_to_move();
    int64_t seconds = record::whole_seconds(mr.time_ms);
    total[mover] += seconds;
    out += move_line(walk.ply() + 1, kif_move(mr.move, previous_to), seconds, total[mover]);
    out += info_comment(walk.position(), mr);
    previous_to = shogi::to_sq(mr.move);
    if (auto r = walk.next(); !r) return std::unexpected(r.error());
  }

  shogi::Color stm = walk.position().side_to_move();
  Ending ending = record::ending_of(game.result, stm);
  if (ending == Ending::None) return out;
  out += move_line(walk.ply() + 1, ending_word(ending), 0, total[stm]);
  if (!game.illegal_move_text.empty())
    out += std::string("*illegal move by ") + (stm == shogi::BLACK ? "black: " : "white: ") +
           one_line(game.illegal_move_text) + '\n';
  if (!game.result.detail.empty()) {
    out += "*";
    out += one_line(game.result.detail);
    out += '\n';
  }
  out += summary_line(ending, walk.ply(), stm);
  return out;
}

}  // namespace arena
