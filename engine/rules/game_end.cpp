#include "game_end.h"

#include <climits>

#include "movegen.h"
#include "notation.h"

namespace shogi {

std::expected<EnteringKingRule, std::string> parse_entering_king_rule(std::string_view text) {
  if (text == "27" || text == "CSARule27" || text == "Point27") return EnteringKingRule::Point27;
  if (text == "24" || text == "24Point" || text == "Point24") return EnteringKingRule::Point24;
  if (text == "off" || text == "Off" || text == "NoEnteringKing") return EnteringKingRule::Off;
  return std::unexpected("entering-king rule: expected 27, 24 or off, got '" + std::string(text) + "'");
}

std::string_view to_string(EnteringKingRule rule) {
  switch (rule) {
    case EnteringKingRule::Point27:
      return "27";
    case EnteringKingRule::Point24:
      return "24";
    case EnteringKingRule::Off:
      return "off";
  }
  return "off";
}

int declaration_points(const Position& pos, Color c) {
  Bitboard camp = bb::PROMOTION_ZONE_BB[c] & pos.pieces(c);
  Bitboard big = pos.pieces(BISHOP, ROOK) | pos.pieces(HORSE, DRAGON);
  int camp_big = (camp & big).count();
  int camp_small = camp.andnot(big | pos.pieces(KING)).count();
  Hand h = pos.hand(c);
  int hand_big = hand_count(h, BISHOP) + hand_count(h, ROOK);
  int hand_small =
      hand_count(h, PAWN) + hand_count(h, LANCE) + hand_count(h, KNIGHT) + hand_count(h, SILVER) + hand_count(h, GOLD);
  return 5 * (camp_big + hand_big) + camp_small + hand_small;
}

DeclarationCheck check_declaration(const Position& pos, EnteringKingRule rule) {
  auto fail = [](std::string why) { return DeclarationCheck{false, std::move(why)}; };
  if (rule == EnteringKingRule::Off) return fail("entering-king declarations are not allowed");
  Color us = pos.side_to_move();
  if (!pos.has_king(us)) return fail("the declaring side has no king");
  if (!bb::PROMOTION_ZONE_BB[us].test(pos.king_square(us))) return fail("the king is not in the enemy camp");
  if (pos.in_check()) return fail("the king is in check");
  int in_camp = (bb::PROMOTION_ZONE_BB[us] & pos.pieces(us)).count() - 1;
  if (in_camp < 10) return fail(std::to_string(in_camp) + " pieces besides the king in the enemy camp, 10 needed");
  int needed = rule == EnteringKingRule::Point27 ? (us == BLACK ? 28 : 27) : 31;
  int points = declaration_points(pos, us);
  if (points < needed) return fail(std::to_string(points) + " points, " + std::to_string(needed) + " needed");
  return {true, ""};
}

std::string_view to_string(GameEnd end) {
  switch (end) {
    case GameEnd::None:
      return "none";
    case GameEnd::NoLegalMoves:
      return "no legal moves";
    case GameEnd::Sennichite:
      return "sennichite";
    case GameEnd::PerpetualCheck:
      return "perpetual check";
    case GameEnd::MaxMoves:
      return "max moves";
  }
  return "none";
}

GameRecord::GameRecord() {
  Position::init();
  (void)pos_.set(START_SFEN, &next_state());
  start_sfen_ = std::string(START_SFEN);
}

StateInfo& GameRecord::next_state() {
  if (states_used_ == state_chunks_.size() * STATE_CHUNK)
    state_chunks_.push_back(std::make_unique<StateInfo[]>(STATE_CHUNK));
  StateInfo& st = state_chunks_[states_used_ / STATE_CHUNK][states_used_ % STATE_CHUNK];
  ++states_used_;
  st = StateInfo{};
  return st;
}

namespace {

std::vector<std::string_view> tokens_of(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n')) ++i;
    size_t j = i;
    while (j < s.size() && s[j] != ' ' && s[j] != '\t' && s[j] != '\r' && s[j] != '\n') ++j;
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

}  // namespace

std::expected<void, std::string> GameRecord::start(std::string_view position_text, PieceLimits limits) {
  std::vector<std::string_view> tokens = tokens_of(position_text);
  size_t i = 0;
  if (i < tokens.size() && tokens[i] == "position") ++i;
  if (i == tokens.size()) return std::unexpected("position: expected 'startpos' or an SFEN");
  std::string sfen;
  if (tokens[i] == "startpos") {
    sfen = std::string(START_SFEN);
    ++i;
  } else {
    if (tokens[i] == "sfen") ++i;
    for (; i < tokens.size() && tokens[i] != "moves"; ++i) {
      if (!sfen.empty()) sfen += ' ';
      sfen += tokens[i];
    }
  }
  std::vector<std::string_view> move_texts;
  if (i < tokens.size()) {
    if (tokens[i] != "moves")
      return std::unexpected("position: expected 'moves', got '" + std::string(tokens[i]) + "'");
    move_texts.assign(tokens.begin() + long(i) + 1, tokens.end());
  }

  // Validate everything on a scratch position first so a bad input leaves this record as it was.
  {
    StateInfo root;
    Position scratch;
    if (auto r = scratch.set(sfen, &root, limits); !r) return std::unexpected(r.error());
    std::vector<StateInfo> scratch_states(move_texts.size());  // one allocation; never resized, so never moved
    for (size_t k = 0; k < move_texts.size(); ++k) {
      auto m = parse_usi_move(scratch, move_texts[k]);
      if (!m) return std::unexpected("position: move " + std::to_string(k + 1) + " " + m.error());
      scratch.do_move(*m, scratch_states[k]);
    }
  }

  states_used_ = 0;  // the chunks stay: a record reused for many games allocates them once
  (void)pos_.set(sfen, &next_state(), limits);
  start_sfen_ = pos_.sfen();
  moves_.clear();
  counts_.clear();
  counts_.add(pos_.key());
  for (std::string_view text : move_texts) play(*parse_usi_move(pos_, text));
  opening_plies_ = moves_.size();
  return {};
}

void GameRecord::play(Move m) {
  pos_.do_move(m, next_state());
  moves_.push_back(m);
  counts_.add(pos_.key());
}

std::expected<Move, std::string> GameRecord::play_usi(std::string_view text) {
  auto m = parse_usi_move(pos_, text);
  if (m) play(*m);
  return m;
}

GameStatus GameRecord::status(int max_plies) const {
  Color us = pos_.side_to_move();
  // The exact test looks back through the whole game; it runs only when this position has occurred four times.
  const Repetition repetition = counts_.count(pos_.key()) >= 4 ? pos_.repetition(4, INT_MAX) : Repetition::None;
  switch (repetition) {
    case Repetition::Draw:
      return {GameEnd::Sennichite, true, us};
    case Repetition::Win:
      return {GameEnd::PerpetualCheck, false, us};
    case Repetition::Loss:
      return {GameEnd::PerpetualCheck, false, ~us};
    case Repetition::None:
      break;
  }
  if (!has_legal_move(pos_)) return {GameEnd::NoLegalMoves, false, ~us};
  if (max_plies > 0 && pos_.game_ply() - 1 >= max_plies) return {GameEnd::MaxMoves, true, us};
  return {};
}

std::string GameRecord::usi_position_command() const {
  std::string out = start_sfen_ == START_SFEN ? "position startpos" : "position sfen " + start_sfen_;
  if (!moves_.empty()) {
    out += " moves";
    for (Move m : moves_) {
      out += ' ';
      out += to_usi(m);
    }
  }
  return out;
}

}  // namespace shogi
