#include "types.h"

namespace shogi {

std::string to_string(Square s) {
  if (!is_ok(s)) return "--";
  return std::string{char('1' + file_of(s)), char('a' + rank_of(s))};
}

}  // namespace shogi
