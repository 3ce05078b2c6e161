// nbody.cu — nvcc side of bench/kernels/nbody.k: all-pairs gravitational acceleration, bodies tiled through shared memory.
// launch: grid=(n/256), block=(256) (n a multiple of 256); args (pos, acc, n) with
//   float pos[4n] (x, y, z, mass per body), float acc[4n].
// computes, for each body i: a = sum over j of m_j * d / (|d|^2 + EPS2)^(3/2), d = p_j - p_i
//   (j = i included: d = 0 adds nothing), acc[4i..4i+2] = a, acc[4i+3] = 0.
#define TILE 256
#define EPS2 0.01f

extern "C" __global__ void nbody(const float *pos, float *acc, int n) {
    __shared__ float sx[TILE], sy[TILE], sz[TILE], sm[TILE];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float px = pos[4 * i], py = pos[4 * i + 1], pz = pos[4 * i + 2];
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (int base = 0; base < n; base += TILE) {
        int j = base + threadIdx.x;
        sx[threadIdx.x] = pos[4 * j];
        sy[threadIdx.x] = pos[4 * j + 1];
        sz[threadIdx.x] = pos[4 * j + 2];
        sm[threadIdx.x] = pos[4 * j + 3];
        __syncthreads();
        for (int k = 0; k < TILE; k++) {
            float dx = sx[k] - px, dy = sy[k] - py, dz = sz[k] - pz;
            float r2 = dx * dx + dy * dy + dz * dz + EPS2;
            float inv = rsqrtf(r2);
            float s = sm[k] * inv * inv * inv;
            ax += dx * s;
            ay += dy * s;
            az += dz * s;
        }
        __syncthreads();
    }
    acc[4 * i] = ax;
    acc[4 * i + 1] = ay;
    acc[4 * i + 2] = az;
    acc[4 * i + 3] = 0.0f;
}
