// C_5, good: one thread per element and as many blocks as the data needs;
// the block count is not a tuning knob for constant memory.
#define DEGREE 8

__constant__ float c_coef[DEGREE];

__global__ void eval_poly(const float *__restrict__ x, float *__restrict__ y, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i], acc = 0.0f;
  for (int k = 0; k < DEGREE; ++k) acc = acc * v + c_coef[k];
  y[i] = acc;
}

void launch_eval_poly(const float *x, float *y, int n)
{
  eval_poly<<<(n + 255) / 256, 256>>>(x, y, n);
}
