"""CUDA device functions kcc writes in its CUDA prelude (frontend/cuda/cuda_api.c) checked
against host references on fresh random inputs, every element: the halving additions
__hadd/__rhadd/__uhadd/__urhadd, a double's halves (__double2hiint, __double2loint,
__hiloint2double), the norms of an array (norm, normf, rnorm, rnormf) and nan()/nanf() of a
tag known only at run time."""
import math

import numpy as np
import pytest

import kcc

SRC = r"""
__global__ void halving(const int *x, const int *y, const unsigned *u, const unsigned *v,
                        int *h, int *rh, unsigned *uh, unsigned *urh, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    h[i] = __hadd(x[i], y[i]);
    rh[i] = __rhadd(x[i], y[i]);
    uh[i] = __uhadd(u[i], v[i]);
    urh[i] = __urhadd(u[i], v[i]);
}

__global__ void halves(const double *d, int *hi, int *lo, double *back, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    hi[i] = __double2hiint(d[i]);
    lo[i] = __double2loint(d[i]);
    back[i] = __hiloint2double(hi[i], lo[i]);
}

__global__ void norms(const double *p, const float *q, int dim, double *out, float *outf,
                      int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[2 * i] = norm(dim, p + i * dim);
    out[2 * i + 1] = rnorm(dim, p + i * dim);
    outf[2 * i] = normf(dim, q + i * dim);
    outf[2 * i + 1] = rnormf(dim, q + i * dim);
}

__global__ void nans(const char *tag, double *d, float *f) {
    d[0] = nan(tag);
    f[0] = nanf(tag);
}
"""


@pytest.fixture(scope="module")
def mod():
    return kcc.compile(SRC, name="intrinsics.cu")


def test_halving_additions(mod, rng):
    n = 1024
    x = rng.integers(-2 ** 31, 2 ** 31, size=n, dtype=np.int64)
    y = rng.integers(-2 ** 31, 2 ** 31, size=n, dtype=np.int64)
    u = rng.integers(0, 2 ** 32, size=n, dtype=np.uint64)
    v = rng.integers(0, 2 ** 32, size=n, dtype=np.uint64)
    x[:4], y[:4] = [2 ** 31 - 1, -2 ** 31, -1, 3], [2 ** 31 - 1, -2 ** 31, -2, -4]
    u[:2], v[:2] = [2 ** 32 - 1, 0], [2 ** 32 - 1, 1]
    h, rh = np.zeros(n, np.int32), np.zeros(n, np.int32)
    uh, urh = np.zeros(n, np.uint32), np.zeros(n, np.uint32)
    mod.halving[n // 64, 64](x.astype(np.int32), y.astype(np.int32), u.astype(np.uint32),
                             v.astype(np.uint32), h, rh, uh, urh, np.int32(n))
    np.testing.assert_array_equal(h, (x + y) >> 1)  # floor, as CUDA's __hadd
    np.testing.assert_array_equal(rh, (x + y + 1) >> 1)
    np.testing.assert_array_equal(uh, (u + v) >> 1)
    np.testing.assert_array_equal(urh, (u + v + 1) >> 1)


def test_double_halves(mod, rng):
    n = 512
    bits = rng.integers(0, 2 ** 64, size=n, dtype=np.uint64, endpoint=False)
    d = bits.view(np.float64)
    hi, lo, back = np.zeros(n, np.int32), np.zeros(n, np.int32), np.zeros(n, np.float64)
    mod.halves[n // 64, 64](d, hi, lo, back, np.int32(n))
    np.testing.assert_array_equal(hi, (bits >> np.uint64(32)).astype(np.uint32).view(np.int32))
    np.testing.assert_array_equal(lo, (bits & np.uint64(0xffffffff)).astype(np.uint32)
                                  .view(np.int32))
    np.testing.assert_array_equal(back.view(np.uint64), bits)


@pytest.mark.parametrize("dim", [1, 3, 7])
def test_norms(mod, rng, dim):
    n = 256
    p = rng.standard_normal((n, dim)) * 10.0 ** rng.integers(-200, 200, size=(n, 1))
    q = (rng.standard_normal((n, dim)) * 10.0 ** rng.integers(-30, 30, size=(n, 1)))
    q = q.astype(np.float32)
    p[0], q[0] = 0, 0
    p[1, 0], q[1, 0] = np.inf, np.inf
    p[2, -1], q[2, -1] = np.nan, np.nan
    out, outf = np.zeros(2 * n), np.zeros(2 * n, np.float32)
    mod.norms[n // 64, 64](p.ravel(), q.ravel(), np.int32(dim), out, outf, np.int32(n))
    def exact(row):
        if np.isinf(row).any():
            return math.inf
        if np.isnan(row).any():
            return math.nan
        m = float(np.abs(row).max())
        return m * math.sqrt(math.fsum((float(a) / m) ** 2 for a in row)) if m else 0.0

    for i in range(n):
        want, wf = exact(p[i]), exact(q[i].astype(np.float64))
        if math.isnan(want):
            assert math.isnan(out[2 * i]) and math.isnan(outf[2 * i]), i
            continue
        assert out[2 * i] == pytest.approx(want, rel=dim * 4e-16, abs=0), i
        assert out[2 * i + 1] == pytest.approx(1 / want if want else math.inf,
                                               rel=dim * 6e-16), i
        assert outf[2 * i] == pytest.approx(wf, rel=dim * 3e-7), i
        assert outf[2 * i + 1] == pytest.approx(1 / wf if wf else math.inf, rel=dim * 4e-7), i


def test_nan_of_a_runtime_tag(mod):
    d, f = np.zeros(1), np.zeros(1, np.float32)
    mod.nans[1, 1](np.frombuffer(b"12\0", np.int8).copy(), d, f)
    assert math.isnan(d[0]) and math.isnan(f[0])
