// L_1, bad: every thread keeps 256 running sums in one private array. A
// thread has at most 255 registers, so however simple the loop, the array
// cannot live in registers and every update goes to local memory.
#define CHANNELS 256

// frames: nframes x CHANNELS planes of `pixels` floats; sums: CHANNELS planes.
__global__ void sum_frames(const float *__restrict__ frames, float *__restrict__ sums,
                           int pixels, int nframes)
{
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= pixels) return;
  float acc[CHANNELS]; // expect: L_1
#pragma unroll
  for (int c = 0; c < CHANNELS; ++c) acc[c] = 0.0f;
  for (int f = 0; f < nframes; ++f) {
#pragma unroll
    for (int c = 0; c < CHANNELS; ++c)
      acc[c] += frames[((size_t)f * CHANNELS + c) * pixels + p];
  }
#pragma unroll
  for (int c = 0; c < CHANNELS; ++c) sums[(size_t)c * pixels + p] = acc[c];
}

void launch_sum_frames(const float *frames, float *sums, int pixels, int nframes)
{
  sum_frames<<<(pixels + 255) / 256, 256>>>(frames, sums, pixels, nframes);
}
