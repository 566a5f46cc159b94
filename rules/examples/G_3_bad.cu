// G_3, bad: each thread writes one row of a Vandermonde matrix stored
// row-major, so the lanes of a warp store `degree` floats apart and every
// lane's store lands in a separate memory segment.
__global__ void powers(const float *__restrict__ x, float *__restrict__ out, int m, int degree)
{
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m) return;
  float v = x[row], p = 1.0f;
  for (int k = 0; k < degree; ++k) {
    out[(size_t)row * degree + k] = p; // expect: G_3
    p *= v;
  }
}

void launch_powers(const float *x, float *out, int m, int degree)
{
  powers<<<(m + 255) / 256, 256>>>(x, out, m, degree);
}
