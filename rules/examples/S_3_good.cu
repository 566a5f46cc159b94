// S_3, good: each thread reads its neighbour at the index one past its own;
// the misaligned shared read is as fast as the aligned one.
#define BLOCK 256

// out[i] = in[i + 1] - in[i] for i < n - 1; in holds n floats.
__global__ void forward_difference(const float *__restrict__ in, float *__restrict__ out, int n)
{
  __shared__ float s[BLOCK + 1];
  int i = blockIdx.x * BLOCK + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : 0.0f;
  if (threadIdx.x == 0) {
    int halo = blockIdx.x * BLOCK + BLOCK;
    s[BLOCK] = halo < n ? in[halo] : 0.0f;
  }
  __syncthreads();
  if (i < n - 1) out[i] = s[threadIdx.x + 1] - s[threadIdx.x];
}

void launch_forward_difference(const float *in, float *out, int n)
{
  forward_difference<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, n);
}
