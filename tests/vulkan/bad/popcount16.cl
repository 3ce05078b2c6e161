// popcount on 16-bit integers is refused by the Vulkan form (what keeps tests/runtime/cl_intrel
// off it); every math function of float and double is kcc's own there (spirv_vkmath.c).
kernel void k(global short *o) { o[0] = popcount(o[1]); }
