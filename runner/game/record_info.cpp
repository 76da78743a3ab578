#include "game/record_info.h"

namespace arena::game {

namespace {

void copy_scalars(const usi::SearchInfo& in, SearchInfo& out) {
  out.depth = in.depth;
  out.seldepth = in.seldepth;
  out.nodes = in.nodes;
  if (!in.score) return;
  if (in.score->is_mate())
    out.score_mate = in.score->value != 0 ? in.score->value : in.score->mate_sign * UNKNOWN_MATE_DISTANCE;
  else
    out.score_cp = in.score->value;
}

}  // namespace

SearchInfo record_info(const usi::SearchInfo& in) {
  SearchInfo out;
  copy_scalars(in, out);
  out.pv = in.pv;
  return out;
}

SearchInfo record_info(usi::SearchInfo&& in) {
  SearchInfo out;
  copy_scalars(in, out);
  out.pv = std::move(in.pv);
  return out;
}

}  // namespace arena::game
