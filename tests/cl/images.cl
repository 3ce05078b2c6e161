// Every image type, access, read/write form and query kcc takes (docs/dialect.md, "Images").
__constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |
                               CLK_FILTER_NEAREST;
__constant sampler_t bilinear = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;

// A helper taking an image and a sampler: both pass through as they are.
float4 fetch(read_only image2d_t img, sampler_t s, float2 at) {
  return read_imagef(img, s, at);
}

__kernel void blur(read_only image2d_t src, write_only image2d_t dst, sampler_t arg) {
  const sampler_t local_smp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_MIRRORED_REPEAT |
                              CLK_FILTER_NEAREST;
  int2 p = (int2)((int)get_global_id(0), (int)get_global_id(1));
  float2 f = convert_float2(p) + 0.5f;
  float4 sum = read_imagef(src, nearest, p) + read_imagef(src, bilinear, f / 8.0f) +
               read_imagef(src, arg, f) + read_imagef(src, local_smp, f) + read_imagef(src, p) +
               fetch(src, nearest, f) +
               read_imagef(src, CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE | CLK_FILTER_NEAREST, p);
  if (p.x < get_image_width(dst) && p.y < get_image_height(dst)) write_imagef(dst, p, sum / 7.0f);
}

__kernel void ints(read_only image2d_array_t a, read_only image3d_t v, write_only image3d_t w,
                   read_only image1d_array_t la, write_only image2d_array_t wa,
                   __global int *out) {
  int4 c = (int4)(1, 2, 3, 0);
  int4 i = read_imagei(a, nearest, c) + read_imagei(a, c) + read_imagei(v, nearest, (float4)(0.5f));
  uint4 u = read_imageui(v, c) + read_imageui(la, (int2)(4, 1)) + read_imageui(la, nearest, (float2)(1.0f));
  write_imagei(w, c, i);
  write_imageui(wa, c, u);
  int4 d3 = get_image_dim(v);
  int2 d2 = get_image_dim(a);
  out[0] = get_image_depth(v) + d3.z + d2.y + (int)get_image_array_size(a) +
           (int)get_image_array_size(la) + get_image_channel_order(a) +
           get_image_channel_data_type(v);
}

__kernel void one_d(read_only image1d_t a, read_only image1d_buffer_t b, write_only image1d_t w,
                    write_only image1d_buffer_t wb) {
  int x = (int)get_global_id(0);
  float4 v = read_imagef(a, nearest, x) + read_imagef(a, bilinear, 0.25f) + read_imagef(a, x) +
             read_imagef(b, x);
  write_imagef(w, x, v);
  write_imageui(wb, x, (uint4)(get_image_width(b)));
}
