// Fuzzes the runner's readers of what an engine prints, which is untrusted input: `info` lines (both parsers, and
// merging what they accept), `bestmove` lines, `option` declarations with the value checks and setoption lines
// built from them, and the word splitter against the word cursor the hot path uses.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_common.h"
#include "usi/usi_info.h"
#include "usi/usi_option.h"

using namespace arena::usi;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  SearchInfo merged, reused;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string_view line = std::string_view(text).substr(start, end - start);
    start = end + 1;

    std::string error;
    auto info = parse_info(line, &error);
    const bool reused_ok = parse_info(line, reused);
    fuzz::require(info.has_value() == reused_ok, "both info parsers agree", std::string(line));
    if (info) {
      fuzz::require(info->pv == reused.pv && info->depth == reused.depth && info->nodes == reused.nodes,
                    "both info parsers read the same fields", std::string(line));
      merged.merge(*info);
      SearchInfo moved = *info;
      merged.merge(std::move(moved));
    } else {
      fuzz::require(!error.empty(), "a refused info line has a reason", std::string(line));
    }

    (void)parse_bestmove(line, &error);

    if (auto option = parse_option_line(line)) {
      fuzz::require(!option->name.empty(), "an option has a name", std::string(line));
      for (std::string_view value : {std::string_view("0"), std::string_view("true"), std::string_view("<empty>"),
                                     std::string_view(option->default_value)})
        if (check_option_value(*option, value)) (void)setoption_command(*option, value);
    }

    // The cursor sees exactly the words the splitter returns.
    const auto words = split_words(line);
    WordCursor cursor(line);
    for (std::string_view w : words) fuzz::require(cursor.next() == w, "cursor and splitter agree", std::string(line));
    fuzz::require(cursor.at_end(), "the cursor ends with the splitter", std::string(line));
  }
  return 0;
}
