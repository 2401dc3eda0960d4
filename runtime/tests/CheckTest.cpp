// tileopt-run's output check on host tensors: the error metric, the
// tolerances, NaN outputs and bad expected values.
#include "Check.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace tileopt::run;

namespace {

Tensor values(std::vector<double> v) {
  std::vector<int64_t> shape = {static_cast<int64_t>(v.size())};
  return Tensor{shape, std::move(v)};
}

TEST(Check, RelativeErrorWithinTolerancePasses) {
  Tensor expected = values({1.0, -2.0, 4.0});
  OutputCheck check = checkOutput(TILEOPT_BF16, values({1.005, -2.0, 4.0}), &expected);
  EXPECT_TRUE(check.pass);
  EXPECT_NEAR(check.maxError, 5e-3, 1e-12);
  EXPECT_EQ(check.worst, 0);
  EXPECT_EQ(check.nans, 0);
}

TEST(Check, ToleranceFollowsTheOutputDtype) {
  Tensor expected = values({1.0, 100.0});
  Tensor got = values({1.0, 100.2}); // 2e-3 relative
  EXPECT_TRUE(checkOutput(TILEOPT_BF16, got, &expected).pass);
  EXPECT_TRUE(checkOutput(TILEOPT_F16, got, &expected).pass);
  OutputCheck f32 = checkOutput(TILEOPT_F32, got, &expected);
  EXPECT_FALSE(f32.pass);
  EXPECT_EQ(f32.worst, 1);
  EXPECT_FALSE(checkOutput(TILEOPT_BF16, values({1.0, 102.0}), &expected).pass);
}

TEST(Check, SmallExpectedValuesMeetTheFloor) {
  // |got - expected| / max(|expected|, 1e-6): 1e-9 off a 1e-12 value is
  // 1e-3 of the floor, not 1000x the value.
  Tensor expected = values({1e-12});
  OutputCheck check = checkOutput(TILEOPT_BF16, values({1e-9}), &expected);
  EXPECT_TRUE(check.pass);
  EXPECT_NEAR(check.maxError, 1e-3, 1e-6);
  // f16's floor is its smallest normal number, 2^-14 (6.1e-5): 3e-7 off a
  // 1e-5 value is 4.9e-3 of it and passes, where bf16's floor fails it.
  Tensor tiny = values({1e-5});
  EXPECT_TRUE(checkOutput(TILEOPT_F16, values({1e-5 + 3e-7}), &tiny).pass);
  EXPECT_FALSE(checkOutput(TILEOPT_BF16, values({1e-5 + 3e-7}), &tiny).pass);
}

TEST(Check, NanOutputsFailWithOrWithoutExpectedValues) {
  Tensor expected = values({1.0, 2.0});
  Tensor got = values({1.0, NAN});
  OutputCheck check = checkOutput(TILEOPT_BF16, got, &expected);
  EXPECT_FALSE(check.pass);
  EXPECT_EQ(check.nans, 1);
  EXPECT_EQ(check.maxError, 0); // the NaN is counted, not measured
  OutputCheck nanOnly = checkOutput(TILEOPT_BF16, got, nullptr);
  EXPECT_FALSE(nanOnly.pass);
  EXPECT_EQ(nanOnly.worst, -1);
  EXPECT_TRUE(checkOutput(TILEOPT_BF16, values({1.0, 2.0}), nullptr).pass);
}

TEST(Check, NanOrInfExpectedValuesFail) {
  // An expected NaN (an element the reference never wrote) is the worst
  // error however many elements follow it.
  Tensor expected = values({1.0, NAN, 3.0, INFINITY});
  OutputCheck check = checkOutput(TILEOPT_F32, values({1.0, 2.0, 3.5, 4.0}), &expected);
  EXPECT_FALSE(check.pass);
  EXPECT_EQ(check.worst, 1);
  EXPECT_TRUE(std::isnan(check.maxError));
  Tensor inf = values({INFINITY});
  EXPECT_FALSE(checkOutput(TILEOPT_F32, values({1.0}), &inf).pass);
}

} // namespace
