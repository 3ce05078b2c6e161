"""kcc.cuda.random: numba.cuda.random's xoroshiro128+ generators, as kcc.jit device functions.

    from kcc.cuda.random import create_xoroshiro128p_states, xoroshiro128p_uniform_float32

    states = create_xoroshiro128p_states(n_threads, seed=1)   # a device array, one per thread

    @cuda.jit
    def k(states, out):
        i = cuda.grid(1)
        out[i] = xoroshiro128p_uniform_float32(states, i)

The generator is xoroshiro128+ (Blackman and Vigna; rotations 24, 16, 37), as numba's. The
states differ from numba's: numba seeds the first state with splitmix64 and reaches each next
thread's by a jump of 2**64 steps, which costs a sequential loop on the host; here the state of
thread i is two splitmix64 outputs of its own starting point (seed and i), computed for all
threads at once with numpy. The streams are independent in practice but are not numba's
numbers: a program using them gives other (equally distributed) values than under numba.
A state is two uint64 (an array of shape (n, 2)), not numba's record dtype."""
import math

import numpy as np

from . import _core
from ._jitdispatch import jit

_M64 = (1 << 64) - 1


def _splitmix64(x):
    """splitmix64's output for the uint64 array x (Vigna's constants), with numpy's wrapping
    arithmetic."""
    with np.errstate(over="ignore"):
        z = x + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def init_xoroshiro128p_states_host(n, seed=0, subsequence_start=0):
    """The states of n threads as a numpy array of shape (n, 2), uint64."""
    i = np.arange(subsequence_start, subsequence_start + n, dtype=np.uint64)
    with np.errstate(over="ignore"):
        base = np.uint64(seed & _M64) * np.uint64(0xD1B54A32D192ED03) + \
            i * np.uint64(0x9E3779B97F4A7C15 * 2 & _M64)
    s0 = _splitmix64(base)
    s1 = _splitmix64(s0 ^ np.uint64(0x6A09E667F3BCC909))
    # an all-zero state never leaves zero: impossible here in practice, made impossible
    s1[(s0 == 0) & (s1 == 0)] = np.uint64(1)
    return np.stack([s0, s1], axis=1)


def create_xoroshiro128p_states(n, seed, subsequence_start=0, stream=0):
    """A device array of n generator states (shape (n, 2), uint64), one per thread."""
    return _core.to_device(init_xoroshiro128p_states_host(n, seed, subsequence_start),
                           stream=None if not stream else stream)


@jit(device=True)
def _rotl(x, k):
    # uint64 throughout: a signed operand would make the right shift arithmetic (numba's
    # typing, and kcc.jit's: uint64 with int64 is int64)
    return (x << k) | (x >> (np.uint64(64) - k))


@jit(device=True)
def xoroshiro128p_next(states, index):
    """The next 64-bit output of thread `index`'s generator (uint64)."""
    s0 = states[index, 0]
    s1 = states[index, 1]
    result = s0 + s1
    s1 ^= s0
    states[index, 0] = _rotl(s0, np.uint64(24)) ^ s1 ^ (s1 << np.uint64(16))
    states[index, 1] = _rotl(s1, np.uint64(37))
    return result


@jit(device=True)
def xoroshiro128p_uniform_float64(states, index):
    """A float64 uniform in [0, 1): the top 53 bits of the next output."""
    return (xoroshiro128p_next(states, index) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@jit(device=True)
def xoroshiro128p_uniform_float32(states, index):
    """A float32 uniform in [0, 1): the top 24 bits of the next output."""
    return np.float32(xoroshiro128p_next(states, index) >> np.uint64(40)) * \
        np.float32(1.0 / 16777216.0)


@jit(device=True)
def xoroshiro128p_normal_float64(states, index):
    """A float64 from the standard normal distribution (Box-Muller)."""
    u1 = xoroshiro128p_uniform_float64(states, index)
    u2 = xoroshiro128p_uniform_float64(states, index)
    return math.sqrt(-2.0 * math.log(1.0 - u1)) * math.cos(TWO_PI * u2)


@jit(device=True)
def xoroshiro128p_normal_float32(states, index):
    """A float32 from the standard normal distribution (Box-Muller, in float32)."""
    u1 = xoroshiro128p_uniform_float32(states, index)
    u2 = xoroshiro128p_uniform_float32(states, index)
    return math.sqrt(np.float32(-2.0) * math.log(np.float32(1.0) - u1)) * \
        math.cos(np.float32(TWO_PI) * u2)


TWO_PI = 2.0 * math.pi
