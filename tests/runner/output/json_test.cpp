// The small JSON reader/writer behind the result journal.
#include <doctest/doctest.h>

#include "output/json.h"

using namespace arena;

TEST_CASE("json: string literals escape quotes, backslashes and control characters, not UTF-8") {
  std::string out;
  json::append_string(out, "a\"b\\c\nd\te\x01 先手");
  CHECK(out == "\"a\\\"b\\\\c\\nd\\te\\u0001 先手\"");
  auto back = json::parse(out);
  REQUIRE(back.has_value());
  REQUIRE(back->as_string());
  CHECK(*back->as_string() == "a\"b\\c\nd\te\x01 先手");
}

TEST_CASE("json: values, nesting and exact integers") {
  auto v = json::parse(R"( {"a": [1, -2, 9007199254740993, 1.5, true, false, null], "b": {"c": "d"}} )");
  REQUIRE(v.has_value());
  const json::Value* a = v->find("a");
  REQUIRE(a);
  REQUIRE(a->as_array());
  const json::Array& arr = *a->as_array();
  REQUIRE(arr.size() == 7);
  CHECK(*arr[0].as_int() == 1);
  CHECK(*arr[1].as_int() == -2);
  CHECK(*arr[2].as_int() == 9007199254740993);  // beyond double precision
  CHECK(std::get<double>(arr[3].data) == 1.5);
  CHECK(*arr[4].as_bool() == true);
  CHECK(*arr[5].as_bool() == false);
  CHECK(arr[6].is_null());
  CHECK(*v->find("b")->find("c")->as_string() == "d");
  CHECK(v->find("missing") == nullptr);
}

TEST_CASE("json: \\u escapes including surrogate pairs") {
  auto v = json::parse(R"("\u0041\u00e9\u5148\ud83d\ude00\/")");
  REQUIRE(v.has_value());
  CHECK(*v->as_string() == "Aé先😀/");
}

TEST_CASE("json: errors say what and where") {
  auto err = [](std::string_view text) {
    auto v = json::parse(text);
    REQUIRE_FALSE(v.has_value());
    return v.error();
  };
  CHECK(err("") == "unexpected end of input at offset 0");
  CHECK(err("{\"a\" 1}") == "expected ':' at offset 5");
  CHECK(err("[1 2]") == "expected ',' or ']' at offset 3");
  CHECK(err("{\"a\":1,}") == "expected a member name at offset 7");
  CHECK(err("\"abc") == "unterminated string at offset 4");
  CHECK(err("\"\\x\"") == "bad escape '\\x' at offset 3");
  CHECK(err("\"\\ud83d\"") == "unpaired surrogate in \\u escape at offset 7");
  CHECK(err("1x") == "unexpected text after the value at offset 1");
  CHECK(err("nul") == "unexpected character 'n' at offset 0");
  CHECK(err("{} {}") == "unexpected text after the value at offset 3");
  CHECK(err(std::string(100, '[')).starts_with("nesting too deep"));
}
