// Image and sampler parameters that no image function reads: every form still declares them
// (the CUDA C form's descriptor type included), as piglit's other-data-types.cl has them.
__kernel void k(__global int *out, read_only image2d_t a, write_only image3d_t b, sampler_t s) {
  out[get_global_id(0)] = 7;
}
