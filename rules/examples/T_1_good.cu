// T_1, good: the curve is read through a texture object, with no staging
// and no limit on its length.
// in holds values in [0, 1].
__global__ void apply_curve(cudaTextureObject_t curve, const float *__restrict__ in,
                            float *__restrict__ out, int n, int entries)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int k = min((int)(in[i] * (entries - 1)), entries - 1);
  out[i] = tex1Dfetch<float>(curve, k);
}

cudaTextureObject_t make_curve_texture(const float *curve, int entries)
{
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = (void *)curve;
  res.res.linear.desc = cudaCreateChannelDesc<float>();
  res.res.linear.sizeInBytes = (size_t)entries * sizeof(float);
  cudaTextureDesc tex = {};
  tex.readMode = cudaReadModeElementType;
  cudaTextureObject_t obj = 0;
  cudaCreateTextureObject(&obj, &res, &tex, nullptr);
  return obj;
}

void launch_apply_curve(cudaTextureObject_t curve, const float *in, float *out, int n, int entries)
{
  apply_curve<<<(n + 255) / 256, 256>>>(curve, in, out, n, entries);
}
