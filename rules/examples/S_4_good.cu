// S_4, good: 256 threads per block, a multiple of the warp size and enough
// warps per block to overlap their shared and global accesses.
__global__ void saxpy(float a, const float *__restrict__ x, float *__restrict__ y, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

void launch_saxpy(float a, const float *x, float *y, int n)
{
  saxpy<<<(n + 255) / 256, 256>>>(a, x, y, n);
}
