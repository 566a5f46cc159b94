// C_1, bad: sixteen polynomials stored coefficient-major, so evaluating one
// polynomial walks the constant array with a stride of 16 elements. The
// constant cache works best on consecutive data (Fig. 2).
#define NPOLY 16
#define DEGREE 8

// c_coef[k * NPOLY + p] is coefficient k (highest power first) of polynomial p.
__constant__ float c_coef[DEGREE * NPOLY];

__global__ void eval_poly(const float *__restrict__ x, float *__restrict__ y, int n, int p)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i], acc = 0.0f;
  for (int k = 0; k < DEGREE; ++k)
    acc = acc * v + c_coef[k * NPOLY + p]; // expect: C_1
  y[i] = acc;
}

void upload_coefficients(const float *host_coef)
{
  cudaMemcpyToSymbol(c_coef, host_coef, sizeof c_coef);
}

void launch_eval_poly(const float *x, float *y, int n, int p)
{
  eval_poly<<<(n + 255) / 256, 256>>>(x, y, n, p);
}
