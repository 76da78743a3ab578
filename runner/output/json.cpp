#include "output/json.h"

#include <charconv>
#include <cstdio>

namespace arena::json {

void append_string(std::string& out, std::string_view s) {
  out += '"';
  for (char ch : s) {
    unsigned char c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", unsigned(c));
          out += buf;
        } else {
          out += ch;
        }
    }
  }
  out += '"';
}

const Value* Value::find(std::string_view key) const {
  const Object* obj = as_object();
  if (!obj) return nullptr;
  for (const auto& [k, v] : *obj)
    if (k == key) return &v;
  return nullptr;
}

namespace {

// Recursive descent; the depth limit keeps hostile input from exhausting the stack.
class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  std::expected<Value, std::string> document() {
    auto v = value(0);
    if (!v) return v;
    skip_space();
    if (pos_ != text_.size()) return fail("unexpected text after the value");
    return v;
  }

 private:
  static constexpr int MAX_DEPTH = 64;

  std::unexpected<std::string> fail(std::string_view what) const {
    return std::unexpected(std::string(what) + " at offset " + std::to_string(pos_));
  }
  void skip_space() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }
  bool consume(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  std::expected<Value, std::string> value(int depth) {
    if (depth > MAX_DEPTH) return fail("nesting too deep");
    skip_space();
    if (pos_ == text_.size()) return fail("unexpected end of input");
    char c = text_[pos_];
    if (c == '{') return object(depth);
    if (c == '[') return array(depth);
    if (c == '"') {
      auto s = string();
      if (!s) return std::unexpected(s.error());
      return Value{std::move(*s)};
    }
    if (consume("null")) return Value{nullptr};
    if (consume("true")) return Value{true};
    if (consume("false")) return Value{false};
    if (c == '-' || (c >= '0' && c <= '9')) return number();
    return fail(std::string("unexpected character '") + c + "'");
  }

  std::expected<Value, std::string> object(int depth) {
    ++pos_;  // '{'
    Object obj;
    skip_space();
    if (consume("}")) return Value{std::move(obj)};
    for (;;) {
      skip_space();
      if (pos_ == text_.size() || text_[pos_] != '"') return fail("expected a member name");
      auto key = string();
      if (!key) return std::unexpected(key.error());
      skip_space();
      if (!consume(":")) return fail("expected ':'");
      auto v = value(depth + 1);
      if (!v) return v;
      obj.emplace_back(std::move(*key), std::move(*v));
      skip_space();
      if (consume("}")) return Value{std::move(obj)};
      if (!consume(",")) return fail("expected ',' or '}'");
    }
  }

  std::expected<Value, std::string> array(int depth) {
    ++pos_;  // '['
    Array arr;
    skip_space();
    if (consume("]")) return Value{std::move(arr)};
    for (;;) {
      auto v = value(depth + 1);
      if (!v) return v;
      arr.push_back(std::move(*v));
      skip_space();
      if (consume("]")) return Value{std::move(arr)};
      if (!consume(",")) return fail("expected ',' or ']'");
    }
  }

  std::expected<Value, std::string> number() {
    size_t start = pos_;
    if (text_[pos_] == '-') ++pos_;
    auto digits = [&] {
      size_t from = pos_;
      while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
      return pos_ - from;
    };
    if (digits() == 0) return fail("expected a digit");
    bool integral = true;
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      integral = false;
      if (digits() == 0) return fail("expected a digit after '.'");
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      integral = false;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      if (digits() == 0) return fail("expected a digit in the exponent");
    }
    const char* first = text_.data() + start;
    const char* last = text_.data() + pos_;
    if (integral) {
      int64_t i = 0;
      auto [p, ec] = std::from_chars(first, last, i);
      if (ec == std::errc() && p == last) return Value{i};
    }
    double d = 0;
    auto [p, ec] = std::from_chars(first, last, d);
    if (ec != std::errc() || p != last) return fail("number out of range");
    return Value{d};
  }

  std::expected<uint32_t, std::string> hex4() {
    if (pos_ + 4 > text_.size()) return fail("truncated \\u escape");
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      char c = text_[pos_++];
      v <<= 4;
      if (c >= '0' && c <= '9') v |= uint32_t(c - '0');
      else if (c >= 'a' && c <= 'f') v |= uint32_t(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') v |= uint32_t(c - 'A' + 10);
      else return fail("bad hex digit in \\u escape");
    }
    return v;
  }

  static void append_utf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
      out += char(cp);
    } else if (cp < 0x800) {
      out += char(0xC0 | (cp >> 6));
      out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += char(0xE0 | (cp >> 12));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    } else {
      out += char(0xF0 | (cp >> 18));
      out += char(0x80 | ((cp >> 12) & 0x3F));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    }
  }

  std::expected<std::string, std::string> string() {
    ++pos_;  // '"'
    std::string out;
    for (;;) {
      if (pos_ == text_.size()) return fail("unterminated string");
      char c = text_[pos_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) return fail("control character in a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ == text_.size()) return fail("unterminated string");
      char e = text_[pos_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          auto cp = hex4();
          if (!cp) return std::unexpected(cp.error());
          uint32_t code = *cp;
          if (code >= 0xD800 && code <= 0xDBFF) {  // a high surrogate must be followed by a low one
            if (!consume("\\u")) return fail("unpaired surrogate in \\u escape");
            auto low = hex4();
            if (!low) return std::unexpected(low.error());
            if (*low < 0xDC00 || *low > 0xDFFF) return fail("unpaired surrogate in \\u escape");
            code = 0x10000 + ((code - 0xD800) << 10) + (*low - 0xDC00);
          } else if (code >= 0xDC00 && code <= 0xDFFF) {
            return fail("unpaired surrogate in \\u escape");
          }
          append_utf8(out, code);
          break;
        }
        default: return fail(std::string("bad escape '\\") + e + "'");
      }
    }
  }

  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

std::expected<Value, std::string> parse(std::string_view text) { return Parser(text).document(); }

}  // namespace arena::json
