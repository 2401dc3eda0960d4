#include "HostBuffer.h"

#include <cmath>
#include <cstring>
#include <string>

namespace tileopt::run {

namespace {

uint32_t floatBits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}

float bitsFloat(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

template <typename T> T load(const uint8_t *bytes, int64_t index) {
  T value;
  std::memcpy(&value, bytes + index * sizeof(T), sizeof(T));
  return value;
}

template <typename T> void store(uint8_t *bytes, int64_t index, T value) {
  std::memcpy(bytes + index * sizeof(T), &value, sizeof(T));
}

} // namespace

uint16_t floatToHalf(float value) {
  uint32_t x = floatBits(value);
  uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000);
  uint32_t magnitude = x & 0x7fffffff;
  if (magnitude >= 0x7f800000) // inf stays inf, NaN stays a quiet NaN
    return sign | (magnitude > 0x7f800000 ? 0x7e00 : 0x7c00);
  if (magnitude >= 0x477ff000) // 65520 and above round to inf
    return sign | 0x7c00;
  if (magnitude < 0x38800000) {
    // Below 2^-14, half is subnormal: a count of 2^-24 steps. The scaling
    // is exact, and nearbyint rounds to nearest even.
    float steps = std::fabs(value) * 16777216.0f;
    return sign | static_cast<uint16_t>(std::nearbyint(steps));
  }
  uint32_t exponent = (magnitude >> 23) - 127 + 15;
  uint32_t mantissa = magnitude & 0x7fffff;
  uint32_t half = (exponent << 10) | (mantissa >> 13);
  uint32_t rest = mantissa & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
    ++half; // a carry into the exponent is the right result
  return sign | static_cast<uint16_t>(half);
}

float halfToFloat(uint16_t bits) {
  uint32_t sign = uint32_t(bits & 0x8000) << 16;
  uint32_t exponent = (bits >> 10) & 0x1f;
  uint32_t mantissa = bits & 0x3ff;
  if (exponent == 0) {
    float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    return sign ? -magnitude : magnitude;
  }
  if (exponent == 31)
    return bitsFloat(sign | 0x7f800000 | (mantissa << 13));
  return bitsFloat(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

uint16_t floatToBFloat16(float value) {
  uint32_t x = floatBits(value);
  if ((x & 0x7fffffff) > 0x7f800000)
    return static_cast<uint16_t>((x >> 16) | 0x40); // keep NaN a NaN
  x += 0x7fff + ((x >> 16) & 1);                    // round to nearest even
  return static_cast<uint16_t>(x >> 16);
}

float bfloat16ToFloat(uint16_t bits) { return bitsFloat(uint32_t(bits) << 16); }

bool isFloat(tileopt_dtype dtype) {
  return dtype == TILEOPT_F16 || dtype == TILEOPT_BF16 || dtype == TILEOPT_F32 ||
         dtype == TILEOPT_F64;
}

double loadElement(const uint8_t *bytes, tileopt_dtype dtype, int64_t index) {
  switch (dtype) {
  case TILEOPT_F16: return halfToFloat(load<uint16_t>(bytes, index));
  case TILEOPT_BF16: return bfloat16ToFloat(load<uint16_t>(bytes, index));
  case TILEOPT_F32: return load<float>(bytes, index);
  case TILEOPT_F64: return load<double>(bytes, index);
  case TILEOPT_I8: return load<int8_t>(bytes, index);
  case TILEOPT_I32: return load<int32_t>(bytes, index);
  case TILEOPT_I64: return static_cast<double>(load<int64_t>(bytes, index));
  }
  return NAN;
}

void storeElement(uint8_t *bytes, tileopt_dtype dtype, int64_t index, double value) {
  switch (dtype) {
  case TILEOPT_F16: store(bytes, index, floatToHalf(static_cast<float>(value))); break;
  case TILEOPT_BF16: store(bytes, index, floatToBFloat16(static_cast<float>(value))); break;
  case TILEOPT_F32: store(bytes, index, static_cast<float>(value)); break;
  case TILEOPT_F64: store(bytes, index, value); break;
  case TILEOPT_I8: store(bytes, index, static_cast<int8_t>(value)); break;
  case TILEOPT_I32: store(bytes, index, static_cast<int32_t>(value)); break;
  case TILEOPT_I64: store(bytes, index, static_cast<int64_t>(value)); break;
  }
}

std::string shapeText(const std::vector<int64_t> &shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

int64_t numElements(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

namespace {

// Calls visit(i, offset) for the buffer's logical elements in row-major
// order: i counts them, offset is where the strides put element i.
template <typename Visit>
void forEachElement(const tileopt_buffer_info &info, Visit visit) {
  int64_t count = 1;
  for (int d = 0; d < info.rank; ++d)
    count *= info.shape[d];
  std::vector<int64_t> position(info.rank, 0); // row-major odometer
  int64_t offset = 0;
  for (int64_t i = 0; i < count; ++i) {
    visit(i, offset);
    for (int d = info.rank - 1; d >= 0; --d) {
      offset += info.strides[d];
      if (++position[d] < info.shape[d])
        break;
      offset -= info.strides[d] * info.shape[d];
      position[d] = 0;
    }
  }
}

} // namespace

Tensor gather(const tileopt_buffer_info &info, const std::vector<uint8_t> &bytes) {
  Tensor t;
  t.shape.assign(info.shape, info.shape + info.rank);
  t.values.resize(numElements(t.shape));
  forEachElement(info, [&](int64_t i, int64_t offset) {
    t.values[i] = loadElement(bytes.data(), info.dtype, offset);
  });
  return t;
}

void scatter(const tileopt_buffer_info &info, const Tensor &t, std::vector<uint8_t> &bytes) {
  forEachElement(info, [&](int64_t i, int64_t offset) {
    storeElement(bytes.data(), info.dtype, offset, t.values[i]);
  });
}

} // namespace tileopt::run
