// Builds from git refs with real git and sh, in a scratch repository and cache.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "process/command.h"
#include "provision/bench.h"
#include "provision/git_build.h"

using namespace arena;
namespace fs = std::filesystem;

namespace {

struct Scratch {
  fs::path dir = "/tmp/shogi-arena-git-build-" + std::to_string(::getpid());
  fs::path repo = dir / "repo";
  fs::path cache = dir / "cache";
  Scratch() {
    fs::remove_all(dir);
    fs::create_directories(repo);
    git({"init", "-q"});
  }
  ~Scratch() { fs::remove_all(dir); }
  void git(std::vector<std::string> args) const {
    args.insert(args.begin(), {"git", "-C", repo.string(), "-c", "user.name=t", "-c", "user.email=t@t"});
    auto r = process::run_command(args);
    REQUIRE_MESSAGE(r.ok(), r.describe("git"));
  }
  void write(const std::string& name, const std::string& text) const { std::ofstream(repo / name) << text; }
  std::string head() const {
    auto r = process::run_command({"git", "-C", repo.string(), "rev-parse", "HEAD"});
    return r.out.substr(0, 40);
  }
};

config::EngineSource source(const Scratch& s, const std::string& ref, const std::string& build) {
  config::EngineSource e;
  e.git_repo = s.repo.string();
  e.git_ref = ref;
  e.build = build;
  e.bin = "out/eng";
  return e;
}

const char* BUILD = "mkdir -p out && cp eng.sh out/eng && chmod +x out/eng";

}  // namespace

TEST_CASE("a ref is built once into the cache; another commit, build command or working tree builds again") {
  if (!process::run_command({"git", "--version"}).ok()) return;  // no git: nothing to test
  Scratch s;
  s.write("eng.sh", "#!/bin/sh\necho 'Nodes searched: 11'\n");
  s.git({"add", "."});
  s.git({"commit", "-qm", "one"});
  const std::string one = s.head();
  std::ostringstream progress;

  auto first = provision::build_engine("dev", source(s, "HEAD", BUILD), s.cache.string(), progress);
  REQUIRE_MESSAGE(first, first.error());
  CHECK(first->built_now);
  CHECK(first->commit == one);
  CHECK_FALSE(first->dirty);
  CHECK(progress.str().find("building dev from " + s.repo.string() + "@HEAD (" + one.substr(0, 12) + ")") == 0);
  CHECK(fs::exists(first->binary));
  auto again = provision::build_engine("dev", source(s, "HEAD", BUILD), s.cache.string(), progress);
  REQUIRE(again);
  CHECK_FALSE(again->built_now);
  CHECK(again->binary == first->binary);
  CHECK(again->sha256 == first->sha256);

  // The bench of the built binary, run as `ENGINE bench`.
  game::EngineConfig e;
  e.name = "dev";
  e.command = first->binary;
  auto bench = provision::run_bench(e, "");
  REQUIRE_MESSAGE(bench, bench.error());
  CHECK(bench->nodes == 11);

  // A tampered binary in the cache is rebuilt, not played.
  std::ofstream(first->binary, std::ios::app) << "# edited\n";
  auto repaired = provision::build_engine("dev", source(s, "HEAD", BUILD), s.cache.string(), progress);
  REQUIRE(repaired);
  CHECK(repaired->built_now);
  CHECK(repaired->sha256 == first->sha256);

  // Another build command is another build.
  auto other = provision::build_engine("dev", source(s, "HEAD", std::string(BUILD) + " && true"), s.cache.string(),
                                       progress);
  REQUIRE(other);
  CHECK(other->built_now);
  CHECK(other->binary != first->binary);

  // A second commit; the first is still reachable by its hash and by HEAD~1.
  s.write("eng.sh", "#!/bin/sh\necho 'Nodes searched: 22'\n");
  s.git({"commit", "-qam", "two"});
  auto two = provision::build_engine("dev", source(s, "HEAD", BUILD), s.cache.string(), progress);
  REQUIRE(two);
  CHECK(two->built_now);
  CHECK(two->commit == s.head());
  auto back = provision::build_engine("dev", source(s, "HEAD~1", BUILD), s.cache.string(), progress);
  REQUIRE(back);
  CHECK(back->commit == one);
  CHECK_FALSE(back->built_now);

  // The working tree: clean, it is HEAD's content; edited, it is built with the edit, and again after another.
  auto clean = provision::build_engine("dev", source(s, "WORKTREE", BUILD), s.cache.string(), progress);
  REQUIRE(clean);
  CHECK_FALSE(clean->dirty);
  s.write("eng.sh", "#!/bin/sh\necho 'Nodes searched: 33'\n");
  auto dirty = provision::build_engine("dev", source(s, "WORKTREE", BUILD), s.cache.string(), progress);
  REQUIRE(dirty);
  CHECK(dirty->dirty);
  CHECK(dirty->built_now);
  e.command = dirty->binary;
  CHECK(provision::run_bench(e, "")->nodes == 33);
  auto same = provision::build_engine("dev", source(s, "WORKTREE", BUILD), s.cache.string(), progress);
  REQUIRE(same);
  CHECK_FALSE(same->built_now);
}

