"""atomicAdd of float and double and atomicExch of float on shared memory (a static __shared__
array and a __shared__ scalar; OpenCL C's atomic_xchg on a __local float), on every device this
machine has, on fresh random inputs: the sums against numpy's, and the old values each call
returned checked to be a serialisation of the calls (the sorted old values of one location
step by exactly the values added to it; the exchanged values, with the final one, are the
initial value and every value stored). The Vulkan form makes them compare-exchange loops on
the bits, with the array in the workgroup's block of the scratch buffer (spirv_vulkan.c's
escape analysis): Workgroup variables cannot be reinterpreted."""
import numpy as np
import pytest

from conftest import compile_on_every_device, on_device

SRC = r"""
#define SLOTS 4
__global__ void fadd(const float *x, const double *y, float *sum, double *dsum, float *old,
                     double *dold) {
  __shared__ float s[SLOTS];
  __shared__ double d[SLOTS];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  if (t < SLOTS) { s[t] = 0.0f; d[t] = 0.0; }
  __syncthreads();
  old[i] = atomicAdd(&s[t % SLOTS], x[i]);
  dold[i] = atomicAdd(&d[t % SLOTS], y[i]);
  __syncthreads();
  if (t < SLOTS) { sum[blockIdx.x * SLOTS + t] = s[t]; dsum[blockIdx.x * SLOTS + t] = d[t]; }
}

__global__ void fexch(const float *x, float *old, float *last) {
  __shared__ float v;
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  if (t == 0) v = -1.0f;
  __syncthreads();
  old[i] = atomicExch(&v, x[i]);
  __syncthreads();
  if (t == 0) last[blockIdx.x] = v;
}
"""

BLOCKS, THREADS, SLOTS = 4, 128, 4


def test_shared_float_atomic_add(rng):
    n = BLOCKS * THREADS
    # Positive integers (halves for double): every order of the sums is exact.
    x = rng.integers(1, 1000, size=n).astype(np.float32)
    y = rng.integers(1, 1 << 20, size=n).astype(np.float64) * 0.5
    for dev, m in compile_on_every_device(SRC, "shared_float_atomics.cu"):
        with on_device(dev):
            s, d = np.zeros(BLOCKS * SLOTS, np.float32), np.zeros(BLOCKS * SLOTS, np.float64)
            old, dold = np.zeros(n, np.float32), np.zeros(n, np.float64)
            m.fadd[BLOCKS, THREADS](x, y, s, d, old, dold)
            for b in range(BLOCKS):
                for k in range(SLOTS):
                    sel = slice(b * THREADS + k, (b + 1) * THREADS, SLOTS)
                    for name, v, o, tot in (("float", x, old, s), ("double", y, dold, d)):
                        assert tot[b * SLOTS + k] == v[sel].sum(), (
                            "%s atomicAdd sum of block %d slot %d on %s: %r, not %r" % (
                                name, b, k, dev.name, tot[b * SLOTS + k], v[sel].sum()))
                        steps = np.diff(np.append(np.sort(o[sel]), tot[b * SLOTS + k]))
                        assert np.array_equal(np.sort(steps), np.sort(v[sel])), (
                            "%s atomicAdd old values of block %d slot %d on %s" % (
                                name, b, k, dev.name))


def _check_exchange(kernel, x, what, dev):
    """Each block exchanges its threads' x with one float that starts at -1: the old values
    and the last one are the block's x and -1, each once, in some order."""
    old, last = np.zeros(len(x), np.float32), np.zeros(BLOCKS, np.float32)
    kernel[BLOCKS, THREADS](x, old, last)
    for b in range(BLOCKS):
        sel = slice(b * THREADS, (b + 1) * THREADS)
        got = np.sort(np.append(old[sel], last[b]))
        want = np.sort(np.append(x[sel], np.float32(-1.0)))
        assert np.array_equal(got, want), "%s, block %d on %s" % (what, b, dev.name)


CL_SRC = r"""
__kernel void lxchg(__global const float *x, __global float *old, __global float *last) {
  __local float v;
  if (get_local_id(0) == 0) v = -1.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  old[get_global_id(0)] = atomic_xchg(&v, x[get_global_id(0)]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) last[get_group_id(0)] = v;
}
"""


@pytest.mark.parametrize("src,name,kernel,what", [
    (SRC, "shared_float_atomics.cu", "fexch", "atomicExch on a shared float"),
    (CL_SRC, "local_float_xchg.cl", "lxchg", "OpenCL C's atomic_xchg on a __local float")],
    ids=["cuda", "opencl"])
def test_shared_float_exchange(rng, src, name, kernel, what):
    x = rng.standard_normal(BLOCKS * THREADS).astype(np.float32)
    for dev, m in compile_on_every_device(src, name):
        with on_device(dev):
            _check_exchange(getattr(m, kernel), x, what, dev)
