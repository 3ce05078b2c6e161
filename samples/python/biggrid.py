"""A launch of 2^50 blocks: refused before the driver sees it, with the limit named."""
import numpy as np

import kcc

mod = kcc.compile("kernel void fill(int *out, int v) { out[blockIdx.x] = v; }\n")
out = np.zeros(1, np.int32)
try:
    mod.fill[2**50, 1](out, 1)
except kcc.InvalidLaunchError as e:
    print("refused: %s" % e)
else:
    raise SystemExit("a launch of 2^50 blocks was accepted")
