// UTF-8 as RFC 3629 defines it: what the journal writes in place of stray bytes, and what decides whether a KIF file
// is read as UTF-8 or as Shift_JIS.
#include <doctest/doctest.h>

#include "output/utf8.h"

using namespace arena;

TEST_CASE("utf8: each byte outside a well-formed sequence becomes one U+FFFD") {
  const std::string fffd = "\xef\xbf\xbd";
  // Stray bytes, Shift_JIS, an overlong form, a surrogate, a code point above U+10FFFF, a sequence cut short.
  CHECK(utf8::replace_invalid("\xff\xfe ok") == fffd + fffd + " ok");
  CHECK(utf8::replace_invalid("\x90\xe6") == fffd + fffd);
  CHECK(utf8::replace_invalid("\xc0\x80") == fffd + fffd);
  CHECK(utf8::replace_invalid("\xed\xa0\x80") == fffd + fffd + fffd);
  CHECK(utf8::replace_invalid("\xf4\x90\x80\x80") == fffd + fffd + fffd + fffd);
  CHECK(utf8::replace_invalid("a\xe5\x85") == "a" + fffd + fffd);
  // Well-formed sequences of every length, at the edges of their ranges, stay.
  const std::string valid = "\x7f \xc2\x80 \xc2\xa9 \xe0\xa0\x80 \xe5\x85\x88 \xed\x9f\xbf \xf0\x90\x80\x80 "
                            "\xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf";
  CHECK(utf8::replace_invalid(valid) == valid);
  CHECK(utf8::is_valid(valid));
  CHECK(utf8::replace_invalid("") == "");
}

TEST_CASE("utf8: sequence lengths and validity") {
  CHECK(utf8::sequence_length("") == 0);
  CHECK(utf8::sequence_length("a\xff") == 1);
  CHECK(utf8::sequence_length("\xc2\xa9\xff") == 2);
  CHECK(utf8::sequence_length("\xe5\x85\x88") == 3);
  CHECK(utf8::sequence_length("\xf0\x9f\x98\x80") == 4);
  CHECK(utf8::sequence_length("\x80") == 0);      // a continuation byte cannot start
  CHECK(utf8::sequence_length("\xc1\xbf") == 0);  // overlong two-byte form
  CHECK(utf8::sequence_length("\xf5\x80\x80\x80") == 0);
  CHECK(utf8::is_valid(""));
  CHECK(utf8::is_valid("7g7f 先手"));
  CHECK_FALSE(utf8::is_valid("7g7f\xff"));
  // Shift_JIS whose bytes have UTF-8's shape: "E0 80" (a kanji) then "82 4F" (a full-width 0) reads as an overlong
  // three-byte sequence and an "O" to a check that only counts continuation bytes; it is not UTF-8, so a KIF file
  // holding it goes to the Shift_JIS decoder.
  CHECK_FALSE(utf8::is_valid("\xe0\x80\x82\x4f"));
}

TEST_CASE("utf8: printable escapes control characters and invalid bytes, and keeps the rest") {
  CHECK(utf8::printable("a,\x01\x1b[31m,b") == "a,\\x01\\x1b[31m,b");
  CHECK(utf8::printable("tab\tnew\nline\r\x7f") == "tab\tnew\\x0aline\\x0d\\x7f");
  CHECK(utf8::printable("\xc2\x9b" "31m \xc2\xa0") == "\\xc2\\x9b31m \xc2\xa0");  // C1 CSI escaped, NBSP kept
  CHECK(utf8::printable("7g7f\xff \x90\xe6") == "7g7f\\xff \\x90\\xe6");
  CHECK(utf8::printable("先手 \xf0\x9f\x98\x80") == "先手 \xf0\x9f\x98\x80");
  CHECK(utf8::printable("") == "");
}
