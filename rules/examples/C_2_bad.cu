// C_2, bad: eight polynomial coefficients, read by every lane of a warp at
// the same index in every iteration, are held in global memory.
#define DEGREE 8

__global__ void eval_poly(const float *__restrict__ coef, const float *__restrict__ x,
                          float *__restrict__ y, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i], acc = 0.0f;
  for (int k = 0; k < DEGREE; ++k)
    acc = acc * v + coef[k]; // expect: C_2
  y[i] = acc;
}

void launch_eval_poly(const float *coef, const float *x, float *y, int n)
{
  eval_poly<<<(n + 255) / 256, 256>>>(coef, x, y, n);
}
