// L_4, bad: code bent to an old architecture's register budget. On sm_10 a
// private array of more than 29 elements left registers (Table 3), so this
// peak normalisation reads its 32 values twice from global memory instead
// of keeping them in a private array.
#define LEN 32

// in, out: LEN planes of n floats (one 32-element vector per thread).
__global__ void normalise_peak(const float *__restrict__ in, float *__restrict__ out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float peak = 0.0f;
  for (int k = 0; k < LEN; ++k) peak = fmaxf(peak, fabsf(in[(size_t)k * n + i]));
  float scale = peak > 0.0f ? 1.0f / peak : 0.0f;
  for (int k = 0; k < LEN; ++k) out[(size_t)k * n + i] = in[(size_t)k * n + i] * scale;
}

void launch_normalise_peak(const float *in, float *out, int n)
{
  normalise_peak<<<(n + 255) / 256, 256>>>(in, out, n);
}
