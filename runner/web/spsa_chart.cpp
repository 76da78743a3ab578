#include "web/spsa_chart.h"

#include <boost/json.hpp>

#include "output/json.h"

namespace arena::web {

namespace bj = boost::json;

SpsaHistory::SpsaHistory(std::vector<stats::SpsaParam> params, stats::SpsaSchedule schedule)
    : params_(std::move(params)), schedule_(schedule) {}

void SpsaHistory::add(int64_t k, const std::vector<double>& theta, double result) {
  ++added_;
  pairs_done_ = std::max(pairs_done_, added_);
  if ((added_ - 1) % stride_ != 0) return;
  points_.push_back({k, theta, result});
  if (points_.size() <= kMaxPoints) return;
  // Thin out: every second point stays, and from now on every second pair is kept.
  std::vector<Point> kept;
  for (size_t i = 0; i < points_.size(); i += 2) kept.push_back(std::move(points_[i]));
  points_ = std::move(kept);
  stride_ *= 2;
}

bj::value SpsaHistory::json() const {
  bj::array params;
  for (const stats::SpsaParam& p : params_)
    params.emplace_back(bj::object{{"name", p.name}, {"min", p.min}, {"max", p.max}, {"start", p.start}});
  bj::array ks, results;
  std::vector<bj::array> theta(params_.size()), c(params_.size());
  for (const Point& point : points_) {
    ks.emplace_back(point.k);
    results.emplace_back(point.result);
    for (size_t i = 0; i < params_.size(); ++i) {
      theta[i].emplace_back(point.theta[i]);
      c[i].emplace_back(stats::spsa_c(params_[i], schedule_, point.k));
    }
  }
  bj::array theta_series, c_series;
  for (size_t i = 0; i < params_.size(); ++i) {
    theta_series.emplace_back(std::move(theta[i]));
    c_series.emplace_back(std::move(c[i]));
  }
  bj::object o;
  o.emplace("params", std::move(params));
  o.emplace("k", std::move(ks));
  o.emplace("theta", std::move(theta_series));
  o.emplace("c", std::move(c_series));
  o.emplace("results", std::move(results));
  o.emplace("pairs_done", pairs_done_);
  o.emplace("pairs_total", schedule_.iterations);
  return o;
}

}  // namespace arena::web
