#include "config/spsa_params.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

#include "config/values.h"
#include "usi/usi_option.h"

namespace arena::config {

namespace {

std::string trimmed(std::string_view s) {
  const size_t a = s.find_first_not_of(" \t\r");
  if (a == std::string_view::npos) return {};
  const size_t b = s.find_last_not_of(" \t\r");
  return std::string(s.substr(a, b - a + 1));
}

std::vector<std::string> fields(std::string_view text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    out.push_back(
        trimmed(text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start)));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

std::expected<double, std::string> number(const std::string& what, const std::string& text) {
  auto v = parse_double(text);
  if (!v || !std::isfinite(*v)) return std::unexpected(what + " must be a number, not '" + text + "'");
  return *v;
}

bool whole(const std::string& text) { return text.find_first_of(".eE") == std::string::npos; }

// name, type, then the numbers from `first` on: start, min, max, c_end[, r_end].
std::expected<stats::SpsaParam, std::string> from_fields(const std::vector<std::string>& f, size_t first,
                                                         stats::SpsaParam p) {
  const char* names[] = {"start", "min", "max", "c_end", "r_end"};
  double* into[] = {&p.start, &p.min, &p.max, &p.c_end, &p.r_end};
  for (size_t i = 0; first + i < f.size(); ++i) {
    auto v = number(names[i], f[first + i]);
    if (!v) return std::unexpected(p.name + ": " + v.error());
    *into[i] = *v;
  }
  if (auto ok = check_spsa_params({p}); !ok) return std::unexpected(ok.error());
  return p;
}

}  // namespace

std::expected<void, std::string> check_spsa_params(const std::vector<stats::SpsaParam>& params) {
  std::vector<std::string> seen;
  for (const stats::SpsaParam& p : params) {
    if (p.name.empty()) return std::unexpected("a parameter has no name");
    if (!(p.min < p.max))
      return std::unexpected(p.name + ": min " + number_text(p.min) + " must be below max " + number_text(p.max));
    if (p.start < p.min || p.start > p.max)
      return std::unexpected(p.name + ": start " + number_text(p.start) + " is outside [" + number_text(p.min) + ", " +
                             number_text(p.max) + "]");
    if (!(p.c_end > 0)) return std::unexpected(p.name + ": c_end must be above 0");
    if (!(p.r_end > 0)) return std::unexpected(p.name + ": r_end must be above 0");
    if (p.integer && (p.start != std::floor(p.start) || p.min != std::floor(p.min) || p.max != std::floor(p.max)))
      return std::unexpected(p.name + ": an int parameter needs a whole start, min and max");
    for (const std::string& s : seen)
      if (usi::iequals(s, p.name)) return std::unexpected(p.name + ": the parameter is given twice");
    seen.push_back(p.name);
  }
  return {};
}

std::expected<stats::SpsaParam, std::string> parse_spsa_param_line(std::string_view line) {
  const std::vector<std::string> f = fields(line);
  stats::SpsaParam p;
  p.name = f[0];
  if (f.size() >= 2 && (f[1] == "int" || f[1] == "float")) {
    if (f.size() >= 6 && f.size() <= 7) {
      p.integer = f[1] == "int";
      return from_fields(f, 2, p);
    }
  } else if (f.size() >= 5 && f.size() <= 6 && parse_double(f[1])) {
    // fishtest's form, as Stockfish's TUNE prints it: no type, int when start, min and max are whole.
    p.integer = whole(f[1]) && whole(f[2]) && whole(f[3]);
    return from_fields(f, 1, p);
  }
  return std::unexpected(
      "expected name,start,min,max,c_end[,r_end] or name,int|float,start,min,max,c_end[,r_end], got '" +
      trimmed(line) + "'");
}

std::expected<stats::SpsaParam, std::string> parse_spsa_param_option(std::string_view text) {
  const size_t eq = text.find('=');
  const std::vector<std::string> f =
      eq == std::string_view::npos ? std::vector<std::string>{} : fields(text.substr(eq + 1));
  if (eq == std::string_view::npos || f.size() < 4 || f.size() > 5)
    return std::unexpected("expected NAME=START,MIN,MAX,C_END[,R_END], got '" + std::string(text) + "'");
  stats::SpsaParam p;
  p.name = trimmed(text.substr(0, eq));
  p.integer = whole(f[0]) && whole(f[1]) && whole(f[2]);
  return from_fields(f, 0, p);
}

std::expected<std::vector<stats::SpsaParam>, std::string> parse_spsa_params(std::string_view text,
                                                                            const std::string& name) {
  std::vector<stats::SpsaParam> params;
  std::istringstream in{std::string(text)};
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (const size_t hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    const std::string t = trimmed(line);
    if (t.empty() || t.starts_with("//")) continue;
    auto p = parse_spsa_param_line(t);
    if (!p) return std::unexpected(name + ":" + std::to_string(number) + ": " + p.error());
    params.push_back(std::move(*p));
    if (auto ok = check_spsa_params(params); !ok)
      return std::unexpected(name + ":" + std::to_string(number) + ": " + ok.error());
  }
  if (params.empty())
    return std::unexpected(name +
                           ": no parameters (expected lines name,start,min,max,c_end,r_end or name,int,start,...)");
  return params;
}

std::expected<std::vector<stats::SpsaParam>, std::string> load_spsa_params(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::unexpected(path + ": cannot read the params file");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_spsa_params(text.str(), path);
}

std::string spsa_param_line(const stats::SpsaParam& p, double start) {
  return p.name + "," + (p.integer ? "int" : "float") + "," + number_text(start) + "," + number_text(p.min) + "," +
         number_text(p.max) + "," + number_text(p.c_end) + "," + number_text(p.r_end);
}

}  // namespace arena::config
