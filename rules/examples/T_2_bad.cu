// T_2, bad: to read a window that starts at an arbitrary offset, the host
// first copies it to an aligned scratch buffer and binds the texture there.
// Texture reads need no alignment (Fig. 11(a)); the copy is wasted traffic.
__global__ void scale_window(cudaTextureObject_t src, float *__restrict__ out, float a, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * tex1Dfetch<float>(src, i);
}

cudaTextureObject_t make_texture(const float *data, size_t count)
{
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = (void *)data;
  res.res.linear.desc = cudaCreateChannelDesc<float>();
  res.res.linear.sizeInBytes = count * sizeof(float);
  cudaTextureDesc tex = {};
  tex.readMode = cudaReadModeElementType;
  cudaTextureObject_t obj = 0;
  cudaCreateTextureObject(&obj, &res, &tex, nullptr);
  return obj;
}

// Scales signal[offset .. offset + n) into out, through scratch (n floats).
void launch_scale_window(const float *signal, float *scratch, float *out, float a,
                         int offset, int n)
{
  cudaMemcpy(scratch, signal + offset, (size_t)n * sizeof(float), cudaMemcpyDeviceToDevice);
  cudaTextureObject_t src = make_texture(scratch, (size_t)n);
  scale_window<<<(n + 255) / 256, 256>>>(src, out, a, n);
  cudaDestroyTextureObject(src);
}
