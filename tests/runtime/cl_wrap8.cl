// cl_wrap8.cl — 8- and 16-bit unsigned arithmetic wraps in its own type before anything reads
// it (OpenCL C: vector operands are not promoted; a scalar result is truncated when stored in
// its variable), and the saturating forms built on that (add_sat, sub_sat), for uchar and
// ushort as scalars and as vectors of 4 and 16. Each work-item writes 8 results per element.
kernel void wrap8(global const uchar16 *a, global const uchar16 *b, global uchar16 *o) {
  int i = get_global_id(0);
  uchar16 x = a[i], y = b[i];
  uchar16 s = x + y, d = x - y;
  o[8 * i + 0] = s;
  o[8 * i + 1] = as_uchar16(s < x);
  o[8 * i + 2] = as_uchar16(d > x);
  o[8 * i + 3] = add_sat(x, y);
  o[8 * i + 4] = sub_sat(x, y);
  uchar4 x4 = x.s0123, y4 = y.s4567, s4 = x4 + y4;
  o[8 * i + 5] = (uchar16)(s4, as_uchar4(s4 < x4), add_sat(x4, y4), sub_sat(x4, y4));
  uchar16 r;
  for (int k = 0; k < 16; k++) {
    uchar xs = ((uchar *)&x)[k], ys = ((uchar *)&y)[k];
    uchar ss = xs + ys;
    ((uchar *)&r)[k] = ss < xs ? (uchar)1 : (uchar)(add_sat(xs, ys) == 255 ? 2 : 3);
  }
  o[8 * i + 6] = r;
  o[8 * i + 7] = (uchar16)(0);
}

kernel void wrap16(global const ushort4 *a, global const ushort4 *b, global ushort4 *o) {
  int i = get_global_id(0);
  ushort4 x = a[i], y = b[i], s = x + y;
  o[4 * i + 0] = s;
  o[4 * i + 1] = as_ushort4(s < x);
  o[4 * i + 2] = add_sat(x, y);
  o[4 * i + 3] = sub_sat(x, y);
}
