// Image queries alone (no read, no write, no vector variable): the CUDA C form must still
// declare what get_image_dim needs (kcc_vec), which only reads and vector variables had pulled
// in (piglit's image-attributes.cl).
__kernel void dims(read_only image2d_t a, read_only image3d_t b, write_only image2d_array_t c,
                   __global int *out) {
  out[0] = get_image_dim(a).x * get_image_dim(a).y + get_image_dim(b).z + get_image_dim(b).w;
  out[1] = get_image_width(c) + get_image_height(c) + (int)get_image_array_size(c);
  out[2] = get_image_channel_order(a) ^ get_image_channel_data_type(b);
}
