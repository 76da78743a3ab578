#include "provision/git_build.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <ostream>
#include <sstream>
#include <vector>

#include "journal/run_identity.h"
#include "process/command.h"

namespace arena::provision {

namespace fs = std::filesystem;
using Error = std::unexpected<std::string>;
using namespace std::chrono_literals;

namespace {

constexpr auto GIT_TIMEOUT = 15min;   // a clone or fetch of a large repository over a slow link
constexpr auto BUILD_TIMEOUT = 120min;

process::CommandResult git(std::vector<std::string> args, const std::string& log = {}) {
  args.insert(args.begin(), "git");
  process::CommandOptions o;
  o.timeout = GIT_TIMEOUT;
  o.log_file = log;
  return process::run_command(args, o);
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

bool is_local(const std::string& repo) { return repo.starts_with('/'); }

// A name for the cache's folders: the repository's last path component without ".git", safe characters only.
std::string repo_label(const std::string& repo) {
  std::string name = repo;
  while (!name.empty() && (name.back() == '/' || name.back() == ':')) name.pop_back();
  if (size_t slash = name.find_last_of("/:"); slash != std::string::npos) name = name.substr(slash + 1);
  if (name.ends_with(".git")) name.resize(name.size() - 4);
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') c = '_';
  return name.empty() ? "repo" : name;
}

// The files of a working tree a build sees (tracked and untracked, not ignored), and a digest of their contents.
std::expected<std::pair<std::vector<std::string>, std::string>, std::string> worktree_files(const std::string& repo) {
  auto listed = git({"-C", repo, "ls-files", "-z", "--cached", "--others", "--exclude-standard"});
  if (!listed.ok()) return Error(listed.describe("git ls-files"));
  std::vector<std::string> files;
  std::string digest_input;
  std::stringstream names(listed.out);
  std::string file;
  while (std::getline(names, file, '\0')) {
    const fs::path p = fs::path(repo) / file;
    std::error_code ec;
    const auto status = fs::symlink_status(p, ec);
    if (ec || !(fs::is_regular_file(status) || fs::is_symlink(status))) continue;  // deleted, or a submodule
    std::string content;
    if (fs::is_symlink(status)) {
      content = "link:" + fs::read_symlink(p, ec).string();
    } else {
      auto sha = journal::sha256_file(p.string());
      if (!sha) return Error(sha.error());
      content = *sha + ((status.permissions() & fs::perms::owner_exec) != fs::perms::none ? " x" : "");
    }
    digest_input += file + '\0' + content + '\n';
    files.push_back(file);
  }
  return std::pair{std::move(files), journal::sha256_hex(digest_input)};
}

// An exclusive lock on a file, held while the object lives (flock: released if the process dies).
class FileLock {
 public:
  explicit FileLock(const fs::path& path, std::ostream& progress) {
    fd_ = ::open(path.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
    if (fd_ < 0) return;
    if (::flock(fd_, LOCK_EX | LOCK_NB) == 0) return;
    progress << "waiting for another runner's build (" << path.parent_path().string() << ") ..." << std::endl;
    ::flock(fd_, LOCK_EX);
  }
  ~FileLock() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  bool held() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bool executable_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", s);
  return buf;
}

// Fills `src` with the source at the resolved ref.
std::expected<void, std::string> check_out(const config::EngineSource& source, const ResolvedRef& ref,
                                           const fs::path& src, const std::string& log) {
  if (source.git_ref == "WORKTREE") {
    auto files = worktree_files(source.git_repo);
    if (!files) return Error(files.error());
    for (const std::string& f : files->first) {
      const fs::path from = fs::path(source.git_repo) / f, to = src / f;
      std::error_code ec;
      fs::create_directories(to.parent_path(), ec);
      if (fs::is_symlink(fs::symlink_status(from, ec)))
        fs::copy_symlink(from, to, ec);
      else
        fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec);
      if (ec) return Error("cannot copy " + from.string() + " to " + to.string() + ": " + ec.message());
    }
    return {};
  }
  auto cloned = git({"clone", "--quiet", "--no-checkout", ref.source, src.string()}, log);
  if (!cloned.ok()) return Error(cloned.describe("git clone " + ref.source));
  auto checked = git({"-C", src.string(), "checkout", "--quiet", "--detach", ref.commit}, log);
  if (!checked.ok()) return Error(checked.describe("git checkout " + ref.commit));
  if (fs::exists(src / ".gitmodules")) {
    auto sub = git({"-C", src.string(), "submodule", "update", "--init", "--recursive", "--quiet"}, log);
    if (!sub.ok()) return Error(sub.describe("git submodule update"));
  }
  return {};
}

}  // namespace

std::string default_build_cache() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg == '/')
    return (fs::path(xdg) / "shogi-arena" / "builds").string();
  if (const char* home = std::getenv("HOME"); home && *home == '/')
    return (fs::path(home) / ".cache" / "shogi-arena" / "builds").string();
  return (fs::current_path() / ".shogi-arena-builds").string();
}

std::string last_lines(const std::string& path, int n) {
  std::istringstream in(read_file(path));
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    line = trimmed(line);
    if (!line.empty()) lines.push_back(line);
  }
  std::string out;
  for (size_t i = lines.size() > size_t(n) ? lines.size() - n : 0; i < lines.size(); ++i)
    out += (out.empty() ? "" : " | ") + lines[i];
  return out;
}

