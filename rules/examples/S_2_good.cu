// S_2, good: one shared copy of the taps; all lanes of a warp read the same
// word at once and shared memory serves them with a broadcast.
#define TAPS 16

__global__ void eval_poly(const float *__restrict__ taps, const float *__restrict__ x,
                          float *__restrict__ y, int n)
{
  __shared__ float coef[TAPS];
  if (threadIdx.x < TAPS) coef[threadIdx.x] = taps[threadIdx.x];
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i], acc = 0.0f;
  for (int k = 0; k < TAPS; ++k) acc = acc * v + coef[k];
  y[i] = acc;
}

void launch_eval_poly(const float *taps, const float *x, float *y, int n)
{
  eval_poly<<<(n + 255) / 256, 256>>>(taps, x, y, n);
}
