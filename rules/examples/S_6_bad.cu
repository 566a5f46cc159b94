// S_6, bad: each thread stores its element in shared memory and reads back
// only that same element. Nothing is shared between threads, so the buffer,
// the barrier and the extra store and load are pure overhead.
#define BLOCK 256

__global__ void scale(const float *__restrict__ in, float *__restrict__ out, float a, int n)
{
  __shared__ float staged[BLOCK]; // expect: S_6
  int i = blockIdx.x * BLOCK + threadIdx.x;
  staged[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (i < n) out[i] = a * staged[threadIdx.x];
}

void launch_scale(const float *in, float *out, float a, int n)
{
  scale<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, a, n);
}
