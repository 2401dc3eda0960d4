// Host-side element access for tileopt-run: reading and writing buffer
// elements of any manifest dtype as doubles, including f16 and bf16 in plain
// C++ (round to nearest even), and gathering strided buffers into dense
// row-major arrays for the references, and back.
#ifndef TILEOPT_RUN_HOSTBUFFER_H
#define TILEOPT_RUN_HOSTBUFFER_H

#include "tileopt/runtime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tileopt::run {

uint16_t floatToHalf(float value);
float halfToFloat(uint16_t bits);
uint16_t floatToBFloat16(float value);
float bfloat16ToFloat(uint16_t bits);

bool isFloat(tileopt_dtype dtype);

// Element `index` (counted in elements from the buffer start) of `bytes`.
double loadElement(const uint8_t *bytes, tileopt_dtype dtype, int64_t index);
// Rounds `value` to `dtype` (integers: toward zero) and stores it.
void storeElement(uint8_t *bytes, tileopt_dtype dtype, int64_t index, double value);

// A dense row-major array of doubles.
struct Tensor {
  std::vector<int64_t> shape;
  std::vector<double> values;
};

int64_t numElements(const std::vector<int64_t> &shape);
// "[2, 3]", for messages.
std::string shapeText(const std::vector<int64_t> &shape);

// The logical elements of a buffer, read through its strides.
Tensor gather(const tileopt_buffer_info &info, const std::vector<uint8_t> &bytes);
// The inverse: stores t's values (of the buffer's shape) through the strides,
// rounded to the buffer's dtype (exact when they were read from that dtype).
// Elements between strided rows are left as they are.
void scatter(const tileopt_buffer_info &info, const Tensor &t, std::vector<uint8_t> &bytes);

} // namespace tileopt::run

#endif // TILEOPT_RUN_HOSTBUFFER_H
