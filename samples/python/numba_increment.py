"""The numba tutorial's increment_by_one, with only the import changed, on a numpy array
(copied to the device and back, as numba does) and on a device array."""
import numpy as np

from kcc import cuda  # numba: from numba import cuda


@cuda.jit
def increment_by_one(an_array):
    pos = cuda.grid(1)
    if pos < an_array.size:
        an_array[pos] += 1


an_array = np.arange(1000, dtype=np.float32)
threadsperblock = 32
blockspergrid = (an_array.size + (threadsperblock - 1)) // threadsperblock
increment_by_one[blockspergrid, threadsperblock](an_array)
d = cuda.to_device(an_array)
increment_by_one[blockspergrid, threadsperblock](d)
result = d.copy_to_host()
ok = np.array_equal(result, np.arange(1000, dtype=np.float32) + 2)
print("increment_by_one twice: %s" % ("every element + 2" if ok else "WRONG"))
