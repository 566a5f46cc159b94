// S_6, good: with no reuse between threads the value goes straight from
// global memory to a register.
#define BLOCK 256

__global__ void scale(const float *__restrict__ in, float *__restrict__ out, float a, int n)
{
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) out[i] = a * in[i];
}

void launch_scale(const float *in, float *out, float a, int n)
{
  scale<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, a, n);
}
