"""The tutorials' first kernel: every thread prints where it is. Launched [2, 4]: two blocks of
four threads, eight lines (in no particular order between threads, as on every GPU)."""
import kcc

mod = kcc.compile("""
kernel void hello(void) {
    printf("threadIdx.x=%u blockIdx.x=%u blockDim.x=%u gridDim.x=%u\\n",
           threadIdx.x, blockIdx.x, blockDim.x, gridDim.x);
}
""")
mod.hello[2, 4]()
kcc.synchronize()  # device printf output appears when the kernel has finished
