// L_3, bad: a temporal median over 9 frames. The insertion sort moves
// elements to positions that depend on the data, so the private array is
// addressed dynamically and lives in local memory.
#define FRAMES 9

// frames: FRAMES planes of `pixels` floats.
__global__ void temporal_median(const float *__restrict__ frames, float *__restrict__ out,
                                int pixels)
{
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= pixels) return;
  float w[FRAMES];
#pragma unroll
  for (int f = 0; f < FRAMES; ++f) w[f] = frames[(size_t)f * pixels + p];
  for (int a = 1; a < FRAMES; ++a) {
    float key = w[a];
    int b = a - 1;
    while (b >= 0 && w[b] > key) { // expect: L_3
      w[b + 1] = w[b];
      --b;
    }
    w[b + 1] = key;
  }
  out[p] = w[FRAMES / 2];
}

void launch_temporal_median(const float *frames, float *out, int pixels)
{
  temporal_median<<<(pixels + 255) / 256, 256>>>(frames, out, pixels);
}
