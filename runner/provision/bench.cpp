#include "provision/bench.h"

#include <cctype>
#include <chrono>
#include <sstream>
#include <vector>

#include "process/command.h"

namespace arena::provision {

using Error = std::unexpected<std::string>;

namespace {

constexpr auto BENCH_TIMEOUT = std::chrono::minutes(10);

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The number after `label` at the start of `line` (lower-cased, leading spaces skipped), separated by spaces
// and an optional ':'. Nullopt when the line is not that label's.
std::optional<double> labelled_number(std::string_view line, std::string_view label) {
  while (!line.empty() && std::isspace(static_cast<unsigned char>(line.front()))) line.remove_prefix(1);
  if (!line.starts_with(label)) return std::nullopt;
  line.remove_prefix(label.size());
  size_t i = 0;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == ':' || line[i] == '=')) ++i;
  if (i == 0 || i == line.size() || !std::isdigit(static_cast<unsigned char>(line[i]))) return std::nullopt;
  size_t end = i;
  while (end < line.size() && (std::isdigit(static_cast<unsigned char>(line[end])) || line[end] == '.')) ++end;
  // The number must end the line or be followed by a space: "nodes 123 time ..." is an info line's fragment.
  std::string_view rest = line.substr(end);
  while (!rest.empty() && std::isspace(static_cast<unsigned char>(rest.front()))) rest.remove_prefix(1);
  if (!rest.empty()) return std::nullopt;
  try {
    return std::stod(std::string(line.substr(i, end - i)));
  } catch (...) {
    return std::nullopt;
  }
}

std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

process::CommandResult run(const game::EngineConfig& e, const std::vector<std::string>& extra,
                           const std::string& input, double& seconds) {
  std::vector<std::string> argv{e.command};
  argv.insert(argv.end(), e.args.begin(), e.args.end());
  argv.insert(argv.end(), extra.begin(), extra.end());
  process::CommandOptions o;
  o.timeout = BENCH_TIMEOUT;
  o.working_dir = e.working_dir;
  o.input = input;
  const auto start = std::chrono::steady_clock::now();
  process::CommandResult r = process::run_command(argv, o);
  seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace

std::optional<BenchResult> parse_bench_output(std::string_view output) {
  BenchResult r;
  bool counted = false;
  std::istringstream in{std::string(output)};
  for (std::string line; std::getline(in, line);) {
    const std::string l = lower(line);
    // Stockfish and YaneuraOu: "Nodes searched  : N"; this project's engine: "Nodes searched: N".
    if (auto n = labelled_number(l, "nodes searched"); n) r.nodes = int64_t(*n), counted = true;
    else if (auto m = labelled_number(l, "nodes"); m) r.nodes = int64_t(*m), counted = true;
    if (auto s = labelled_number(l, "nodes/second"); s) r.nps = *s;
    else if (auto t = labelled_number(l, "nps"); t) r.nps = *t;
  }
  if (!counted) return std::nullopt;
  return r;
}

std::expected<BenchResult, std::string> run_bench(const game::EngineConfig& e, const std::string& bench_cmd) {
  struct Way {
    std::vector<std::string> args;
    std::string input, text;
  };
  std::vector<Way> ways;
  if (bench_cmd.starts_with("usi:"))
    ways.push_back({{}, bench_cmd.substr(4) + "\nquit\n", "the USI command '" + bench_cmd.substr(4) + "'"});
  else if (!bench_cmd.empty())
    ways.push_back({words(bench_cmd), "", "'" + e.command + " " + bench_cmd + "'"});
  else
    ways = {{{"bench"}, "", "'" + e.command + " bench'"}, {{}, "bench\nquit\n", "the USI command 'bench'"}};

  std::string tried;
  for (const Way& w : ways) {
    double seconds = 0;
    const process::CommandResult r = run(e, w.args, w.input, seconds);
    tried += (tried.empty() ? "" : ", then ") + w.text;
    if (r.timed_out) return Error("bench of '" + e.name + "': " + w.text + " did not finish in 10 min");
    if (!r.started) return Error("bench of '" + e.name + "': cannot run " + e.command + ": " + r.error);
    auto parsed = parse_bench_output(r.out + "\n" + r.err);
    if (!parsed) continue;
    parsed->seconds = seconds;
    if (parsed->nps <= 0 && seconds > 0) parsed->nps = double(parsed->nodes) / seconds;
    return *parsed;
  }
  return Error("bench of '" + e.name + "': no \"Nodes searched: N\" line from " + tried +
               " (say how with bench_cmd=\"ARGS\" or bench_cmd=\"usi:LINE\")");
}

}  // namespace arena::provision
