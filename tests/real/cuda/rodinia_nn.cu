/*
 * nn.cu
 * Nearest Neighbor
 *
 */

#include <stdio.h>
#include <sys/time.h>
#include <float.h>
#include <vector>
#include "cuda.h"

#define min(a, b) a > b ? b : a
#define ceilDiv(a, b) (a + b - 1) / b
#define print(x) printf(#x ": %lu\n", (unsigned long)x)
#define DEBUG false

#define DEFAULT_THREADS_PER_BLOCK 256

#define MAX_ARGS 10
#define REC_LENGTH 53 // size of a record in db
#define LATITUDE_POS                                                           \
    28             // character position of the latitude value in each record
#define OPEN 10000 // initial value of nearest neighbors


typedef struct latLong {
    float lat;
    float lng;
} LatLong;

typedef struct record {
    char recString[REC_LENGTH];
    float distance;
} Record;

/**
* Kernel
* Executed on GPU
* Calculates the Euclidean distance from each record in the database to the
* target position
*/
__global__ void euclid(LatLong *d_locations, float *d_distances, int numRecords,
                       float lat, float lng) {
    // int globalId = gridDim.x * blockDim.x * blockIdx.y + blockDim.x *
    // blockIdx.x + threadIdx.x;
    int globalId = blockDim.x * (gridDim.x * blockIdx.y + blockIdx.x) +
                   threadIdx.x; // more efficient
    LatLong *latLong = d_locations + globalId;
    if (globalId < numRecords) {
        float *dist = d_distances + globalId;
        *dist = (float)sqrt((lat - latLong->lat) * (lat - latLong->lat) +
                            (lng - latLong->lng) * (lng - latLong->lng));
    }
}
