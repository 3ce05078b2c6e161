# A kernel printing its thread and block indices (run by test_jit.py in a fresh process).
from kcc import cuda


@cuda.jit
def hello(x):
    print("thread", cuda.threadIdx.x, "block", cuda.blockIdx.x, "of", cuda.gridDim.x * 2, x)


hello[2, 4](2.5)
cuda.synchronize()


@cuda.jit
def special(x):
    print("é\"%d\\ 100%", x > 0, -x, x * 0.5)
    print(x, x + 1, sep="%,", end=";\n")


special[1, 1](3)
cuda.synchronize()
