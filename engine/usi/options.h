#pragma once
// USI options: typed values with their USI declaration, validated on `setoption`, kept in declaration order.

#include <cstdint>
#include <expected>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace shogi::usi {

class Option {
 public:
  enum class Type { Check, Spin, Combo, Button, String };
  using OnChange = std::function<void(const Option&)>;

  static Option check(bool def, OnChange f = {});
  static Option spin(int64_t def, int64_t min, int64_t max, OnChange f = {});
  static Option combo(std::string def, std::vector<std::string> vars, OnChange f = {});
  static Option button(OnChange f);
  static Option string(std::string def, OnChange f = {});

  // Validates and stores the value, then calls the change handler. The error says what is wrong.
  std::expected<void, std::string> set(std::string_view value);

  Type type() const { return type_; }
  bool as_bool() const { return current_ == "true"; }
  int64_t as_int() const;
  const std::string& as_string() const { return current_; }
  // "type spin default 1 min 1 max 512", the part of the USI declaration after the name.
  std::string declaration() const;

 private:
  Type type_ = Type::String;
  std::string default_, current_;
  int64_t min_ = 0, max_ = 0;
  std::vector<std::string> vars_;
  OnChange on_change_;
};

class OptionsMap {
 public:
  void add(std::string name, Option option);
  Option* find(std::string_view name);  // case-insensitive, as USI GUIs vary
  const Option& operator[](std::string_view name) const;
  std::expected<void, std::string> set(std::string_view name, std::string_view value);
  // One "option name ... type ..." line per option.
  std::string usi_declarations() const;

 private:
  std::vector<std::pair<std::string, Option>> options_;
};

}  // namespace shogi::usi
