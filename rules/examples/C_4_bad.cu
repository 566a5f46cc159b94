// C_4, bad: a constant-memory kernel launched with 1024 threads per block.
// On the K20c the constant-memory latency grew with the threads per block
// (Fig. 7(b)), and the block size was left at the maximum untested.
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
  eval_poly<<<(n + 1023) / 1024, 1024>>>(x, y, n);
}
