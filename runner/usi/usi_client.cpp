#include "usi_client.h"

#include <algorithm>
#include <cassert>
#include <charconv>

namespace arena::usi {

using process::IoStatus;

std::string_view to_string(Status status) {
  switch (status) {
    case Status::Ok: return "ok";
    case Status::Timeout: return "timeout";
    case Status::Disconnected: return "disconnected";
    case Status::ProtocolError: return "protocol error";
    case Status::InvalidOption: return "invalid option";
    case Status::Interrupted: return "interrupted";
  }
  return "?";
}

std::string_view to_string(EngineState state) {
  switch (state) {
    case EngineState::Starting: return "starting";
    case EngineState::Idle: return "idle";
    case EngineState::Thinking: return "thinking";
    case EngineState::Pondering: return "pondering";
    case EngineState::Finishing: return "finishing";
    case EngineState::Dead: return "dead";
  }
  return "?";
}

void write_go_command(const GoParams& p, std::string& line) {
  line = "go";
  auto add = [&](std::string_view key, const auto& value) {
    if (!value) return;
    char digits[24];
    auto end = std::to_chars(digits, digits + sizeof digits, *value).ptr;
    line.append(" ").append(key).append(" ").append(digits, end);
  };
  if (p.ponder) line += " ponder";
  add("btime", p.btime);
  add("wtime", p.wtime);
  add("byoyomi", p.byoyomi);
  add("binc", p.binc);
  add("winc", p.winc);
  add("movetime", p.movetime);
  add("nodes", p.nodes);
  add("depth", p.depth);
  if (p.infinite) line += " infinite";
}

std::string go_command(const GoParams& p) {
  std::string line;
  write_go_command(p, line);
  return line;
}

GoParams fold_increments(GoParams p) {
  auto fold = [](std::optional<std::int64_t>& time, std::optional<std::int64_t>& inc) {
    if (time && inc) *time += *inc;
    inc.reset();
  };
  fold(p.btime, p.binc);
  fold(p.wtime, p.winc);
  return p;
}

GoParams swap_sides(GoParams p) {
  std::swap(p.btime, p.wtime);
  std::swap(p.binc, p.winc);
  return p;
}

GoParams apply(const GoQuirks& quirks, GoParams p) {
  if (quirks.fold_increments) p = fold_increments(std::move(p));
  if (quirks.swap_sides) p = swap_sides(std::move(p));
  return p;
}

UsiClient::UsiClient(std::unique_ptr<process::EngineProcess> process) : process_(std::move(process)) {
  assert(process_);
}

UsiClient::~UsiClient() {
  if (state_ != EngineState::Dead) quit(std::chrono::milliseconds(200));
}

void UsiClient::warn(std::string text) {
  // Bounded: an engine printing garbage forever must not grow the runner's memory.
  if (warnings_.size() < 100) warnings_.push_back(std::move(text));
}

Result UsiClient::send(std::string_view line) { return send_lines({line}); }

Result UsiClient::send_lines(std::initializer_list<std::string_view> lines) {
  if (state_ == EngineState::Dead) return {Status::Disconnected, "engine is not running"};
  IoStatus s = process_->write_lines(lines, SteadyClock::now() + std::chrono::seconds(10));
  if (s == IoStatus::Ok) return {};
  std::string text;
  for (std::string_view line : lines) text.append(text.empty() ? "" : "', '").append(line);
  if (s == IoStatus::Disconnected) {
    state_ = EngineState::Dead;
    return {Status::Disconnected, "engine closed its input while sending '" + text + "'"};
  }
  // A full pipe for 10 s: the engine stopped reading. Treat it as gone; its stream is no longer usable.
  state_ = EngineState::Dead;
  return {Status::Timeout, "engine stopped reading its input ('" + text + "' not sent)"};
}

Result UsiClient::read_until(std::string_view answer, Deadline deadline, bool collect_handshake,
                             const std::atomic<bool>* interrupt) {
  // With an interrupt flag the wait is cut into slices that look at it.
  constexpr auto SLICE = std::chrono::milliseconds(100);
  while (true) {
    const Deadline slice = interrupt ? std::min(deadline, Deadline(SteadyClock::now() + SLICE)) : deadline;
    auto r = process_->read_line(slice);
    if (r.status == IoStatus::Timeout && interrupt && interrupt->load())
      return {Status::Interrupted, "interrupted while waiting for '" + std::string(answer) + "'"};
    if (r.status == IoStatus::Timeout && slice < deadline) continue;
    if (r.status == IoStatus::Timeout) return {Status::Timeout, "no '" + std::string(answer) + "' by the deadline"};
    if (r.status == IoStatus::Disconnected) {
      state_ = EngineState::Dead;
      return {Status::Disconnected, "engine exited while waiting for '" + std::string(answer) + "'"};
    }
    auto words = split_words(r.line);
    if (words.empty()) continue;
    if (words.size() == 1 && words[0] == answer) return {};
    if (!collect_handshake) continue;  // e.g. `info string` before readyok
    if (words[0] == "id" && words.size() >= 2) {
      // The rest of the line after "id name " or "id author ", spaces kept.
      std::string_view line = r.line;
      std::size_t pos = std::size_t(words[1].data() - line.data()) + words[1].size();
      std::string rest(line.substr(std::min(line.size(), pos + 1)));
      if (words[1] == "name") identity_.name = rest;
      else if (words[1] == "author") identity_.author = rest;
    } else if (words[0] == "option") {
      auto spec = parse_option_line(r.line);
      if (spec) options_.push_back(std::move(*spec));
      else warn(spec.error());
    }
    // Anything else before usiok (banners, copyright lines) is ignored.
  }
}

Result UsiClient::handshake(Deadline deadline, const std::atomic<bool>* interrupt) {
  assert(state_ == EngineState::Starting || state_ == EngineState::Dead);
  if (auto s = send("usi"); !s.ok()) return s;
  Result r = read_until("usiok", deadline, true, interrupt);
  if (r.ok()) state_ = EngineState::Idle;
  return r;
}

std::optional<OptionSpec> UsiClient::find_option(std::string_view name) const {
  return usi::find_option(options_, name);
}

Result UsiClient::check_option(std::string_view name, std::string_view value) const {
  auto option = find_option(name);
  if (!option) {
    std::string offered;
    for (const auto& o : options_) offered += (offered.empty() ? "" : ", ") + o.name;
    std::string engine = identity_.name.empty() ? process_->name() : identity_.name;
    return {Status::InvalidOption, "engine '" + engine + "' has no option '" + std::string(name) +
                                       "' (it offers: " + (offered.empty() ? "none" : offered) + ")"};
  }
  auto ok = check_option_value(*option, value);
  if (!ok) return {Status::InvalidOption, ok.error()};
  return {};
}

Result UsiClient::set_option(std::string_view name, std::string_view value) {
  if (auto r = check_option(name, value); !r.ok()) return r;
  return send(setoption_command(*find_option(name), value));
}

Result UsiClient::is_ready(Deadline deadline, const std::atomic<bool>* interrupt) {
  if (auto s = send("isready"); !s.ok()) return s;
  return read_until("readyok", deadline, false, interrupt);
}

Result UsiClient::new_game() { return send("usinewgame"); }

Result UsiClient::position(std::string_view line) {
  assert(line.starts_with("position "));
  return send(line);
}

Result UsiClient::go(const GoParams& params) { return position_and_go({}, params); }

void UsiClient::discard_idle_output() {
  for (process::ReadResult r; (r = process_->try_read_line()).status == IoStatus::Ok;)
    if (r.line.starts_with("bestmove")) {
      ++idle_bestmoves_;
      std::string text = "'";  // built by appending: GCC 12 warns (-Wrestrict) of "'" + std::string(...)
      text += r.line;
      text += "' while idle (a second answer to one go) ignored";
      warn(std::move(text));
    }
}

Result UsiClient::position_and_go(std::string_view position_line, const GoParams& params) {
  assert(state_ == EngineState::Idle || state_ == EngineState::Dead);
  assert(position_line.empty() || position_line.starts_with("position "));
  if (state_ == EngineState::Idle) discard_idle_output();
  write_go_command(apply(go_quirks_, params), go_line_);
  Result r = position_line.empty() ? send(go_line_) : send_lines({position_line, go_line_});
  // Time runs from the moment the line is in the engine's pipe.
  go_time_ = SteadyClock::now();
  if (r.ok()) state_ = params.ponder ? EngineState::Pondering : EngineState::Thinking;
  return r;
}

SearchResult UsiClient::wait_bestmove(Deadline deadline) {
  assert(state_ == EngineState::Thinking || state_ == EngineState::Pondering || state_ == EngineState::Dead);
  SearchResult result;
  result.go_time = go_time_;
  if (state_ == EngineState::Dead) {
    result.status = Status::Disconnected;
    result.text = "engine is not running";
    return result;
  }
  while (true) {
    // Deadline is absolute: an info flood must not buy thinking time.
    auto r = process_->read_line(deadline);
    if (r.status == IoStatus::Timeout) {
      result.status = Status::Timeout;
      result.text = "no bestmove by the deadline";
      return result;
    }
    if (r.status == IoStatus::Disconnected) {
      state_ = EngineState::Dead;
      result.status = Status::Disconnected;
      result.text = "engine exited while thinking";
      return result;
    }
    std::string_view line = r.line;
    if (line.starts_with("info")) {
      if (line.size() > 4 && line[4] != ' ' && line[4] != '\t') continue;
      ++result.info_lines;
      std::string error;
      if (!parse_info(line, info_line_, &error)) {
        warn("unparsable info line '" + std::string(line) + "': " + error);
        continue;
      }
      if (!info_line_.multipv || *info_line_.multipv == 1) result.info.merge(info_line_);
      continue;
    }
    if (line.starts_with("bestmove")) {
      result.bestmove_time = r.time;
      state_ = EngineState::Idle;
      auto best = parse_bestmove(line);
      if (!best) {
        result.status = Status::ProtocolError;
        result.text = line;
        return result;
      }
      result.status = Status::Ok;
      result.bestmove = std::move(*best);
      return result;
    }
    // Other lines during a search (readyok of a stall ping, chatter) are not ours to judge.
  }
}

Result UsiClient::stop() { return send("stop"); }

Result UsiClient::ponder_hit() {
  assert(state_ == EngineState::Pondering || state_ == EngineState::Dead);
  Result r = send("ponderhit");
  ponderhit_time_ = SteadyClock::now();
  if (r.ok()) state_ = EngineState::Thinking;
  return r;
}

Result UsiClient::game_over(GameOver result) {
  const char* word = result == GameOver::Win ? "win" : result == GameOver::Lose ? "lose" : "draw";
  Result r = send(std::string("gameover ") + word);
  if (r.ok()) state_ = EngineState::Idle;
  return r;
}

bool UsiClient::quit(std::chrono::milliseconds grace) {
  if (state_ != EngineState::Dead) {
    // Written directly: a failure here changes nothing, the process is stopped either way.
    process_->write_line("quit", SteadyClock::now() + grace);
    state_ = EngineState::Finishing;
  }
  bool by_itself = process_->terminate(grace);
  state_ = EngineState::Dead;
  return by_itself;
}

}  // namespace arena::usi
