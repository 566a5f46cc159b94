// S_1, good: one padding column ([32][33], Fig. 13) shifts each row by one
// bank, so the 32 elements of a column fall in 32 different banks.
#define TILE 32

// n must be a multiple of TILE.
__global__ void transpose(const float *__restrict__ in, float *__restrict__ out, int n)
{
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[(size_t)y * n + x];
  __syncthreads();
  int tx = blockIdx.y * TILE + threadIdx.x;
  int ty = blockIdx.x * TILE + threadIdx.y;
  out[(size_t)ty * n + tx] = tile[threadIdx.x][threadIdx.y];
}

void launch_transpose(const float *in, float *out, int n)
{
  dim3 grid(n / TILE, n / TILE);
  transpose<<<grid, dim3(TILE, TILE)>>>(in, out, n);
}
