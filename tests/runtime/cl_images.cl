/* cl_images.cl — OpenCL C images and samplers, run by tests/runtime/cl_images.c against a host
 * reference of the OpenCL sampling rules. Every read kernel takes its sampler as an argument,
 * so that the host tries every addressing, filter and coordinate mode on one kernel; consts2d
 * reads through constant samplers (file scope, kernel scope and written in the call), the
 * common case that the back ends see statically. */

__kernel void f1d(read_only image1d_t img, sampler_t s, __global const float *c,
                  __global float4 *o) {
  size_t i = get_global_id(0);
  o[i] = read_imagef(img, s, c[i]);
}

__kernel void f1da(read_only image1d_array_t img, sampler_t s, __global const float2 *c,
                   __global float4 *o) {
  size_t i = get_global_id(0);
  o[i] = read_imagef(img, s, c[i]);
}

__kernel void f2d(read_only image2d_t img, sampler_t s, __global const float2 *c,
                  __global float4 *o) {
  size_t i = get_global_id(0);
  o[i] = read_imagef(img, s, c[i]);
}

__kernel void f2da(read_only image2d_array_t img, sampler_t s, __global const float4 *c,
                   __global float4 *o) {
  size_t i = get_global_id(0);
  o[i] = read_imagef(img, s, c[i]);
}

__kernel void f3d(read_only image3d_t img, sampler_t s, __global const float4 *c,
                  __global float4 *o) {
  size_t i = get_global_id(0);
  o[i] = read_imagef(img, s, c[i]);
}

/* Integer formats: nearest filtering only (OpenCL leaves linear undefined for them). Float
 * coordinates and, through the same sampler, integer ones. */
__kernel void i2d(read_only image2d_t img, sampler_t s, __global const float2 *c,
                  __global int4 *o) {
  size_t i = get_global_id(0);
  o[2 * i] = read_imagei(img, s, c[i]);
  o[2 * i + 1] = read_imagei(img, s, convert_int2_rtn(c[i]));
}

__kernel void u2d(read_only image2d_t img, sampler_t s, __global const float2 *c,
                  __global uint4 *o) {
  size_t i = get_global_id(0);
  o[2 * i] = read_imageui(img, s, c[i]);
  o[2 * i + 1] = read_imageui(img, s, convert_int2_rtn(c[i]));
}

__constant sampler_t edge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |
                            CLK_FILTER_NEAREST;
__constant sampler_t wrap = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;

static float4 through(read_only image2d_t img, sampler_t s, float2 at) {
  return read_imagef(img, s, at);
}

/* The constant samplers: o[4i..4i+3] read c[i] (texel units; the normalized ones scaled by the
 * size the kernel queries) as edge, wrap, mirror (kernel scope) and a clamp written in the
 * call. */
__kernel void consts2d(read_only image2d_t img, __global const float2 *c, __global float4 *o) {
  const sampler_t mirror = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT |
                           CLK_FILTER_NEAREST;
  size_t i = get_global_id(0);
  float2 size = convert_float2(get_image_dim(img));
  o[4 * i] = read_imagef(img, edge, c[i]);
  o[4 * i + 1] = through(img, wrap, c[i] / size);
  o[4 * i + 2] = read_imagef(img, mirror, c[i] / size);
  o[4 * i + 3] =
      read_imagef(img, CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_LINEAR, c[i]);
}

/* Sampler-less reads (integer coordinates inside the image) and the queries (none of
 * image1d_buffer_t: PoCL 3.1's kernel library lacks them, an undefined symbol at load). */
__kernel void fetch(read_only image2d_t a, read_only image3d_t b, read_only image2d_array_t c,
                    read_only image1d_buffer_t d, read_only image1d_array_t e,
                    __global const int4 *p, __global float4 *o, __global int *q) {
  size_t i = get_global_id(0);
  int4 at = p[i];
  o[4 * i] = read_imagef(a, at.xy);
  o[4 * i + 1] = read_imagef(b, at);
  o[4 * i + 2] = read_imagef(c, at);
  o[4 * i + 3] = read_imagef(d, at.x) + read_imagef(e, at.xw);
  if (i == 0) {
    int4 db = get_image_dim(b);
    int2 dc = get_image_dim(c);
    q[0] = get_image_width(a);
    q[1] = get_image_height(a);
    q[2] = get_image_channel_order(a);
    q[3] = get_image_channel_data_type(a);
    q[4] = db.x;
    q[5] = db.y;
    q[6] = db.z;
    q[7] = db.w + (get_image_channel_order(a) == CLK_RGBA) +
           2 * (get_image_channel_data_type(b) == CLK_UNORM_INT8);
    q[8] = get_image_depth(b);
    q[9] = dc.x;
    q[10] = dc.y;
    q[11] = (int)get_image_array_size(c);
    q[12] = get_image_width(e);
    q[13] = (int)get_image_array_size(e);
    q[14] = get_image_channel_order(e);
    q[15] = get_image_channel_data_type(b);
  }
}

/* Writes: each work-item writes its pixel of every image from the values given. */
__kernel void writes(write_only image2d_t f, write_only image2d_t si, write_only image2d_t ui,
                     write_only image1d_t g, write_only image2d_array_t h,
                     write_only image1d_buffer_t k, __global const float4 *vf,
                     __global const int4 *vi) {
  int x = (int)get_global_id(0), y = (int)get_global_id(1), w = (int)get_global_size(0);
  int n = y * w + x;
  write_imagef(f, (int2)(x, y), vf[n]);
  write_imagei(si, (int2)(x, y), vi[n]);
  write_imageui(ui, (int2)(x, y), convert_uint4(vi[n]) & 255u);
  if (y == 0) {
    write_imagef(g, x, vf[x]);
    write_imagef(k, x, vf[x] * 2.0f);
  }
  write_imagef(h, (int4)(x, y, 1, 0), vf[n] + 1.0f);
}

/* Half images (cl_khr_fp16's read_imageh/write_imageh): each work-item reads its pixel of a
 * CL_HALF_FLOAT image as half4, stores it as floats and writes it doubled. */
__kernel void halfs(read_only image2d_t a, write_only image2d_t b, __global float4 *o) {
  int2 p = (int2)((int)get_global_id(0), (int)get_global_id(1));
  half4 v = read_imageh(a, p);
  o[p.y * get_image_width(a) + p.x] = convert_float4(v);
  write_imageh(b, p, v * (half)2);
}

/* __IMAGE_SUPPORT__ is predefined in every form (PTX and CUDA C too): this kernel takes its
 * image path and copies the image's texels; without the macro it would write -1s. */
__kernel void support(read_only image2d_t img, __global float4 *o) {
  int i = (int)get_global_id(0);
#ifdef __IMAGE_SUPPORT__
  int w = get_image_width(img);
  o[i] = read_imagef(img, (int2)(i % w, i / w));
#else
  o[i] = (float4)(-1.0f);
#endif
}
