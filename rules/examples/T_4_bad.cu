// T_4, bad: a gather through a permutation. The lanes of a warp read
// scattered elements of src, which is never written, through the ordinary
// global load path.
__global__ void gather(const float *src, const int *__restrict__ perm,
                       float *__restrict__ out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = src[perm[i]]; // expect: T_4
}

void launch_gather(const float *src, const int *perm, float *out, int n)
{
  gather<<<(n + 255) / 256, 256>>>(src, perm, out, n);
}
