#include "decisions/learning.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace mcorecoll {

std::uint64_t class_low(int k) { return k == 0 ? 0 : 1ull << (k - 1); }

std::uint64_t class_high(int k) { return k == 0 ? 0 : k >= 64 ? ~0ull : (1ull << k) - 1; }

std::string class_name(int k) {
  auto size = [](std::uint64_t b) {
    if (b >= (1ull << 30) && b % (1ull << 30) == 0) return std::to_string(b >> 30) + "G";
    if (b >= (1ull << 20) && b % (1ull << 20) == 0) return std::to_string(b >> 20) + "M";
    if (b >= (1ull << 10) && b % (1ull << 10) == 0) return std::to_string(b >> 10) + "K";
    return std::to_string(b);
  };
  if (k == 0) return "0";
  return size(class_low(k)) + "-" + size(class_high(k) + 1);
}

Own own_time(const std::uint64_t* samples, int count) {
  Own own;
  if (count <= 0) return own;
  std::vector<std::uint64_t> sorted(samples, samples + count);
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  own.typical_ns = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  own.fastest_ns = sorted.front();
  return own;
}

Verdict judge(const Evidence& e) {
  Verdict v;
  const int n = e.candidates;
  if (e.ranks <= 0 || e.samples <= 0 || n < 2 || n > kLearnCandidatesMost) return v;
  const double per_rank = static_cast<double>(e.ranks), samples = static_cast<double>(e.samples);
  double spread[kLearnCandidatesMost] = {};
  for (int x = 0; x < n; ++x) {
    v.mean_us[x] = static_cast<double>(e.typical_ns[x]) / per_rank / 1e3;
    v.slowest_us[x] = static_cast<double>(e.slowest_ns[x]) / 1e3;
    const double fastest_us = static_cast<double>(e.fastest_ns[x]) / per_rank / 1e3;
    if (v.mean_us[x] > 0) spread[x] = (v.mean_us[x] - fastest_us) / v.mean_us[x];
    v.spread = std::max(v.spread, spread[x]);
  }
  // Each other candidate against the row's, by the spread of those two: a noisy third does not
  // raise the bar for the second.
  for (int x = 1; x < n; ++x) {
    const double margin = std::max(kLearnMinMargin, std::max(spread[0], spread[x]) / std::sqrt(samples));
    const bool wins_mean = v.mean_us[x] * (1 + margin) < v.mean_us[0];
    const bool wins_slowest = v.slowest_us[x] * (1 + margin) < v.slowest_us[0];
    if (wins_mean && wins_slowest && (v.winner == 0 || v.mean_us[x] < v.mean_us[v.winner])) v.winner = x, v.margin = margin;
    if (v.winner == 0) v.margin = std::max(v.margin, margin);
  }
  return v;
}

}  // namespace mcorecoll
