/* The exact covariance of integer images from byte planes (covariance V8).
 * A stored value x of an integer type up to 16 bits is mapped to an
 * unsigned 16-bit u = x + offset (offset 32768 for int16, 0 for uint16 and
 * uint8) and split into bytes u = 256 h + l. For bands i, j
 *   sum_k u_i u_j = 65536 sum h_i h_j + 256 (sum h_i l_j + sum l_i h_j) + sum l_i l_j,
 * four Gram matrices of bytes that int8 tensor cores compute exactly in
 * int32. Over at most COV_BYTES_MAX_PIXELS pixels no int32 sum wraps
 * (255 * 255 * 32768 < 2^31), and the block's u Gram (< 65536^2 * 2^15 =
 * 2^47) is exact in a double. This header is shared by the kernel and a
 * CPU test, so it is plain C with __host__ __device__ under nvcc. */
#ifndef MNF_GPU_COV_BYTES_H
#define MNF_GPU_COV_BYTES_H

#include <stdint.h>

#include "envi.h"

#ifdef __CUDACC__
#define COV_BYTES_HD __host__ __device__
#else
#define COV_BYTES_HD
#endif

#define COV_BYTES_MAX_PIXELS 32768

/* What u adds to a stored value: int16's range starts at -32768. */
static inline COV_BYTES_HD int cov_bytes_offset(int type)
{
  return type == ENVI_I16 ? 32768 : 0;
}

/* One block's exact contribution sum_k (u_ik - s_i)(u_jk - s_j) over its n
 * pixels, from the int32 byte Grams hh = sum h_i h_j, hl = sum h_i l_j,
 * lh = sum l_i h_j, ll = sum l_i l_j, the band sums u_i = sum_k u_ik and
 * u_j, and the shifts s = shift + offset in u's units:
 *   G_ij - s_j u_i - s_i u_j + n s_i s_j.
 * With s = offset (no shift) every term is an integer below 2^53, so the
 * result is the exact sum of x_i x_j. Otherwise the terms cancel down to
 * the centred sum; |G| stays within ~1e5 of it for real data, far inside a
 * double's 1e-16. */
static inline COV_BYTES_HD double cov_bytes_combine(int32_t hh, int32_t hl, int32_t lh, int32_t ll, uint32_t u_i,
                                                    uint32_t u_j, double s_i, double s_j, int32_t n)
{
  int64_t g = (int64_t)hh * 65536 + ((int64_t)hl + lh) * 256 + ll;
  return (double)g - s_j * u_i - s_i * u_j + (double)n * s_i * s_j;
}

#endif
