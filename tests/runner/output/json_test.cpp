// The layer over Boost.JSON behind the result journal and the summaries: what it writes (as the hand-written writer
// before it did), what it reads, and where it says a text went wrong.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include <boost/json/parse.hpp>

#include "output/json.h"

using namespace arena;
namespace bj = boost::json;

TEST_CASE("json: strings escape quotes, backslashes and control characters, not UTF-8") {
  const std::string s = "a\"b\\c\nd\te\x01\x1f\x7f 先手";
  const std::string text = json::serialize(bj::value(s));
  CHECK(text == "\"a\\\"b\\\\c\\nd\\te\\u0001\\u001f\x7f 先手\"");
  auto back = json::parse(text);
  REQUIRE(back.has_value());
  REQUIRE(back->is_string());
  CHECK(std::string_view(back->get_string()) == s);
}

TEST_CASE("json: bytes that are not UTF-8 are written as U+FFFD, so that every JSON reader takes the text") {
  const std::string fffd = "\xef\xbf\xbd";
  // An engine's bestmove with a stray byte, in a value and in a key: Boost's strict parser (as Python's json)
  // refuses raw invalid UTF-8, and takes what serialize writes.
  bj::object o;
  o["illegal_move"] = "7g7f\xff";
  o["k\x90"] = 1;
  const std::string text = json::serialize(o);
  CHECK(text == "{\"illegal_move\":\"7g7f" + fffd + "\",\"k" + fffd + "\":1}");
  boost::system::error_code ec;
  (void)bj::parse(text, ec);
  CHECK_FALSE(ec);
  (void)bj::parse("\"7g7f\xff\"", ec);
  CHECK(ec);  // the check above can fail

  // Journals written before keep reading: raw bytes come back as they are.
  auto back = json::parse("\"\xff\xfe sjis\"");
  REQUIRE(back.has_value());
  CHECK(std::string_view(back->get_string()) == "\xff\xfe sjis");
}

TEST_CASE("json: doubles in their shortest exact form, non-finite ones as null, integers exact") {
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(json::serialize(bj::array{0.05, 5.0, -0.0, 1e-5, 2.8903717578961645}) ==
        "[0.05,5,-0,1e-05,2.8903717578961645]");
  CHECK(json::serialize(bj::array{inf, -inf, std::nan("")}) == "[null,null,null]");
  CHECK(json::serialize(bj::array{int64_t(-9007199254740993), uint64_t(18446744073709551615ull), true, nullptr}) ==
        "[-9007199254740993,18446744073709551615,true,null]");
}

TEST_CASE("json: members keep the order they were added in") {
  bj::object o;
  o.emplace("z", 1);
  o.emplace("a", bj::object{});
  o.emplace("m", bj::array{});
  CHECK(json::serialize(o) == R"({"z":1,"a":{},"m":[]})");
}

TEST_CASE("json: numbers read back as integers when they are integers") {
  auto v = json::parse(R"( {"a": [1, -2, 9007199254740993, 18446744073709551615, 12.0, 1.5, 1e400, true, null]} )");
  REQUIRE(v.has_value());
  REQUIRE(v->is_object());
  const bj::value* member = v->get_object().if_contains("a");
  REQUIRE(member);
  REQUIRE(member->is_array());
  const bj::array& a = member->get_array();
  REQUIRE(a.size() == 9);
  CHECK(a[0].if_int64());
  CHECK(*a[2].if_int64() == 9007199254740993);  // beyond double precision
  CHECK(*a[3].if_uint64() == 18446744073709551615ull);
  CHECK_FALSE(a[4].is_int64());  // 12.0 is not an integer to the readers
  CHECK(*a[5].if_double() == 1.5);
  CHECK(std::isinf(*a[6].if_double()));  // the readers that take doubles refuse it
  CHECK(a[8].is_null());
}

TEST_CASE("json: errors say what and where") {
  auto err = [](std::string_view text) {
    auto v = json::parse(text);
    REQUIRE_FALSE(v.has_value());
    return v.error();
  };
  CHECK(err("") == "incomplete JSON at offset 0");
  CHECK(err("{\"a\" 1}") == "syntax error at offset 5");
  CHECK(err("[1 2]") == "syntax error at offset 3");
  CHECK(err("{\"a\":1,}") == "syntax error at offset 7");
  CHECK(err("\"abc") == "incomplete JSON at offset 4");
  CHECK(err("\"\\x\"") == "syntax error at offset 2");
  CHECK(err("\"\\ud83d\"") == "syntax error at offset 7");
  CHECK(err("\"a\tb\"") == "syntax error at offset 2");  // a raw control character
  CHECK(err("1x") == "extra data at offset 1");
  CHECK(err("{} {}") == "extra data at offset 3");
  CHECK(err("nul") == "incomplete JSON at offset 3");
  CHECK(err("hello") == "syntax error at offset 0");
  CHECK(err(std::string(100, '[')) == "too deep at offset 64");
}

TEST_CASE("json: every double reads back exactly as it was written") {
  // Boost.JSON 1.81's own parser reads this one as 30.793119572439529: a resumed SPSA run would drift from the
  // uninterrupted one after one pair read back.
  CHECK(json::parse("30.793119572439526")->as_double() == 30.793119572439526);
  std::uint64_t x = 88172645463325252ull;  // xorshift: doubles of every magnitude and many digits
  for (int i = 0; i < 20000; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    const double d = std::ldexp(double(x >> 11) * 0x1.0p-53, int(x % 80) - 40) * (x & 1 ? -1 : 1);
    const std::string text = json::serialize(boost::json::value(d));
    auto back = json::parse("[" + text + "]");
    REQUIRE(back);
    CHECK_MESSAGE(back->as_array()[0].as_double() == d, text);
  }
  CHECK_FALSE(json::parse("1.5 x"));  // something after the value is an error, whitespace is not
  CHECK(json::parse(" 1.5 \n")->as_double() == 1.5);
}
