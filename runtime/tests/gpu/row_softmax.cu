// The sample artifact's kernel: softmax over each row of a bf16 matrix, one
// thread block per row. Hand-written CUDA standing in for compiler output, so
// the runtime and tileopt-run can be tried on a GPU before the compiler
// emits cubins. The row is staged in dynamic shared memory as f32; with
// 16384 columns that is 64 KiB, past the 48 KiB default, so loading it also
// exercises the runtime's cuFuncSetAttribute path.
#include <cuda_bf16.h>

namespace {

constexpr int kThreads = 256;

// Reduces `value` over the block with `op`; every thread gets the result.
template <typename Op>
__device__ float blockReduce(float value, float *partials, Op op) {
  for (int offset = 16; offset > 0; offset /= 2)
    value = op(value, __shfl_xor_sync(0xffffffffu, value, offset));
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane == 0)
    partials[warp] = value;
  __syncthreads();
  value = partials[0];
  for (int w = 1; w < kThreads / 32; ++w)
    value = op(value, partials[w]);
  __syncthreads(); // partials is reused by the next reduction
  return value;
}

} // namespace

// Params (see manifest.json.in): x, y, cols.
extern "C" __global__ void __launch_bounds__(kThreads)
row_softmax(const __nv_bfloat16 *x, __nv_bfloat16 *y, long long cols) {
  extern __shared__ float row[];
  __shared__ float partials[kThreads / 32];
  const __nv_bfloat16 *in = x + blockIdx.x * cols;
  __nv_bfloat16 *out = y + blockIdx.x * cols;

  float max = -INFINITY;
  for (long long c = threadIdx.x; c < cols; c += kThreads) {
    row[c] = __bfloat162float(in[c]);
    max = fmaxf(max, row[c]);
  }
  max = blockReduce(max, partials, [](float a, float b) { return fmaxf(a, b); });

  float sum = 0;
  for (long long c = threadIdx.x; c < cols; c += kThreads) {
    row[c] = __expf(row[c] - max);
    sum += row[c];
  }
  sum = blockReduce(sum, partials, [](float a, float b) { return a + b; });

  float scale = 1.0f / sum;
  for (long long c = threadIdx.x; c < cols; c += kThreads)
    out[c] = __float2bfloat16(row[c] * scale);
}
