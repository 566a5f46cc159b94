// G_1, bad: thread 0 fetches two parameters and hands them to the block
// through shared memory and a barrier. Global memory already serves a warp
// that reads one address with a single request (Fig. 8).
__global__ void affine(const float *__restrict__ params, const float *__restrict__ x,
                       float *__restrict__ y, int n)
{
  __shared__ float s_scale, s_offset;
  if (threadIdx.x == 0) {
    s_scale = params[0];
    s_offset = params[1];
  }
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * s_scale + s_offset;
}

void launch_affine(const float *params, const float *x, float *y, int n)
{
  affine<<<(n + 255) / 256, 256>>>(params, x, y, n);
}
