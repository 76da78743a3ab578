#include "output/json.h"

#include <boost/json/parse.hpp>
#include <boost/json/serializer.hpp>
#include <boost/json/stream_parser.hpp>
#include <charconv>
#include <cmath>
#include <utility>

namespace arena::json {

namespace {

boost::json::parse_options options() {
  boost::json::parse_options o;
  o.max_depth = 64;  // as deep as the reader before Boost.JSON went (a journal line is 4 deep)
  o.allow_invalid_utf8 = true;
  return o;
}

// Boost.JSON 1.81 says what went wrong but not where. Fed one character at a time, its stream parser fails on the
// very character it could not take, which gives the offset. Only a failed parse pays for this.
size_t error_offset(std::string_view text) {
  boost::json::stream_parser p({}, options());
  boost::system::error_code ec;
  for (size_t i = 0; i < text.size(); ++i)
    if (p.write(text.data() + i, 1, ec); ec) return i;
  return text.size();
}

// What `sr` writes since its last reset.
void drain(std::string& out, boost::json::serializer& sr) {
  char buf[256];
  while (!sr.done()) out += sr.read(buf, sizeof buf);
}

void append_value(std::string& out, const boost::json::value& v, boost::json::serializer& sr) {
  switch (v.kind()) {
    case boost::json::kind::object: {
      out += '{';
      bool first = true;
      for (const auto& member : v.get_object()) {
        if (!std::exchange(first, false)) out += ',';
        sr.reset(member.key());
        drain(out, sr);
        out += ':';
        append_value(out, member.value(), sr);
      }
      out += '}';
      break;
    }
    case boost::json::kind::array: {
      out += '[';
      bool first = true;
      for (const auto& element : v.get_array()) {
        if (!std::exchange(first, false)) out += ',';
        append_value(out, element, sr);
      }
      out += ']';
      break;
    }
    case boost::json::kind::double_:
      if (std::isfinite(v.get_double())) {
        char buf[32];
        out.append(buf, std::to_chars(buf, buf + sizeof buf, v.get_double()).ptr);
      } else {
        out += "null";
      }
      break;
    default:  // strings (Boost escapes control characters as \n or \u001f and passes UTF-8 through), integers, ...
      sr.reset(&v);
      drain(out, sr);
  }
}

}  // namespace

std::expected<boost::json::value, std::string> parse(std::string_view text) {
  boost::system::error_code ec;
  boost::json::value v = boost::json::parse(text, ec, {}, options());
  if (!ec) return v;
  return std::unexpected(ec.message() + " at offset " + std::to_string(error_offset(text)));
}

std::string serialize(const boost::json::value& v) {
  std::string out;
  boost::json::serializer sr;
  append_value(out, v, sr);
  return out;
}

}  // namespace arena::json
