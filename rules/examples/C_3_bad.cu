// C_3, bad: a per-channel gain table in constant memory, indexed by the
// lane. The 32 lanes of a warp ask for 32 different words, and constant
// memory serves them one after another.
#define CHANNELS 256

__constant__ float c_gain[CHANNELS];

// in, out: rows of CHANNELS interleaved samples; one block per row.
__global__ void apply_gain(const float *__restrict__ in, float *__restrict__ out)
{
  size_t i = (size_t)blockIdx.x * CHANNELS + threadIdx.x;
  out[i] = in[i] * c_gain[threadIdx.x]; // expect: C_3
}

void upload_gains(const float *host_gain)
{
  cudaMemcpyToSymbol(c_gain, host_gain, sizeof c_gain);
}

void launch_apply_gain(const float *in, float *out, int rows)
{
  apply_gain<<<rows, CHANNELS>>>(in, out);
}
