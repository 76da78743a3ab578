#pragma once
// The small part of JSON the result journal needs: writing string literals, and parsing a document back into a
// tree of values with errors that say where the text went wrong. Numbers keep integers exact (int64) because
// times and node counts must survive a round trip.

#include <cstdint>
#include <expected>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace arena::json {

// Appends `s` as a JSON string literal, quotes included. Bytes >= 0x80 pass through (UTF-8 stays readable);
// control characters are escaped.
void append_string(std::string& out, std::string_view s);

struct Value;
using Array = std::vector<Value>;
using Object = std::vector<std::pair<std::string, Value>>;  // in document order

struct Value {
  std::variant<std::nullptr_t, bool, int64_t, double, std::string, Array, Object> data;

  bool is_null() const { return std::holds_alternative<std::nullptr_t>(data); }
  const bool* as_bool() const { return std::get_if<bool>(&data); }
  const int64_t* as_int() const { return std::get_if<int64_t>(&data); }
  const std::string* as_string() const { return std::get_if<std::string>(&data); }
  const Array* as_array() const { return std::get_if<Array>(&data); }
  const Object* as_object() const { return std::get_if<Object>(&data); }
  // The member named `key` of an object, or nullptr (also when this is not an object).
  const Value* find(std::string_view key) const;
};

// Parses exactly one JSON value (surrounding whitespace allowed). Errors read like
// "expected ',' or '}' at offset 17".
std::expected<Value, std::string> parse(std::string_view text);

}  // namespace arena::json
