// scan.cu — nvcc side of bench/kernels/scan.k: inclusive prefix sum of ints within each block of 256 (Hillis-Steele, two shared
// buffers), the building block of a full scan.
// launch: grid=(ceil(n/256)), block=(256) (blockDim.x must be 256); args (in, out, n) with
//   int in[n], out[n].
// computes out[i] = in[b*256] + ... + in[i] for i < n, b = i / 256 (wrapping int arithmetic).
#define B 256

extern "C" __global__ void scan(const int *in, int *out, int n) {
    __shared__ int buf[2][B];
    int t = threadIdx.x;
    int i = blockIdx.x * B + t;
    int cur = 0;
    buf[0][t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int off = 1; off < B; off <<= 1) {
        int v = buf[cur][t];
        if (t >= off)
            v += buf[cur][t - off];
        buf[1 - cur][t] = v;
        cur = 1 - cur;
        __syncthreads();
    }
    if (i < n)
        out[i] = buf[cur][t];
}
