// C_1, good: the table is reorganised polynomial-major, so one polynomial's
// coefficients are consecutive in constant memory.
#define NPOLY 16
#define DEGREE 8

// c_coef[p * DEGREE + k] is coefficient k (highest power first) of polynomial p.
__constant__ float c_coef[NPOLY * DEGREE];

__global__ void eval_poly(const float *__restrict__ x, float *__restrict__ y, int n, int p)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i], acc = 0.0f;
  for (int k = 0; k < DEGREE; ++k)
    acc = acc * v + c_coef[p * DEGREE + k];
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
