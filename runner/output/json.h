#pragma once
// Boost.JSON for the result journal and the summaries, with what they need on top: a parse error that says where
// the text went wrong, and numbers written as they always were. Heavy to compile: include it only where JSON is
// read or written, never from a header.

#include <boost/json/value.hpp>
#include <expected>
#include <string>
#include <string_view>

namespace arena::json {

// Exactly one JSON value, surrounding whitespace allowed. An integer that fits is an int64 (uint64 above INT64_MAX),
// so times and node counts are exact; any other number is a double. Bytes that are not UTF-8 (journals written
// before serialize replaced them) are read as they are. Errors read like "syntax error at offset 17".
std::expected<boost::json::value, std::string> parse(std::string_view text);

// The text of `v` on one line, as Boost.JSON writes it except for doubles: Boost 1.81 writes every double in
// exponent form ("5E-2", "0E0") and infinities as "Infinity", which is not JSON. Here a double takes its shortest
// exact form ("0.05", "5") and a non-finite one is null. A string or key that is not UTF-8 (an engine that prints
// Shift_JIS or stray bytes) is written with U+FFFD for each byte that is not part of a well-formed sequence, so that
// the text is JSON to every reader (RFC 8259 requires UTF-8; Python's json and jq refuse other bytes).
std::string serialize(const boost::json::value& v);

}  // namespace arena::json
