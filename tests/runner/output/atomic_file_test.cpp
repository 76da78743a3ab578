// A file replaced whole or not at all: the new text in place, the old one kept on a failure, no temporary file left.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "output/atomic_file.h"
#include "support/temp_dir.h"

using arena::output::AtomicFileWriter;
using arena::output::write_file_atomically;
using test_support::TempDir;
namespace fs = std::filesystem;

namespace {

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

size_t files_in(const fs::path& dir) {
  size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
  return n;
}

}  // namespace

TEST_CASE("write_file_atomically: writes, replaces, and on a failure keeps the old file and no temporary one") {
  TempDir dir("atomic");
  const fs::path file = dir.path / "theta.json";
  REQUIRE(write_file_atomically(file.string(), "first\n"));
  CHECK(read(file) == "first\n");
  REQUIRE(write_file_atomically(file.string(), std::string(100000, 'x')));
  CHECK(read(file) == std::string(100000, 'x'));
  CHECK(files_in(dir.path) == 1);
  // Without the syncs (the CSA server's records): replaced whole all the same.
  const fs::path record = dir.path / "game.csa";
  REQUIRE(write_file_atomically(record.string(), "V2.2\n", "the record", arena::output::Durability::Process));
  REQUIRE(write_file_atomically(record.string(), "V2.2\n+\n", "the record", arena::output::Durability::Process));
  CHECK(read(record) == "V2.2\n+\n");
  CHECK(files_in(dir.path) == 2);
  fs::remove(record);

  SUBCASE("a folder that does not exist: an error naming the file") {
    const fs::path missing = dir.path / "no" / "such" / "file";
    auto r = write_file_atomically(missing.string(), "text", "the report");
    REQUIRE_FALSE(r);
    CHECK(r.error() == missing.string() + ": cannot write the report: No such file or directory");
  }
  SUBCASE("a path that is a folder: the rename fails, the temporary file is removed") {
    fs::create_directories(dir.path / "a-folder" / "inside");
    auto r = write_file_atomically((dir.path / "a-folder").string(), "text");
    REQUIRE_FALSE(r);
    CHECK(r.error().starts_with((dir.path / "a-folder").string() + ": cannot write it: "));
    CHECK(files_in(dir.path) == 2);  // theta.json and a-folder: nothing else
    CHECK(read(file) == std::string(100000, 'x'));
  }
}

TEST_CASE("AtomicFileWriter: pieces appear only at commit; a writer dropped before it leaves the old file") {
  TempDir dir("atomic-writer");
  const fs::path file = dir.path / "report.html";
  REQUIRE(write_file_atomically(file.string(), "old\n"));
  {
    auto w = AtomicFileWriter::open(file.string(), "the report");
    REQUIRE(w);
    REQUIRE(w->write("new "));
    CHECK(read(file) == "old\n");
    CHECK(files_in(dir.path) == 2);  // the old file and the temporary one
  }  // dropped: an error on the way, or an exception
  CHECK(read(file) == "old\n");
  CHECK(files_in(dir.path) == 1);

  auto w = AtomicFileWriter::open(file.string(), "the report");
  REQUIRE(w);
  REQUIRE(w->write("new "));
  REQUIRE(w->write("page\n"));
  CHECK(w->bytes() == 9);
  REQUIRE(w->commit());
  CHECK(read(file) == "new page\n");
  CHECK(files_in(dir.path) == 1);
  CHECK_FALSE(w->write("more"));  // ended
}
