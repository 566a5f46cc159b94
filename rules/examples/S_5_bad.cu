// S_5, bad: one block computes 256 entries of one row of C = A B. Every
// element A[row][k] is read from global memory by all 256 threads of the
// block: reusable data that is never staged in shared memory.
#define BLOCK 256

// n x n row-major matrices; n must be a multiple of BLOCK.
__global__ void matmul_row(const float *__restrict__ A, const float *__restrict__ B,
                           float *__restrict__ C, int n)
{
  int row = blockIdx.y;
  int col = blockIdx.x * BLOCK + threadIdx.x;
  float sum = 0.0f;
  for (int k = 0; k < n; ++k) {
    float a = A[(size_t)row * n + k]; // expect: S_5
    sum += a * B[(size_t)k * n + col];
  }
  C[(size_t)row * n + col] = sum;
}

void launch_matmul_row(const float *A, const float *B, float *C, int n)
{
  dim3 grid(n / BLOCK, n);
  matmul_row<<<grid, BLOCK>>>(A, B, C, n);
}
