// S_2, bad: the block keeps one copy of the filter taps per warp, on the
// mistaken idea that 32 lanes reading one shared word would conflict.
// Shared memory broadcasts (Fig. 5), so the copies only cost space and time.
#define TAPS 16
#define WARPS 8

__global__ void eval_poly(const float *__restrict__ taps, const float *__restrict__ x,
                          float *__restrict__ y, int n)
{
  __shared__ float copies[WARPS][TAPS];
  for (int j = threadIdx.x; j < WARPS * TAPS; j += blockDim.x)
    copies[j / TAPS][j % TAPS] = taps[j % TAPS];
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int warp = threadIdx.x / 32;
  float v = x[i], acc = 0.0f;
  for (int k = 0; k < TAPS; ++k) acc = acc * v + copies[warp][k];
  y[i] = acc;
}

void launch_eval_poly(const float *taps, const float *x, float *y, int n)
{
  eval_poly<<<(n + 255) / 256, WARPS * 32>>>(taps, x, y, n);
}
