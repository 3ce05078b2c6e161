// transpose_tiled.cu — square matrix transpose in the CUDA style where the grid gives the size:
// 32x32 tiles through shared memory padded by one column (no bank conflicts on the column
// reads), blocks of 32x8 threads each moving 4 rows, width = gridDim.x * 32 (no bounds
// checks: the matrix is a whole number of tiles). kcc compiles this file as it is; the nvcc
// side is the same file. (tests/kernels/transpose.k is the bounds-checked rectangular one.)
#define TILE 32
#define ROWS 8

extern "C" __global__ void transpose_tiled(float *out, const float *in) {
    __shared__ float tile[TILE][TILE + 1];
    int width = gridDim.x * TILE;
    int col = blockIdx.x * TILE + threadIdx.x;
    int row = blockIdx.y * TILE + threadIdx.y;
    for (int k = 0; k < TILE; k += ROWS)
        tile[threadIdx.y + k][threadIdx.x] = in[(row + k) * width + col];
    __syncthreads();
    // The block's tile lands at the mirrored block position, read down the tile's columns.
    col = blockIdx.y * TILE + threadIdx.x;
    row = blockIdx.x * TILE + threadIdx.y;
    for (int k = 0; k < TILE; k += ROWS)
        out[(row + k) * width + col] = tile[threadIdx.x][threadIdx.y + k];
}
