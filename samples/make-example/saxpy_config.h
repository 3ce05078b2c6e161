/* saxpy_config.h — shared by the kernel (saxpy.k) and the host program (main.c). */
#define SAXPY_BLOCK 256
