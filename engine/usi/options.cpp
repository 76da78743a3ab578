#include "usi/options.h"

#include <algorithm>
#include <charconv>
#include <stdexcept>

namespace shogi::usi {

namespace {

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return std::tolower(x) == std::tolower(y); });
}

}  // namespace

Option Option::check(bool def, OnChange f) {
  Option o;
  o.type_ = Type::Check;
  o.default_ = o.current_ = def ? "true" : "false";
  o.on_change_ = std::move(f);
  return o;
}

Option Option::spin(int64_t def, int64_t min, int64_t max, OnChange f) {
  Option o;
  o.type_ = Type::Spin;
  o.default_ = o.current_ = std::to_string(def);
  o.min_ = min;
  o.max_ = max;
  o.on_change_ = std::move(f);
  return o;
}

Option Option::combo(std::string def, std::vector<std::string> vars, OnChange f) {
  Option o;
  o.type_ = Type::Combo;
  o.default_ = o.current_ = std::move(def);
  o.vars_ = std::move(vars);
  o.on_change_ = std::move(f);
  return o;
}

Option Option::button(OnChange f) {
  Option o;
  o.type_ = Type::Button;
  o.on_change_ = std::move(f);
  return o;
}

Option Option::string(std::string def, OnChange f) {
  Option o;
  o.type_ = Type::String;
  o.default_ = o.current_ = std::move(def);
  o.on_change_ = std::move(f);
  return o;
}

int64_t Option::as_int() const {
  int64_t v = 0;
  std::from_chars(current_.data(), current_.data() + current_.size(), v);
  return v;
}

std::expected<void, std::string> Option::set(std::string_view value) {
  switch (type_) {
    case Type::Check:
      if (iequals(value, "true"))
        current_ = "true";
      else if (iequals(value, "false"))
        current_ = "false";
      else
        return std::unexpected("expected true or false, got '" + std::string(value) + "'");
      break;
    case Type::Spin: {
      int64_t v = 0;
      auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
      if (ec != std::errc() || ptr != value.data() + value.size() || value.empty())
        return std::unexpected("expected an integer, got '" + std::string(value) + "'");
      if (v < min_ || v > max_)
        return std::unexpected(std::to_string(v) + " is outside " + std::to_string(min_) + ".." + std::to_string(max_));
      current_ = std::to_string(v);
      break;
    }
    case Type::Combo: {
      auto it = std::find_if(vars_.begin(), vars_.end(), [&](const std::string& v) { return iequals(v, value); });
      if (it == vars_.end()) {
        std::string error = "'";  // appended: "'" + std::string(...) trips GCC 12's -Wrestrict false positive
        error += value;
        error += "' is not one of the choices";
        return std::unexpected(error);
      }
      current_ = *it;
      break;
    }
    case Type::Button:
      break;
    case Type::String:
      current_ = std::string(value);
      break;
  }
  if (on_change_) on_change_(*this);
  return {};
}

std::string Option::declaration() const {
  switch (type_) {
    case Type::Check: return "type check default " + default_;
    case Type::Spin:
      return "type spin default " + default_ + " min " + std::to_string(min_) + " max " + std::to_string(max_);
    case Type::Combo: {
      std::string s = "type combo default " + default_;
      for (const auto& v : vars_) s += " var " + v;
      return s;
    }
    case Type::Button: return "type button";
    case Type::String: return "type string default " + (default_.empty() ? std::string("<empty>") : default_);
  }
  return {};
}

void OptionsMap::add(std::string name, Option option) { options_.emplace_back(std::move(name), std::move(option)); }

Option* OptionsMap::find(std::string_view name) {
  for (auto& [n, o] : options_)
    if (iequals(n, name)) return &o;
  return nullptr;
}

const Option& OptionsMap::operator[](std::string_view name) const {
  for (const auto& [n, o] : options_)
    if (iequals(n, name)) return o;
  throw std::out_of_range("no option " + std::string(name));
}

std::expected<void, std::string> OptionsMap::set(std::string_view name, std::string_view value) {
  Option* o = find(name);
  if (!o) return std::unexpected("no such option: " + std::string(name));
  if (auto r = o->set(value); !r) return std::unexpected("option " + std::string(name) + ": " + r.error());
  return {};
}

std::string OptionsMap::usi_declarations() const {
  std::string s;
  for (const auto& [n, o] : options_) s += "option name " + n + " " + o.declaration() + "\n";
  return s;
}

}  // namespace shogi::usi