std::expected<ResolvedRef, std::string> resolve_ref(const config::EngineSource& source, const std::string& cache) {
  ResolvedRef r;
  const std::string& repo = source.git_repo;
  if (is_local(repo)) {
    std::error_code ec;
    if (!fs::is_directory(repo, ec)) return Error("'" + repo + "' is not a directory (expected a git repository)");
    r.source = repo;
  } else {
    if (source.git_ref == "WORKTREE") return Error("WORKTREE needs a local repository, not " + repo);
    // A mirror of the remote in the cache: the ref is resolved after fetching, so a branch means its newest commit.
    const fs::path mirror = fs::path(cache) / "repos" / (repo_label(repo) + "-" + journal::sha256_hex(repo).substr(0, 12) + ".git");
    std::error_code ec;
    fs::create_directories(mirror.parent_path(), ec);
    FileLock lock(mirror.string() + ".lock", std::cerr);
    if (!fs::exists(mirror / "HEAD")) {
      fs::remove_all(mirror, ec);
      auto cloned = git({"clone", "--quiet", "--mirror", repo, mirror.string()});
      if (!cloned.ok()) return Error(cloned.describe("git clone --mirror " + repo));
    } else {
      auto fetched = git({"-C", mirror.string(), "fetch", "--quiet", "--prune"});
      if (!fetched.ok()) return Error(fetched.describe("git fetch " + repo));
    }
    r.source = mirror.string();
  }
  const std::string rev = source.git_ref == "WORKTREE" ? "HEAD" : source.git_ref;
  auto parsed = git({"-C", r.source, "rev-parse", "--verify", "--quiet", rev + "^{commit}"});
  if (!parsed.ok() || trimmed(parsed.out).empty())
    return Error("'" + source.git_ref + "' is not a commit of " + repo + " (git rev-parse found none)");
  r.commit = trimmed(parsed.out);
  if (source.git_ref == "WORKTREE") {
    auto files = worktree_files(repo);
    if (!files) return Error(files.error());
    r.content_key = files->second;
    auto status = git({"-C", repo, "status", "--porcelain", "--untracked-files=normal"});
    r.dirty = !status.ok() || !trimmed(status.out).empty();
  }
  return r;
}

std::expected<BuiltEngine, std::string> build_engine(const std::string& name, const config::EngineSource& source,
                                                     const std::string& cache, std::ostream& progress) {
  auto fail = [&](const std::string& what) { return Error("engine '" + name + "': " + what); };
  auto ref = resolve_ref(source, cache);
  if (!ref) return fail(ref.error());
  std::string key = repo_label(source.git_repo) + "-" + ref->commit.substr(0, 12);
  if (source.git_ref == "WORKTREE") key += "-worktree-" + ref->content_key.substr(0, 12);
  // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "-" + a temporary string inlined here.
  key += '-';
  key += journal::sha256_hex(source.build + '\n' + source.bin).substr(0, 8);
  const fs::path dir = fs::path(cache) / key, src = dir / "src", marker = dir / "built", log = dir / "build.log";
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return fail("cannot create the build folder " + dir.string() + ": " + ec.message());
  FileLock lock(dir / "lock", progress);
  if (!lock.held()) return fail("cannot lock " + (dir / "lock").string());

  BuiltEngine b;
  b.binary = (src / source.bin).lexically_normal().string();
  b.commit = ref->commit;
  b.dirty = ref->dirty;
  b.log = log.string();
  // A cache hit: the marker names the binary's digest, and the binary is still that file.
  if (std::istringstream m(read_file(marker)); m >> b.sha256 && executable_file(b.binary)) {
    auto now = journal::sha256_file(b.binary);
    if (now && *now == b.sha256) return b;
  }

  fs::remove(marker, ec);
  fs::remove_all(src, ec);
  fs::remove(log, ec);
  const std::string what = source.git_repo + "@" + source.git_ref + " (" + ref->commit.substr(0, 12) +
                           (source.git_ref == "WORKTREE" ? (ref->dirty ? " with uncommitted changes" : ", clean") : "") +
                           ")";
  progress << "building " << name << " from " << what << ": " << source.build << "\n  log: " << b.log << std::endl;
  const auto start = std::chrono::steady_clock::now();
  if (auto ok = check_out(source, *ref, src, b.log); !ok)
    return fail("cannot check out " + what + ": " + ok.error() + "; log: " + b.log);
  process::CommandOptions o;
  o.timeout = BUILD_TIMEOUT;
  o.working_dir = src.string();
  o.log_file = b.log;
  const process::CommandResult built = process::run_command({"/bin/sh", "-c", source.build}, o);
  b.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!built.ok()) {
    const std::string how = !built.started   ? "could not start: " + built.error
                            : built.timed_out ? "did not finish in " + std::to_string(BUILD_TIMEOUT.count()) + " min"
                                              : "failed (exit " + std::to_string(built.exit_code) + ")";
    const std::string tail = last_lines(b.log, 3);
    return fail("the build of " + what + " " + how + " after " + seconds_text(b.seconds) + "; log: " + b.log +
                (tail.empty() ? "" : "; last lines: " + tail));
  }
  if (!executable_file(b.binary))
    return fail("the build of " + what + " succeeded but made no executable file bin=" + source.bin + " (looked for " +
                b.binary + "); log: " + b.log);
  auto sha = journal::sha256_file(b.binary);
  if (!sha) return fail(sha.error());
  b.sha256 = *sha;
  b.built_now = true;
  std::ofstream(marker) << b.sha256 << ' ' << source.bin << '\n';
  progress << "built " << name << " in " << seconds_text(b.seconds) << ": " << b.binary << std::endl;
  return b;
}

}  // namespace arena::provision
