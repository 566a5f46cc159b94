// S_4, bad: 48 threads per block: fewer than the 128 that keep the four
// warp schedulers of an SM busy (Section 5.1), and not a whole number of
// warps, so the second warp of every block runs half empty.
__global__ void saxpy(float a, const float *__restrict__ x, float *__restrict__ y, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

void launch_saxpy(float a, const float *x, float *y, int n)
{
  saxpy<<<(n + 47) / 48, 48>>>(a, x, y, n); // expect: S_4
}
