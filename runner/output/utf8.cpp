#include "output/utf8.h"

#include <algorithm>
#include <cstdint>

namespace arena::utf8 {

size_t sequence_length(std::string_view s) {
  auto byte = [&](size_t i) { return i < s.size() ? uint8_t(s[i]) : 0; };
  auto continuation = [&](size_t i, uint8_t lo = 0x80, uint8_t hi = 0xbf) { return byte(i) >= lo && byte(i) <= hi; };
  if (s.empty()) return 0;
  const uint8_t b = byte(0);
  if (b < 0x80) return 1;
  if (b >= 0xc2 && b <= 0xdf) return continuation(1) ? 2 : 0;
  if (b >= 0xe0 && b <= 0xef) {
    // E0 would start an overlong form below A0; ED would start a surrogate from A0.
    const uint8_t lo = b == 0xe0 ? 0xa0 : 0x80, hi = b == 0xed ? 0x9f : 0xbf;
    return continuation(1, lo, hi) && continuation(2) ? 3 : 0;
  }
  if (b >= 0xf0 && b <= 0xf4) {
    // F0 would start an overlong form below 90; F4 would go past U+10FFFF from 90.
    const uint8_t lo = b == 0xf0 ? 0x90 : 0x80, hi = b == 0xf4 ? 0x8f : 0xbf;
    return continuation(1, lo, hi) && continuation(2) && continuation(3) ? 4 : 0;
  }
  return 0;
}

bool is_valid(std::string_view s) {
  for (size_t i = 0, n; i < s.size(); i += n)
    if ((n = sequence_length(s.substr(i))) == 0) return false;
  return true;
}

std::string replace_invalid(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    if (const size_t n = sequence_length(s.substr(i)); n > 0) {
      out.append(s.substr(i, n));
      i += n;
    } else {
      out += "\xEF\xBF\xBD";  // U+FFFD
      ++i;
    }
  }
  return out;
}

std::string printable(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const size_t n = sequence_length(s.substr(i));
    const auto b = uint8_t(s[i]);
    // C1 controls (U+0080..U+009F) are two bytes, C2 80..C2 9F: escaped as well.
    const bool control =
        (n == 1 && ((b < 0x20 && b != '\t') || b == 0x7f)) || (n == 2 && b == 0xc2 && uint8_t(s[i + 1]) < 0xa0);
    if (n > 0 && !control) {
      out.append(s.substr(i, n));
      i += n;
      continue;
    }
    for (size_t k = 0; k < std::max<size_t>(n, 1); ++k) {
      static constexpr char hex[] = "0123456789abcdef";
      const auto c = uint8_t(s[i + k]);
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
    i += std::max<size_t>(n, 1);
  }
  return out;
}

}  // namespace arena::utf8
