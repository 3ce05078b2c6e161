__kernel void k(__global uint *o) { o[0] = get_work_dim(); }
