"""Monte Carlo estimate of pi with per-thread random generators, written as numba-cuda
programs write it; only the imports differ (numba.cuda.random -> kcc.cuda.random). Each of
4096 threads throws 1000 darts at the unit square and counts those inside the quarter
circle."""
import math

import numpy as np

from kcc import cuda  # numba: from numba import cuda
from kcc.cuda.random import (create_xoroshiro128p_states,  # numba: from numba.cuda.random
                             xoroshiro128p_uniform_float32)


@cuda.jit
def throw_darts(rng_states, darts, estimates):
    tid = cuda.grid(1)
    if tid >= estimates.size:
        return
    inside = 0
    for _ in range(darts):
        x = xoroshiro128p_uniform_float32(rng_states, tid)
        y = xoroshiro128p_uniform_float32(rng_states, tid)
        if x * x + y * y <= 1.0:
            inside += 1
    estimates[tid] = 4.0 * inside / darts


threads, blocks = 64, 64
states = create_xoroshiro128p_states(threads * blocks, seed=2025)
estimates = np.zeros(threads * blocks, dtype=np.float32)
throw_darts[blocks, threads](states, 1000, estimates)
pi = estimates.mean()
print("pi ~ %.4f (%d darts), error %.4f: %s" % (
    pi, threads * blocks * 1000, abs(pi - math.pi),
    "within 0.01" if abs(pi - math.pi) < 0.01 else "TOO FAR"))
