#include "output/json.h"

#include <boost/json/basic_parser_impl.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serializer.hpp>
#include <boost/json/stream_parser.hpp>
#include <boost/json/value_stack.hpp>
#include <charconv>
#include <cmath>
#include <utility>

#include "output/utf8.h"

namespace arena::json {

namespace {

boost::json::parse_options options() {
  boost::json::parse_options o;
  o.max_depth = 64;  // as deep as the reader before Boost.JSON went (a journal line is 4 deep)
  o.allow_invalid_utf8 = true;
  return o;
}

// Boost.JSON's own parser's handler (boost/json/parser.hpp) with one change: a double is read again from its text
// with std::from_chars. Boost 1.81 rounds some doubles to a neighbour (30.793119572439526 reads as
// 30.793119572439529), and a journal must read back exactly what it wrote: SPSA's theta, resumed, must continue
// the same trajectory.
class ValueHandler {
 public:
  constexpr static std::size_t max_object_size = boost::json::object::max_size();
  constexpr static std::size_t max_array_size = boost::json::array::max_size();
  constexpr static std::size_t max_key_size = boost::json::string::max_size();
  constexpr static std::size_t max_string_size = boost::json::string::max_size();

  boost::json::value_stack st;

  bool on_document_begin(boost::system::error_code&) { return true; }
  bool on_document_end(boost::system::error_code&) { return true; }
  bool on_object_begin(boost::system::error_code&) { return true; }
  bool on_object_end(std::size_t n, boost::system::error_code&) {
    st.push_object(n);
    return true;
  }
  bool on_array_begin(boost::system::error_code&) { return true; }
  bool on_array_end(std::size_t n, boost::system::error_code&) {
    st.push_array(n);
    return true;
  }
  bool on_key_part(boost::json::string_view s, std::size_t, boost::system::error_code&) {
    st.push_chars(s);
    return true;
  }
  bool on_key(boost::json::string_view s, std::size_t, boost::system::error_code&) {
    st.push_key(s);
    return true;
  }
  bool on_string_part(boost::json::string_view s, std::size_t, boost::system::error_code&) {
    st.push_chars(s);
    return true;
  }
  bool on_string(boost::json::string_view s, std::size_t, boost::system::error_code&) {
    st.push_string(s);
    return true;
  }
  bool on_number_part(boost::json::string_view s, boost::system::error_code&) {
    number_.append(s.data(), s.size());
    return true;
  }
  bool on_int64(std::int64_t i, boost::json::string_view, boost::system::error_code&) {
    number_.clear();
    st.push_int64(i);
    return true;
  }
  bool on_uint64(std::uint64_t u, boost::json::string_view, boost::system::error_code&) {
    number_.clear();
    st.push_uint64(u);
    return true;
  }
  bool on_double(double d, boost::json::string_view s, boost::system::error_code&) {
    number_.append(s.data(), s.size());
    double exact = d;
    // Boost reads a number too large for a double as infinity: from_chars refuses it, and Boost's value stays.
    if (auto r = std::from_chars(number_.data(), number_.data() + number_.size(), exact); r.ec != std::errc())
      exact = d;
    number_.clear();
    st.push_double(exact);
    return true;
  }
  bool on_bool(bool b, boost::system::error_code&) {
    st.push_bool(b);
    return true;
  }
  bool on_null(boost::system::error_code&) {
    st.push_null();
    return true;
  }
  bool on_comment_part(boost::json::string_view, boost::system::error_code&) { return true; }
  bool on_comment(boost::json::string_view, boost::system::error_code&) { return true; }

 private:
  std::string number_;  // the parts of a number split between buffers
};

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
        const std::string key = utf8::is_valid(member.key()) ? std::string() : utf8::replace_invalid(member.key());
        sr.reset(key.empty() ? std::string_view(member.key()) : std::string_view(key));
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
    case boost::json::kind::string:
      if (!utf8::is_valid(v.get_string())) {
        // Boost passes any byte through; JSON is UTF-8.
        const boost::json::value valid(utf8::replace_invalid(v.get_string()));
        sr.reset(&valid);
        drain(out, sr);
        break;
      }
      [[fallthrough]];
    default:  // strings (Boost escapes control characters as \n or \u001f), integers, ...
      sr.reset(&v);
      drain(out, sr);
  }
}

}  // namespace

std::expected<boost::json::value, std::string> parse(std::string_view text) {
  boost::json::basic_parser<ValueHandler> p(options());
  p.handler().st.reset();
  boost::system::error_code ec;
  const std::size_t used = p.write_some(false, text.data(), text.size(), ec);
  // Whitespace may follow the value; anything else is an error, as Boost's own parse() says.
  if (!ec && text.find_first_not_of(" \t\r\n", used) != std::string_view::npos) ec = boost::json::error::extra_data;
  if (!ec) return p.handler().st.release();
  return std::unexpected(ec.message() + " at offset " + std::to_string(error_offset(text)));
}

std::string serialize(const boost::json::value& v) {
  std::string out;
  boost::json::serializer sr;
  append_value(out, v, sr);
  return out;
}

}  // namespace arena::json
