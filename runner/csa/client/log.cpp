#include "csa/client/log.h"
#include "output/local_time.h"

#include <ctime>
#include <filesystem>
#include <system_error>

namespace arena::csa {

ProtocolLog::~ProtocolLog() {
  if (file_) std::fclose(file_);
}

bool ProtocolLog::open(const std::string& path, std::string* error) {
  std::error_code ec;
  std::filesystem::path p(path);
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path(), ec);
  std::FILE* f = std::fopen(path.c_str(), "a");
  if (!f) {
    if (error) *error = "cannot open the log file " + path;
    return false;
  }
  if (file_) std::fclose(file_);
  file_ = f;
  return true;
}

std::string ProtocolLog::mask(std::string_view line) const {
  std::string out(line);
  if (secret_.empty()) return out;
  // A very short secret would star out half the log if masked everywhere; it is still masked on LOGIN lines,
  // the only place the client itself writes it.
  if (secret_.size() < 4 && !line.starts_with("LOGIN ")) return out;
  for (std::size_t at = out.find(secret_); at != std::string::npos; at = out.find(secret_, at + 5))
    out.replace(at, secret_.size(), "*****");
  return out;
}

void ProtocolLog::note(std::string_view text) {
  write("#", text);
  if (note_sink_) note_sink_(mask(text));
}

void ProtocolLog::write(std::string_view tag, std::string_view text) {
  if (!file_) return;
  const std::string stamp = output::format_local_time(std::chrono::system_clock::now(), "%Y-%m-%d %H:%M:%S", true);
  std::string shown = mask(text);
  std::fprintf(file_, "%s %.*s %s\n", stamp.c_str(), int(tag.size()), tag.data(), shown.c_str());
  // Flushed per line: after a crash or a kill the log must show the last exchange.
  std::fflush(file_);
}

}  // namespace arena::csa
