// L_2, bad: a moving average whose window length is a run-time argument.
// The ring-buffer slot t % taps is unknown at compile time, so the window
// is addressed dynamically and placed in local memory.
#define MAX_TAPS 32

// in, out: `length` planes of `series` floats (one time series per thread).
__global__ void moving_average(const float *__restrict__ in, float *__restrict__ out,
                               int series, int length, int taps)
{
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= series) return;
  float window[MAX_TAPS];
#pragma unroll
  for (int k = 0; k < MAX_TAPS; ++k) window[k] = 0.0f;
  float sum = 0.0f;
  for (int t = 0; t < length; ++t) {
    float x = in[(size_t)t * series + s];
    int slot = t % taps;
    sum += x - window[slot]; // expect: L_2
    window[slot] = x;
    out[(size_t)t * series + s] = sum / taps;
  }
}

// taps must be 1..MAX_TAPS.
void launch_moving_average(const float *in, float *out, int series, int length, int taps)
{
  moving_average<<<(series + 255) / 256, 256>>>(in, out, series, length, taps);
}
