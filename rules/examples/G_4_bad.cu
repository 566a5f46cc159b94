// G_4, bad: a 2-D block whose x dimension runs down the image rows, so the
// lanes of a warp touch 8 different rows. For non-consecutive access the
// thread configuration is what decides the latency (Fig. 9), so the block
// shape is the thing to change.
__global__ void brighten(float *__restrict__ img, int width, int height, float gain)
{
  int row = blockIdx.y * blockDim.x + threadIdx.x;
  int col = blockIdx.x * blockDim.y + threadIdx.y;
  if (row < height && col < width) img[(size_t)row * width + col] *= gain;
}

void launch_brighten(float *img, int width, int height, float gain)
{
  dim3 block(8, 32);
  dim3 grid((width + 31) / 32, (height + 7) / 8);
  brighten<<<grid, block>>>(img, width, height, gain);
}
