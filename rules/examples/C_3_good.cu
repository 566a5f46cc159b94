// C_3, good: the gains come from global memory through the read-only data
// path, which serves 32 different consecutive words in one request.
#define CHANNELS 256

// in, out: rows of CHANNELS interleaved samples; one block per row.
__global__ void apply_gain(const float *__restrict__ gain, const float *__restrict__ in,
                           float *__restrict__ out)
{
  size_t i = (size_t)blockIdx.x * CHANNELS + threadIdx.x;
  out[i] = in[i] * __ldg(&gain[threadIdx.x]);
}

void launch_apply_gain(const float *gain, const float *in, float *out, int rows)
{
  apply_gain<<<rows, CHANNELS>>>(gain, in, out);
}
