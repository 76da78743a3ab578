#include "output/record_common.h"

#include <charconv>
#include <cstdio>
#include <ctime>

#include "rules/notation.h"

namespace arena::record {

std::expected<void, std::string> GameWalk::start(const PlayedGame& game) {
  shogi::Position::init();
  game_ = &game;
  ply_ = 0;
  states_.clear();
  states_.emplace_back();
  std::string_view sfen = game.start_sfen;
  if (sfen.starts_with("sfen ")) sfen.remove_prefix(5);
  if (sfen.empty()) return std::unexpected("the game has no start position");
  if (auto r = pos_.set(sfen, &states_.back()); !r) return std::unexpected("start position: " + r.error());
  return {};
}

std::expected<void, std::string> GameWalk::next() {
  shogi::Move m = game_->moves[ply_].move;
  if (!shogi::is_ok(m)) return std::unexpected("move " + std::to_string(ply_ + 1) + ": not a board move");
  std::string why = shogi::illegal_reason(pos_, m);
  if (!why.empty()) return std::unexpected("move " + std::to_string(ply_ + 1) + " (" + shogi::to_usi(m) + "): " + why);
  states_.emplace_back();
  pos_.do_move(m, states_.back());
  ++ply_;
  return {};
}

bool is_standard_start(const shogi::Position& pos) {
  std::string sfen = pos.sfen();
  std::string_view start = shogi::START_SFEN;
  // Compare without the move number, the last field.
  return sfen.substr(0, sfen.rfind(' ')) == start.substr(0, start.rfind(' '));
}

namespace {

// The integer `text` starts with, ended by its end or a space (black's view), from the mover's view.
std::optional<int> leading_score(std::string_view text, shogi::Color mover) {
  int score = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), score);
  if (ec != std::errc() || end == text.data() || (end != text.data() + text.size() && *end != ' ')) return std::nullopt;
  return mover == shogi::BLACK ? score : -score;
}

}  // namespace

std::optional<int> comment_score(std::string_view comment, shogi::Color mover) {
  if (!comment.starts_with("'*")) return std::nullopt;
  comment.remove_prefix(comment.starts_with("'**") ? 3 : 2);
  while (!comment.empty() && comment.front() == ' ') comment.remove_prefix(1);
  return leading_score(comment, mover);
}

std::optional<int> kif_comment_score(std::string_view comment, shogi::Color mover) {
  constexpr std::string_view LABEL = "*#評価値=";
  if (!comment.starts_with(LABEL)) return std::nullopt;
  comment.remove_prefix(LABEL.size());
  return leading_score(comment, mover);
}

std::optional<int> score_for_black(const SearchInfo& info, shogi::Color mover) {
  std::optional<int> score;
  if (info.score_mate)
    score = *info.score_mate > 0 ? MATE_SCORE : -MATE_SCORE;
  else if (info.score_cp)
    score = *info.score_cp;
  if (score && mover == shogi::WHITE) score = -*score;
  return score;
}

std::vector<shogi::Move> legal_pv(const shogi::Position& before, const std::vector<std::string>& pv) {
  std::vector<shogi::Move> out;
  if (pv.empty()) return out;
  shogi::Position pos;
  std::deque<shogi::StateInfo> states(1);
  pos.copy_from(before, &states.back());
  for (const std::string& text : pv) {
    auto m = shogi::parse_usi_move(pos, text);
    if (!m) break;
    out.push_back(*m);
    states.emplace_back();
    pos.do_move(*m, states.back());
  }
  return out;
}

std::optional<shogi::Color> loser_of(Outcome outcome) {
  if (outcome == Outcome::BlackWin) return shogi::WHITE;
  if (outcome == Outcome::WhiteWin) return shogi::BLACK;
  return std::nullopt;
}

Ending ending_of(const GameResult& result, shogi::Color side_to_move) {
  if (result.termination == Termination::None) return Ending::None;
  if (result.termination == Termination::Interrupted || result.outcome == Outcome::None) return Ending::Interrupted;
  std::optional<shogi::Color> loser = loser_of(result.outcome);
  if (!loser) {
    if (result.termination == Termination::Sennichite) return Ending::Repetition;
    if (result.termination == Termination::MaxMoves) return Ending::MaxMoves;
    return Ending::Draw;
  }
  if (*loser != side_to_move)
    return result.termination == Termination::Declaration ? Ending::Declaration : Ending::FoulByOpponent;
  switch (result.termination) {
    case Termination::Resign:
    case Termination::Disconnect:
    case Termination::Adjudication:
      return Ending::Resign;
    case Termination::Checkmate:
      return Ending::Mate;
    case Termination::TimeForfeit:
    case Termination::Stall:
      return Ending::TimeUp;
    default:
      return Ending::FoulLoss;  // illegal move, false declaration
  }
}

std::string result_in_words(const GameResult& result) {
  std::optional<shogi::Color> loser = loser_of(result.outcome);
  if (!loser) {
    switch (result.termination) {
      case Termination::Sennichite:
        return "draw by repetition (sennichite)";
      case Termination::MaxMoves:
        return "draw by the move limit";
      case Termination::Adjudication:
        return "draw by adjudication";
      case Termination::Interrupted:
        return "game interrupted";
      default:
        return result.outcome == Outcome::Draw ? "draw" : "no result";
    }
  }
  std::string w = *loser == shogi::WHITE ? "black" : "white";
  std::string l = *loser == shogi::WHITE ? "white" : "black";
  switch (result.termination) {
    case Termination::Resign:
      return w + " wins by resignation";
    case Termination::Checkmate:
      return w + " wins by checkmate";
    case Termination::PerpetualCheck:
      return w + " wins: " + l + " gave perpetual check (oute-sennichite)";
    case Termination::Declaration:
      return w + " wins by entering-king declaration";
    case Termination::IllegalDeclaration:
      return w + " wins: " + l + " made a false entering-king declaration";
    case Termination::IllegalMove:
      return w + " wins: " + l + " played an illegal move";
    case Termination::TimeForfeit:
      return w + " wins on time";
    case Termination::Stall:
      return w + " wins: " + l + " stopped answering (stall)";
    case Termination::Disconnect:
      return w + " wins: " + l + " disconnected";
    case Termination::Adjudication:
      return w + " wins by adjudication";
    default:
      return w + " wins";
  }
}

}  // namespace arena::record
