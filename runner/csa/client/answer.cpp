#include "csa/client/answer.h"

#include "output/record_common.h"
#include "rules/movegen.h"
#include "rules/notation.h"

namespace arena::csa {

namespace {

// Concatenation by appending: GCC 12 at -O3 warns falsely (-Wrestrict) about chains of "literal" + std::string.
std::string cat(std::initializer_list<std::string_view> parts) {
  std::string out;
  for (auto p : parts) out.append(p);
  return out;
}

std::optional<shogi::Move> fallback_move(const shogi::Position& pos, const usi::SearchInfo& info,
                                         const std::string& refused) {
  if (!info.pv.empty() && info.pv.front() != refused)
    if (auto m = shogi::parse_usi_move(pos, info.pv.front())) return *m;
  shogi::MoveList<shogi::LEGAL> moves(pos);
  if (moves.size() == 0) return std::nullopt;
  return moves.begin()->move;
}

}  // namespace

Answer decide_answer(const shogi::Position& pos, const usi::SearchResult& result, const usi::SearchInfo& info,
                     bool answered, shogi::EnteringKingRule declaration_rule) {
  Answer a;
  if (!answered) {
    a.fallback_why = result.status == usi::Status::Timeout ? std::string("the engine did not answer `stop` in time")
                                                           : cat({"the engine is gone (", result.text, ")"});
  } else if (result.status == usi::Status::ProtocolError) {
    a.fallback_why = cat({"malformed bestmove '", result.text, "'"});
  } else if (result.bestmove.is_resign()) {
    a.kind = Answer::Kind::Resign;
    return a;
  } else if (result.bestmove.is_win()) {
    auto check = shogi::check_declaration(pos, declaration_rule);
    if (check.valid) {
      a.kind = Answer::Kind::Declare;
      return a;
    }
    a.fallback_why = cat({"the engine declared a win the rules do not allow (",
                          check.reason.empty() ? std::string_view("declarations are off") : check.reason, ")"});
  } else if (auto m = shogi::parse_usi_move(pos, result.bestmove.move)) {
    a.kind = Answer::Kind::Move;
    a.move = *m;
    return a;
  } else {
    a.fallback_why = cat({"illegal bestmove ", m.error()});
  }
  if (auto m = fallback_move(pos, info, result.bestmove.move)) {
    a.kind = Answer::Kind::Move;
    a.move = *m;
  } else {
    a.kind = Answer::Kind::Resign;
  }
  return a;
}

std::string floodgate_comment(const shogi::Position& before, shogi::Move played, const SearchInfo& info,
                              shogi::Color us) {
  std::optional<int> score = record::score_for_black(info, us);
  if (!score) return {};
  std::string out = ",'* " + std::to_string(*score);
  std::vector<shogi::Move> pv = record::legal_pv(before, info.pv);
  std::size_t first = !pv.empty() && pv.front() == played ? 1 : 0;
  if (first == 0 && !pv.empty()) return out;  // a PV that does not start with the move played says nothing
  for (std::size_t i = first; i < pv.size(); ++i) out.append(" ").append(shogi::to_csa(pv[i]));
  return out;
}

}  // namespace arena::csa
