// S_1, bad: a tiled transpose. Reading a column of the [32][32] tile puts
// all 32 lanes of a warp in the same bank (a 32-way conflict).
#define TILE 32

// n must be a multiple of TILE.
__global__ void transpose(const float *__restrict__ in, float *__restrict__ out, int n)
{
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[(size_t)y * n + x];
  __syncthreads();
  int tx = blockIdx.y * TILE + threadIdx.x;
  int ty = blockIdx.x * TILE + threadIdx.y;
  out[(size_t)ty * n + tx] = tile[threadIdx.x][threadIdx.y]; // expect: S_1
}

void launch_transpose(const float *in, float *out, int n)
{
  dim3 grid(n / TILE, n / TILE);
  transpose<<<grid, dim3(TILE, TILE)>>>(in, out, n);
}
