// kcc-args: -cl-std=CL2.0
/* images.cl — every channel order and data type through the Vulkan form's images, run by
 * tests/vulkan/images.c against a host reference of OpenCL 1.2's conversions (§8.3) and
 * sampling (§8.2): texels of 1, 2, 4, 8 and 16 bytes are the Vulkan form's own loads and
 * stores (tests/runtime/cl_images.cl covers every image type and sampler on four formats).
 * -cl-std=CL2.0 for the read_write image. */

__constant sampler_t border = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;

/* Each work-item's texel without a sampler, and the texel w/2 to its right through a clamping
 * sampler (the border colour beyond the image). */
__kernel void rdf(read_only image2d_t img, __global float4 *o) {
  int x = (int)get_global_id(0), y = (int)get_global_id(1), w = get_image_width(img);
  int n = y * w + x;
  o[2 * n] = read_imagef(img, (int2)(x, y));
  o[2 * n + 1] = read_imagef(img, border, (int2)(x + w / 2, y));
}

__kernel void rdi(read_only image2d_t img, __global int4 *o) {
  int x = (int)get_global_id(0), y = (int)get_global_id(1), w = get_image_width(img);
  int n = y * w + x;
  o[2 * n] = read_imagei(img, (int2)(x, y));
  o[2 * n + 1] = read_imagei(img, border, (int2)(x + w / 2, y));
}

__kernel void rdu(read_only image2d_t img, __global uint4 *o) {
  int x = (int)get_global_id(0), y = (int)get_global_id(1), w = get_image_width(img);
  int n = y * w + x;
  o[2 * n] = read_imageui(img, (int2)(x, y));
  o[2 * n + 1] = read_imageui(img, border, (int2)(x + w / 2, y));
}

/* A sampler argument at float coordinates: every filter and addressing mode on every format
 * that read_imagef takes. */
__kernel void smp(read_only image2d_t img, sampler_t s, __global const float2 *c,
                  __global float4 *o) {
  size_t i = get_global_id(0);
  o[i] = read_imagef(img, s, c[i]);
}

__kernel void wrf(write_only image2d_t img, __global const float4 *v) {
  int x = (int)get_global_id(0), y = (int)get_global_id(1);
  write_imagef(img, (int2)(x, y), v[y * (int)get_global_size(0) + x]);
}

__kernel void wri(write_only image2d_t img, __global const int4 *v) {
  int x = (int)get_global_id(0), y = (int)get_global_id(1);
  write_imagei(img, (int2)(x, y), v[y * (int)get_global_size(0) + x]);
}

__kernel void wru(write_only image2d_t img, __global const uint4 *v) {
  int x = (int)get_global_id(0), y = (int)get_global_id(1);
  write_imageui(img, (int2)(x, y), v[y * (int)get_global_size(0) + x]);
}

/* Writes outside the image, on every side: dropped. */
__kernel void oob(write_only image2d_t img) {
  int x = (int)get_global_id(0), y = (int)get_global_id(1);
  int w = (int)get_global_size(0), h = (int)get_global_size(1);
  uint4 v = (uint4)(0xa5u, 0x5au, 0xffu, 0x11u);
  write_imageui(img, (int2)(x + w, y), v);
  write_imageui(img, (int2)(x - w, y), v);
  write_imageui(img, (int2)(x, y + h), v);
  write_imageui(img, (int2)(x, y - h), v);
}

/* read_write (OpenCL C 2.0): each work-item reads its texel and writes it back changed. */
__kernel void rw(read_write image2d_t img) {
  int2 p = (int2)((int)get_global_id(0), (int)get_global_id(1));
  write_imagef(img, p, read_imagef(img, p) * 0.5f + (float4)(0.25f, 0.125f, 0.0f, 0.5f));
}

/* Every image type's texel layout with 2-byte texels (rows, slices, layers): each work-item
 * copies texel i of the source to the destination of the same type, and reports the sizes. */
__kernel void copy3d(read_only image3d_t a, write_only image3d_t b, __global int *q) {
  int x = (int)get_global_id(0), y = (int)get_global_id(1), z = (int)get_global_id(2);
  write_imageui(b, (int4)(x, y, z, 0), read_imageui(a, (int4)(x, y, z, 0)));
  if (x + y + z == 0) {
    int4 d = get_image_dim(a);
    q[0] = d.x, q[1] = d.y, q[2] = d.z, q[3] = d.w;
    q[4] = get_image_depth(b);
  }
}

__kernel void copy2da(read_only image2d_array_t a, write_only image2d_array_t b, __global int *q) {
  int x = (int)get_global_id(0), y = (int)get_global_id(1), z = (int)get_global_id(2);
  write_imageui(b, (int4)(x, y, z, 0), read_imageui(a, (int4)(x, y, z, 0)));
  if (x + y + z == 0) q[0] = (int)get_image_array_size(b), q[1] = get_image_height(a);
}

__kernel void copy1da(read_only image1d_array_t a, write_only image1d_array_t b, __global int *q) {
  int x = (int)get_global_id(0), y = (int)get_global_id(1);
  write_imageui(b, (int2)(x, y), read_imageui(a, (int2)(x, y)));
  if (x + y == 0) q[0] = (int)get_image_array_size(a), q[1] = get_image_width(b);
}

__kernel void copy1d(read_only image1d_t a, write_only image1d_t b, read_only image1d_buffer_t c,
                     write_only image1d_buffer_t d, __global int *q) {
  int x = (int)get_global_id(0);
  write_imageui(b, x, read_imageui(a, x));
  write_imageui(d, x, read_imageui(c, x));
  if (x == 0) q[0] = get_image_width(a), q[1] = get_image_width(d);
}
