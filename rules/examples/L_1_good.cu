// L_1, good: the same sums, but each thread owns a group of 16 channels and
// the grid's second dimension walks the groups. A 16-element array with
// indices fixed after unrolling stays in registers.
#define CHANNELS 256
#define GROUP 16

// frames: nframes x CHANNELS planes of `pixels` floats; sums: CHANNELS planes.
__global__ void sum_frames(const float *__restrict__ frames, float *__restrict__ sums,
                           int pixels, int nframes)
{
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  int c0 = blockIdx.y * GROUP;
  if (p >= pixels) return;
  float acc[GROUP];
#pragma unroll
  for (int c = 0; c < GROUP; ++c) acc[c] = 0.0f;
  for (int f = 0; f < nframes; ++f) {
#pragma unroll
    for (int c = 0; c < GROUP; ++c)
      acc[c] += frames[((size_t)f * CHANNELS + c0 + c) * pixels + p];
  }
#pragma unroll
  for (int c = 0; c < GROUP; ++c) sums[(size_t)(c0 + c) * pixels + p] = acc[c];
}

void launch_sum_frames(const float *frames, float *sums, int pixels, int nframes)
{
  dim3 grid((pixels + 255) / 256, CHANNELS / GROUP);
  sum_frames<<<grid, 256>>>(frames, sums, pixels, nframes);
}
