// C_5, bad: the grid is capped at a hand-picked number of blocks, with a
// grid-stride loop to cover the data, in the belief that fewer blocks ease
// the pressure on the constant cache. The block count barely matters for
// constant memory (Fig. 7(b)); the cap only adds a loop and a magic number.
#define DEGREE 8
#define CAPPED_BLOCKS 26

__constant__ float c_coef[DEGREE];

__global__ void eval_poly(const float *__restrict__ x, float *__restrict__ y, int n)
{
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    float v = x[i], acc = 0.0f;
    for (int k = 0; k < DEGREE; ++k) acc = acc * v + c_coef[k];
    y[i] = acc;
  }
}

void launch_eval_poly(const float *x, float *y, int n)
{
  eval_poly<<<CAPPED_BLOCKS, 256>>>(x, y, n);
}
