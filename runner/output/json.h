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
// so times and node counts are exact; any other number is a double. Bytes that are not UTF-8 are kept as they are:
// names and engine texts are written byte for byte and must read back. Errors read like
// "syntax error at offset 17".
std::expected<boost::json::value, std::string> parse(std::string_view text);

// The text of `v` on one line, as Boost.JSON writes it except for doubles: Boost 1.81 writes every double in
// exponent form ("5E-2", "0E0") and infinities as "Infinity", which is not JSON. Here a double takes its shortest
// exact form ("0.05", "5") and a non-finite one is null.
std::string serialize(const boost::json::value& v);

}  // namespace arena::json
