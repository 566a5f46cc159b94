// G_3, good: the matrix is stored column-major, so at each k the lanes of a
// warp write 32 consecutive floats.
__global__ void powers(const float *__restrict__ x, float *__restrict__ out, int m, int degree)
{
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m) return;
  float v = x[row], p = 1.0f;
  for (int k = 0; k < degree; ++k) {
    out[(size_t)k * m + row] = p;
    p *= v;
  }
}

void launch_powers(const float *x, float *out, int m, int degree)
{
  powers<<<(m + 255) / 256, 256>>>(x, out, m, degree);
}
