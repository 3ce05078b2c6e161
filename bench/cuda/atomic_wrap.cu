// atomic_wrap.cu — nvcc side of bench/kernels/atomic_wrap.k.
extern "C" __global__ void atomic_wrap(unsigned int *words, unsigned int m, int reps) {
    for (int r = 0; r < reps; r++) {
        atomicInc(&words[0], m);
        atomicDec(&words[1], m);
    }
}
