#pragma once
// The charts of an SPSA run, one per parameter: theta over the pairs, within the parameter's range, with the band
// theta +/- c_k of the values its two sides played. The live page (web/spsa_reporter.h) and the report after a run
// (web/report.h) draw the same data, built here:
//
//   {"params":[{"name":"X","min":0,"max":100,"start":20}],"k":[1,2,...],"theta":[[20.4,...]],"c":[[9.1,...]],
//    "results":[1,-1,...],"pairs_done":N,"pairs_total":N}
//
// A history keeps every point up to a thousand, then every second one, and so on: a long run draws as well as a
// short one, and memory stays bounded.

#include <boost/json/value.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "stats/spsa.h"

namespace arena::web {

class SpsaHistory {
 public:
  static constexpr size_t kMaxPoints = 1000;

  SpsaHistory(std::vector<stats::SpsaParam> params, stats::SpsaSchedule schedule);
  // Theta after pair k, and that pair's result.
  void add(int64_t k, const std::vector<double>& theta, double result);
  void set_done(int64_t pairs_done) { pairs_done_ = pairs_done; }
  boost::json::value json() const;

 private:
  struct Point {
    int64_t k;
    std::vector<double> theta;
    double result;
  };
  std::vector<stats::SpsaParam> params_;
  stats::SpsaSchedule schedule_;
  std::vector<Point> points_;
  int64_t stride_ = 1;  // keep pairs whose index is a multiple of this
  int64_t added_ = 0;
  int64_t pairs_done_ = 0;
};

}  // namespace arena::web
