#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <algorithm>
#include <helper_timer.h>
#include "helper_cuda.h"
#include <assert.h>

#define BLOCK_DIM   16
#define MAX_FILTER_LENGTH 128

__global__ void
convolution_kernel_v1(float *d_output, float *d_input, float *d_filter, int num_row, int num_col, int filter_size)
{
    int idx_x = blockDim.x * blockIdx.x + threadIdx.x;
    int idx_y = blockDim.y * blockIdx.y + threadIdx.y;

    float result = 0.f;
    //For every value in the filter around the pixel (c, r)
    for (int filter_row = -filter_size / 2; filter_row <= filter_size / 2; ++filter_row)
    {
        for (int filter_col = -filter_size / 2; filter_col <= filter_size / 2; ++filter_col)
        {
            //Find the global image position for this filter position
            //clamp to boundary of the image
            int image_row = min(max(idx_y + filter_row, 0), static_cast<int>(num_row - 1));
            int image_col = min(max(idx_x + filter_col, 0), static_cast<int>(num_col - 1));

            float image_value = static_cast<float>(d_input[image_row * num_col + image_col]);
            float filter_value = d_filter[(filter_row + filter_size / 2) * filter_size + filter_col + filter_size / 2];

            result += image_value * filter_value;
        }
    }

    d_output[idx_y * num_col + idx_x] = result;
}

__global__ void
convolution_kernel_v2(float *d_output, float *d_input, float *d_filter, int num_row, int num_col, int filter_size)
{
    int idx_x = blockDim.x * blockIdx.x + threadIdx.x;
    int idx_y = blockDim.y * blockIdx.y + threadIdx.y;

    __shared__ float s_filter[BLOCK_DIM][BLOCK_DIM];
    __shared__ float s_input[BLOCK_DIM*3][BLOCK_DIM*3];

    // this kernel assumes filter_size is smaller than BLOCK_DIM
    assert(filter_size < BLOCK_DIM);

    // copy filter data to shared memory
    if (threadIdx.y * filter_size + threadIdx.x < filter_size * filter_size)
        s_filter[threadIdx.y][threadIdx.x] = d_filter[threadIdx.y * filter_size + threadIdx.x];

    for (int row = -1; row <= 1; row++) {
        for (int col = -1; col <= 1; col++) {
            //Find the global image position for this filter position
            //clamp to boundary of the image
            int image_row = min(max(idx_y + row * blockDim.y, 0), static_cast<int>(num_row - 1));
            int image_col = min(max(idx_x + col * blockDim.x, 0), static_cast<int>(num_col - 1));

            s_input[threadIdx.y + (row + 1) * BLOCK_DIM][threadIdx.x + (col + 1) * BLOCK_DIM] = \
                static_cast<float>(d_input[image_row * num_col + image_col]);
        }
    }

    __syncthreads();

    float result = 0.f;
    //For every value in the filter around the pixel (c, r)
    for (int filter_row = -filter_size / 2; filter_row <= filter_size / 2; ++filter_row)
    {
        for (int filter_col = -filter_size / 2; filter_col <= filter_size / 2; ++filter_col)
        {
            int image_row = threadIdx.y + BLOCK_DIM + filter_row;
            int image_col = threadIdx.x + BLOCK_DIM + filter_col;

            float image_value = static_cast<float>(s_input[image_row][image_col]);
            float filter_value = s_filter[filter_row + filter_size / 2][filter_col + filter_size / 2];

            result += image_value * filter_value;
        }
    }

    d_output[idx_y * num_col + idx_x] = result;
}