TEST_CASE("what cannot be built is one line: an unknown ref, a failing build, no binary, no repository") {
  if (!process::run_command({"git", "--version"}).ok()) return;
  Scratch s;
  s.write("eng.sh", "#!/bin/sh\n");
  s.git({"add", "."});
  s.git({"commit", "-qm", "one"});
  std::ostringstream progress;
  auto unknown = provision::build_engine("dev", source(s, "no-such-branch", BUILD), s.cache.string(), progress);
  REQUIRE_FALSE(unknown);
  CHECK(unknown.error() == "engine 'dev': 'no-such-branch' is not a commit of " + s.repo.string() +
                               " (git rev-parse found none)");

  auto failing = provision::build_engine("dev", source(s, "HEAD", "echo compiling; echo 'eng.c:3: error: oops' >&2; exit 3"),
                                         s.cache.string(), progress);
  REQUIRE_FALSE(failing);
  CHECK(failing.error().find("engine 'dev': the build of " + s.repo.string() + "@HEAD (") == 0);
  CHECK(failing.error().find("failed (exit 3)") != std::string::npos);
  CHECK(failing.error().find("last lines: compiling | eng.c:3: error: oops") != std::string::npos);
  CHECK(failing.error().find('\n') == std::string::npos);

  auto no_binary = provision::build_engine("dev", source(s, "HEAD", "true"), s.cache.string(), progress);
  REQUIRE_FALSE(no_binary);
  CHECK(no_binary.error().find("succeeded but made no executable file bin=out/eng") != std::string::npos);

  config::EngineSource missing = source(s, "HEAD", BUILD);
  missing.git_repo = (s.dir / "nowhere").string();
  auto none = provision::build_engine("dev", missing, s.cache.string(), progress);
  REQUIRE_FALSE(none);
  CHECK(none.error() == "engine 'dev': '" + missing.git_repo + "' is not a directory (expected a git repository)");

  // A bench that prints no count names both ways it tried.
  game::EngineConfig e;
  e.name = "quiet";
  e.command = "/bin/true";
  auto bench = provision::run_bench(e, "");
  REQUIRE_FALSE(bench);
  CHECK(bench.error() == "bench of 'quiet': no \"Nodes searched: N\" line from '/bin/true bench', then the USI command "
                         "'bench' (say how with bench_cmd=\"ARGS\" or bench_cmd=\"usi:LINE\")");
}

TEST_CASE("a repository given by URL is mirrored in the cache and fetched again for each resolve") {
  if (!process::run_command({"git", "--version"}).ok()) return;
  Scratch s;
  s.write("eng.sh", "#!/bin/sh\necho 'Nodes searched: 1'\n");
  s.git({"add", "."});
  s.git({"commit", "-qm", "one"});
  config::EngineSource url = source(s, "HEAD", BUILD);
  url.git_repo = "file://" + s.repo.string();
  std::ostringstream progress;
  auto first = provision::build_engine("dev", url, s.cache.string(), progress);
  REQUIRE_MESSAGE(first, first.error());
  CHECK(first->commit == s.head());
  s.write("eng.sh", "#!/bin/sh\necho 'Nodes searched: 2'\n");
  s.git({"commit", "-qam", "two"});
  auto second = provision::build_engine("dev", url, s.cache.string(), progress);
  REQUIRE(second);
  CHECK(second->commit == s.head());  // the branch moved: the mirror was fetched
  CHECK(second->built_now);
  url.git_ref = "WORKTREE";
  auto wt = provision::build_engine("dev", url, s.cache.string(), progress);
  REQUIRE_FALSE(wt);
  CHECK(wt.error().find("WORKTREE needs a local repository") != std::string::npos);
}
