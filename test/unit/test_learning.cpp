#include "catch.hpp"

#include <cmath>

#include "decisions/learning.hpp"

using namespace mcorecoll;

namespace {

// Evidence of `ranks` ranks with `samples` samples each: every rank's mean and fastest sample
// per candidate as given (microseconds), the slowest rank's mean as given.
Evidence evidence(int ranks, double mean0, double fastest0, double slowest0, double mean1, double fastest1,
                  double slowest1) {
  Evidence e;
  e.ranks = ranks;
  e.samples = kLearnSamples;
  const double mean[2] = {mean0, mean1}, fastest[2] = {fastest0, fastest1}, slowest[2] = {slowest0, slowest1};
  for (int x = 0; x < 2; ++x) {
    e.typical_ns[x] = static_cast<std::uint64_t>(mean[x] * 1e3 * ranks);
    e.fastest_ns[x] = static_cast<std::uint64_t>(fastest[x] * 1e3 * ranks);
    e.slowest_ns[x] = static_cast<std::uint64_t>(slowest[x] * 1e3);
  }
  return e;
}

}  // namespace

TEST_CASE("size classes are powers of two") {
  CHECK(size_class(0) == 0);
  CHECK(size_class(1) == 1);
  CHECK(size_class(2) == 2);
  CHECK(size_class(3) == 2);
  CHECK(size_class(256) == 9);
  CHECK(size_class(511) == 9);
  CHECK(size_class(512) == 10);
  for (int k = 1; k < 40; ++k) {
    CHECK(size_class(class_low(k)) == k);
    CHECK(size_class(class_high(k)) == k);
  }
  CHECK(class_name(9) == "256-512");
  CHECK(class_name(11) == "1K-2K");
}

TEST_CASE("the schedule takes the row's path, then each other, each first call a warm-up") {
  for (int n = 2; n <= kLearnCandidatesMost; ++n) {
    int samples[kLearnCandidatesMost] = {};
    const std::uint64_t calls = learn_calls(n);
    for (std::uint64_t i = 0; i < calls; ++i) {
      CHECK(explored_candidate(i) == static_cast<int>(i * static_cast<std::uint64_t>(n) / calls));
      CHECK(is_sample(i) == (i % (calls / static_cast<std::uint64_t>(n)) != 0));
      if (is_sample(i)) ++samples[explored_candidate(i)];
    }
    for (int x = 0; x < n; ++x) CHECK(samples[x] == kLearnSamples);
  }
}

TEST_CASE("of three candidates, the fastest that wins in both measures replaces the row's") {
  Evidence e = evidence(4, 10.0, 9.5, 12.0, 6.0, 5.8, 7.0);
  e.candidates = 3;
  auto third = [&](double mean, double fastest, double slowest) {
    e.typical_ns[2] = static_cast<std::uint64_t>(mean * 1e3 * 4);
    e.fastest_ns[2] = static_cast<std::uint64_t>(fastest * 1e3 * 4);
    e.slowest_ns[2] = static_cast<std::uint64_t>(slowest * 1e3);
  };
  third(3.0, 2.9, 3.5);  // faster still
  CHECK(judge(e).winner == 2);
  CHECK(std::fabs(judge(e).mean_us[2] - 3.0) < 1e-3);
  third(8.0, 7.8, 9.0);  // wins over the row, not over the second
  CHECK(judge(e).winner == 1);
  third(2.0, 1.9, 13.0);  // its slowest rank slower than the row's: out
  CHECK(judge(e).winner == 1);
  // A noisy third (its fastest sample far below its mean) does not raise the bar for the second,
  // which wins by 20% with samples that agree.
  Evidence quiet = evidence(2, 10.0, 9.8, 10.5, 8.0, 7.9, 8.3);
  quiet.candidates = 3;
  quiet.typical_ns[2] = 2 * 9000, quiet.fastest_ns[2] = 2 * 1000, quiet.slowest_ns[2] = 9500;
  CHECK(judge(quiet).winner == 1);
  CHECK(judge(quiet).margin < 0.1);
  Evidence slow = evidence(2, 10.0, 9.9, 10.2, 10.1, 9.9, 10.3);
  slow.candidates = 3;
  slow.typical_ns[2] = 2 * 9900, slow.fastest_ns[2] = 2 * 9800, slow.slowest_ns[2] = 10000;  // 1% faster
  CHECK(judge(slow).winner == 0);
}

TEST_CASE("a clear win in both measures replaces the row's path") {
  const Verdict v = judge(evidence(4, 10.0, 9.5, 12.0, 4.0, 3.8, 5.0));
  CHECK(v.winner == 1);
  CHECK(std::fabs(v.mean_us[0] - 10.0) < 1e-3);
  CHECK(std::fabs(v.mean_us[1] - 4.0) < 1e-3);
  CHECK(std::fabs(v.slowest_us[0] - 12.0) < 1e-3);
}

TEST_CASE("a win in one measure only leaves the row") {
  // Faster on average, but its slowest rank is slower.
  CHECK(judge(evidence(4, 10.0, 9.5, 12.0, 5.0, 4.8, 14.0)).winner == 0);
  // Its slowest rank faster, its mean not.
  CHECK(judge(evidence(4, 10.0, 9.5, 20.0, 11.0, 10.5, 12.0)).winner == 0);
}

TEST_CASE("equal candidates leave the row: no switch inside the margin") {
  CHECK(judge(evidence(2, 10.0, 9.9, 10.2, 9.8, 9.7, 10.0)).winner == 0);    // 2% apart: under kLearnMinMargin
  CHECK(judge(evidence(2, 10.0, 9.9, 10.2, 10.0, 9.9, 10.2)).winner == 0);   // the same
  CHECK(judge(evidence(2, 10.0, 9.9, 10.2, 10.5, 10.0, 11.0)).winner == 0);  // the other slower
}

TEST_CASE("a noisy class needs a larger win") {
  // 20% faster in both measures: enough where the samples agree...
  CHECK(judge(evidence(2, 10.0, 9.8, 10.5, 8.0, 7.9, 8.3)).winner == 1);
  // ...not where each candidate's mean lies far above its fastest samples.
  const Verdict noisy = judge(evidence(2, 10.0, 2.0, 10.5, 8.0, 1.0, 8.3));
  CHECK(noisy.winner == 0);
  CHECK(noisy.margin > 0.3);
}

TEST_CASE("a rank's own time is the median of its samples, so one slow call does not decide") {
  const std::uint64_t even[6] = {50, 10, 11, 12, 13, 9};
  const Own own = own_time(even, 6);
  CHECK(own.typical_ns == 11);  // (11 + 12) / 2, integers
  CHECK(own.fastest_ns == 9);
  const std::uint64_t odd[3] = {7, 100, 5};
  CHECK(own_time(odd, 3).typical_ns == 7);
  CHECK(own_time(odd, 0).typical_ns == 0);
}

TEST_CASE("no evidence leaves the row") {
  Evidence none;
  CHECK(judge(none).winner == 0);
}
