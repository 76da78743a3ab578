#pragma once
// UTF-8 as RFC 3629 defines it (no overlong forms, no surrogates, nothing above U+10FFFF), for text that comes from
// outside: an engine's output on its way into the journal, a KIF file that may be Shift_JIS. No Boost, so that any
// room can include it.

#include <cstddef>
#include <string>
#include <string_view>

namespace arena::utf8 {

// The length of the well-formed sequence at the start of `s` (1 to 4), or 0 if there is none.
size_t sequence_length(std::string_view s);

// Whether `s` is well-formed UTF-8 from end to end.
bool is_valid(std::string_view s);

// `s` with each byte that does not belong to a well-formed sequence replaced by U+FFFD; a valid `s` is unchanged.
std::string replace_invalid(std::string_view s);

// `s` for one line of a terminal: control characters (tab aside) and bytes outside well-formed sequences written as
// \xNN, so that an error quoting a file's garbage shows what it held and cannot move the cursor or set colours.
std::string printable(std::string_view s);

}  // namespace arena::utf8
