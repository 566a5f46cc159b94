// S_3, bad: a forward difference that first realigns the shifted
// neighbours into a second shared buffer so that the final read starts at a
// lane-aligned index. Shared memory needs neither aligned nor consecutive
// access (Fig. 6), so the copy and the extra barrier buy nothing.
#define BLOCK 256

// out[i] = in[i + 1] - in[i] for i < n - 1; in holds n floats.
__global__ void forward_difference(const float *__restrict__ in, float *__restrict__ out, int n)
{
  __shared__ float s[BLOCK + 1];
  __shared__ float next[BLOCK];
  int i = blockIdx.x * BLOCK + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : 0.0f;
  if (threadIdx.x == 0) {
    int halo = blockIdx.x * BLOCK + BLOCK;
    s[BLOCK] = halo < n ? in[halo] : 0.0f;
  }
  __syncthreads();
  if (threadIdx.x > 0) next[threadIdx.x - 1] = s[threadIdx.x];
  if (threadIdx.x == 0) next[BLOCK - 1] = s[BLOCK];
  __syncthreads();
  if (i < n - 1) out[i] = next[threadIdx.x] - s[threadIdx.x];
}

void launch_forward_difference(const float *in, float *out, int n)
{
  forward_difference<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, n);
}
