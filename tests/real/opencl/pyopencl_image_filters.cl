
__kernel void gray_scale(read_only const image2d_t src,
                                  write_only image2d_t dest,
                                   const sampler_t sampler){
  int2 pos = (int2)(get_global_id(0),get_global_id(1));
  uint4 pixel = read_imageui(src,sampler,pos);
  uint g=pixel.x*299/1000+pixel.y*578/1000+pixel.z*114/1000;
  write_imageui(dest,pos,(uint4)(g,g,g,255));
}
__kernel void brightness_adj(read_only const image2d_t src,
                                       write_only image2d_t dest,
                                       const sampler_t sampler,
                                       const float scalar,
                                       const float4 mean_intensity){
  int2 pos = (int2)(get_global_id(0),get_global_id(1));
  uint4 pixel = read_imageui(src,sampler,pos);
  uint4 new_pixel = convert_uint4((float4)scalar*(convert_float4(pixel)\
                                        -mean_intensity)+mean_intensity);
  uint4 overflow = convert_uint4(new_pixel>(uint4)255);
  write_imageui(dest,pos,select(new_pixel,(uint4)255,overflow));
}
__kernel void reduce_sum(__global int *in,
            __global int *reduce,
            __local int *buffer)
{
  uint gid = get_global_id(0);
  uint wid = get_group_id(0);
  uint lid = get_local_id(0);
  uint gs = get_local_size(0);
  buffer[lid] = in[gid];

  for(uint s = gs/2; s > 0; s >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if(lid < s) {
      buffer[lid] += buffer[lid+s];
    }
  }
  if(lid == 0) reduce[wid] = buffer[lid];
}
__kernel void gaussian_blur(read_only const image2d_t src,
                                       write_only image2d_t dest,
                                       const sampler_t sampler,
                                       read_only const image2d_t gauss_kernel,
                                       const short dim){
  int2 pos = (int2)(get_global_id(0),get_global_id(1));
  uint4 pixel=(uint4)0;
  float4 src_pixel,gauss_pixel;
  for(int i = -dim/2;i<dim/2;i++){
    for(int j = -dim/2;j<dim/2;j++){
      src_pixel=convert_float4(read_imageui(src,sampler,(int2)(i,j)+pos));
      gauss_pixel=convert_float4(read_imageui(gauss_kernel,sampler,(int2)(i+dim/2,j+dim/2)))/(float4)255;
      pixel=pixel+convert_uint4(src_pixel*gauss_pixel);
    }
  }
  uint4 overflow = convert_uint4(pixel>(uint4)255);
  write_imageui(dest,pos,select(pixel,(uint4)255,overflow));
}
