// S_5, good: the block loads 256 elements of its row of A into shared memory
// with one coalesced read, then every thread reads them from there.
#define BLOCK 256

// n x n row-major matrices; n must be a multiple of BLOCK.
__global__ void matmul_row(const float *__restrict__ A, const float *__restrict__ B,
                           float *__restrict__ C, int n)
{
  __shared__ float a_row[BLOCK];
  int row = blockIdx.y;
  int col = blockIdx.x * BLOCK + threadIdx.x;
  float sum = 0.0f;
  for (int k0 = 0; k0 < n; k0 += BLOCK) {
    a_row[threadIdx.x] = A[(size_t)row * n + k0 + threadIdx.x];
    __syncthreads();
    for (int k = 0; k < BLOCK; ++k) sum += a_row[k] * B[(size_t)(k0 + k) * n + col];
    __syncthreads();
  }
  C[(size_t)row * n + col] = sum;
}

void launch_matmul_row(const float *A, const float *B, float *C, int n)
{
  dim3 grid(n / BLOCK, n);
  matmul_row<<<grid, BLOCK>>>(A, B, C, n);
}
