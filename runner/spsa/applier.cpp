#include "spsa/applier.h"

#include <algorithm>
#include <chrono>
#include <boost/json.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "journal/segments.h"
#include "journal/spsa_pair.h"
#include "output/atomic_file.h"
#include "output/json.h"

namespace arena::spsa {

namespace fs = std::filesystem;
namespace bj = boost::json;

std::string applied_path(const std::string& out_dir) { return journal::spsa_applied_path(out_dir); }
std::string theta_path(const std::string& out_dir) { return (fs::path(out_dir) / "spsa-theta.json").string(); }

std::optional<PublishedTheta> read_published_theta(const std::string& out_dir, size_t params) {
  std::ifstream in(theta_path(out_dir), std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  auto doc = json::parse(text.str());
  const bj::object* o = doc ? doc->if_object() : nullptr;
  if (!o) return std::nullopt;
  const bj::value* applied = o->if_contains("applied");
  const bj::value* theta = o->if_contains("theta");
  if (!applied || !applied->is_int64() || !theta || !theta->is_array() || theta->get_array().size() != params)
    return std::nullopt;
  PublishedTheta p;
  p.applied = applied->get_int64();
  for (const bj::value& v : theta->get_array()) {
    if (const double* d = v.if_double())
      p.theta.push_back(*d);
    else if (const int64_t* i = v.if_int64())
      p.theta.push_back(double(*i));
    else
      return std::nullopt;
  }
  return p;
}

bool publish_theta(const std::string& out_dir, const PublishedTheta& p) {
  bj::array theta;
  for (double v : p.theta) theta.emplace_back(v);
  return output::write_file_atomically(
             theta_path(out_dir), json::serialize(bj::object{{"applied", p.applied}, {"theta", std::move(theta)}}) + "\n")
      .has_value();
}

Applier::Applier(std::string out_dir, journal::JournalHeader header)
    : out_dir_(std::move(out_dir)), header_(std::move(header)) {}

std::expected<std::unique_ptr<Applier>, std::string> Applier::open(const std::string& out_dir,
                                                                   const journal::JournalHeader& segment_header) {
  if (!segment_header.spsa) return std::unexpected("not an SPSA run's segment header");
  journal::JournalHeader header = segment_header;
  header.shard.reset();
  std::unique_ptr<Applier> a(new Applier(out_dir, header));
  const journal::SpsaSpec& spec = *header.spsa;
  a->tuner_ = std::make_unique<Tuner>(spec.params, spec.schedule, spec.seed, spec.whole_all());
  const std::string path = applied_path(out_dir);
  std::error_code ec;
  if (fs::exists(path, ec) && fs::file_size(path, ec) > 0) {
    // A restarted coordinator: theta and the applied pairs from its own journal.
    auto contents = journal::read_journal(path);
    if (!contents) return std::unexpected(contents.error());
    if (!contents->header || !contents->header->spsa)
      return std::unexpected(path + ": not the applied journal of an SPSA run");
    if (std::string d = journal::run_difference(*contents->header, header, path); !d.empty())
      return std::unexpected(path + ": written for another run: " + d);
    for (const journal::SpsaPair& p : contents->spsa_pairs) {
      a->applied_.insert(p.k);
      if (p.theta) a->tuner_->restore(*p.theta);
    }
    auto writer = journal::JournalWriter::append_to(path, contents->valid_size);
    if (!writer) return std::unexpected(writer.error());
    a->journal_ = std::move(*writer);
  } else {
    auto writer = journal::JournalWriter::create(path, header);
    if (!writer) return std::unexpected(writer.error());
    a->journal_ = std::move(*writer);
  }
  if (!publish_theta(out_dir, {a->applied(), a->theta()}))
    return std::unexpected(theta_path(out_dir) + ": cannot write it");
  a->published_ = std::chrono::steady_clock::now();
  return a;
}

std::expected<int64_t, std::string> Applier::poll(std::vector<std::string>& warnings) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(journal::segments_dir(out_dir_), ec))
    if (journal::is_segment_name(entry.path().filename().string())) files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());  // by shard, then by start
  const size_t params = header_.spsa->params.size();
  int64_t applied = 0;
  for (const std::string& path : files) {
    if (ignored_.contains(path)) continue;
    auto& tail = tails_[path];
    if (!tail) tail = std::make_unique<journal::FileTail>(path);
    for (const journal::FileTail::Line& l : tail->read_new()) {
      const std::string where = path + ":" + std::to_string(l.number) + ": ";
      if (l.number == 1) {
        auto h = journal::parse_journal_header(l.text);
        std::string d = h ? journal::run_difference(header_, *h, "the coordinator's run") : h.error();
        if (!d.empty()) {
          warnings.push_back(path + ": left out: " + d);
          ignored_.insert(path);
          break;
        }
        continue;
      }
      if (!journal::is_spsa_pair_line(l.text)) continue;
      // A whole line that cannot be read is damage, not a pair to skip: the shards count it as played.
      auto pair = journal::parse_spsa_pair_line(l.text, params, true);
      if (!pair) return std::unexpected(where + pair.error());
      for (const journal::JournalGame& g : pair->games)  // as read_journal would refuse the applied journal
        if (std::string foreign = journal::foreign_game(g, &header_); !foreign.empty())
          return std::unexpected(where + foreign);
      if (pair->pair.k > pairs_total() || applied_.contains(pair->pair.k)) continue;  // applied once, ever
      const std::vector<double> before = tuner_->theta();
      tuner_->apply(pair->pair);
      const std::string line = journal::spsa_pair_line(pair->pair, pair->game_lines[0], pair->game_lines[1]);
      if (auto w = journal_.append(line); !w) {
        tuner_->restore(before);  // theta holds only what the applied journal holds
        return std::unexpected(w.error());
      }
      applied_.insert(pair->pair.k);
      ++applied;
    }
  }
  // Published when it changed, and every 30 s all the same: the shards take a file that stops changing for a
  // coordinator that is gone.
  const auto now = std::chrono::steady_clock::now();
  if (applied > 0 || now - published_ >= std::chrono::seconds(30)) {
    if (!publish_theta(out_dir_, {this->applied(), theta()}))
      return std::unexpected(theta_path(out_dir_) + ": cannot write it");
    published_ = now;
  }
  return applied;
}

}  // namespace arena::spsa
