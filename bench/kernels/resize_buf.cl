// resize_buf.cl — bilinear resize of a one-channel float image in a plain buffer: the
// interpolation of bench/kernels/resize_img.cl's sampler written out.
// launch: grid=(ceil(ow/16), ceil(oh/16)), block=(16, 16); args (src, dst, w, h, ow, oh, sx, sy)
//   with float src[w * h] (rows of w), float dst[ow * oh], sx = w / ow, sy = h / oh.
// computes, for x < ow, y < oh, with u = (x + 0.5) * sx - 0.5, v = (y + 0.5) * sy - 0.5,
//   i = floor(u), j = floor(v), a = u - i, b = v - j and S(i, j) = src[clamp(j, 0, h - 1) * w +
//   clamp(i, 0, w - 1)]: dst[y * ow + x] = (1 - a)(1 - b) S(i, j) + a (1 - b) S(i + 1, j)
//   + (1 - a) b S(i, j + 1) + a b S(i + 1, j + 1).
__kernel void resize_buf(__global const float *src, __global float *dst, int w, int h, int ow,
                         int oh, float sx, float sy) {
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= ow || y >= oh)
        return;
    float u = ((float)x + 0.5f) * sx - 0.5f, v = ((float)y + 0.5f) * sy - 0.5f;
    float fu = floor(u), fv = floor(v);
    float a = u - fu, b = v - fv;
    int i0 = clamp((int)fu, 0, w - 1), i1 = clamp((int)fu + 1, 0, w - 1);
    int j0 = clamp((int)fv, 0, h - 1), j1 = clamp((int)fv + 1, 0, h - 1);
    __global const float *r0 = src + j0 * w, *r1 = src + j1 * w;
    dst[y * ow + x] = (1.0f - a) * (1.0f - b) * r0[i0] + a * (1.0f - b) * r0[i1] +
                      (1.0f - a) * b * r1[i0] + a * b * r1[i1];
}
