// resize_buf.cu — nvcc side of bench/kernels/resize_buf.cl: bilinear resize from a plain buffer.
// launch: grid=(ceil(ow/16), ceil(oh/16)), block=(16, 16); args (src, dst, w, h, ow, oh, sx, sy)
//   with float src[w * h] (rows of w), float dst[ow * oh], sx = w / ow, sy = h / oh.
// computes, for x < ow, y < oh, with u = (x + 0.5) * sx - 0.5, v = (y + 0.5) * sy - 0.5,
//   i = floor(u), j = floor(v), a = u - i, b = v - j and S(i, j) = src[clamp(j, 0, h - 1) * w +
//   clamp(i, 0, w - 1)]: dst[y * ow + x] = (1 - a)(1 - b) S(i, j) + a (1 - b) S(i + 1, j)
//   + (1 - a) b S(i, j + 1) + a b S(i + 1, j + 1).
__device__ static int clampi(int v, int lo, int hi) {
    return v < lo ? lo : (v > hi ? hi : v);
}

extern "C" __global__ void resize_buf(const float *src, float *dst, int w, int h, int ow, int oh,
                                      float sx, float sy) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= ow || y >= oh)
        return;
    float u = ((float)x + 0.5f) * sx - 0.5f, v = ((float)y + 0.5f) * sy - 0.5f;
    float fu = floorf(u), fv = floorf(v);
    float a = u - fu, b = v - fv;
    int i0 = clampi((int)fu, 0, w - 1), i1 = clampi((int)fu + 1, 0, w - 1);
    int j0 = clampi((int)fv, 0, h - 1), j1 = clampi((int)fv + 1, 0, h - 1);
    const float *r0 = src + j0 * w, *r1 = src + j1 * w;
    dst[y * ow + x] = (1.0f - a) * (1.0f - b) * r0[i0] + a * (1.0f - b) * r0[i1] +
                      (1.0f - a) * b * r1[i0] + a * b * r1[i1];
}
