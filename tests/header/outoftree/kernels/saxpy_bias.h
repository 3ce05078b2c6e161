// saxpy_bias.h — included by saxpy.k; outoftree.sh rewrites it to check that the build notices.
#define SAXPY_BIAS 0.0f
