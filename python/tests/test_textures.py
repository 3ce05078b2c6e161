"""kcc.Texture and kcc.Surface (issue 30): CUDA `.cu` kernels taking cudaTextureObject_t and
cudaSurfaceObject_t, on the default device (PoCL's CPU device in CI; tests/python.cmake's
python.images_vulkan runs this file on lavapipe too). Every texel read is compared with a
numpy reference of CUDA's texture fetching (CUDA Programming Guide, "Texture Fetching", which
OpenCL 1.2 §8.2 spells the same way: nearest reads texel floor(x); linear blends texels
floor(x - 0.5) and the next by the fraction of x - 0.5; clamp, border (zeros), wrap and
mirror; normalized reads c / 255, c / 65535, max(c / 127, -1), max(c / 32767, -1)), on fresh
random images and coordinates (the seed is in each failure's message); surface writes and
reads bit for bit. Both launch paths (kcc._fastlaunch and ctypes) take the objects, and every
refusal is checked with its exception's class and text."""
import itertools
import os
import re
import weakref

import numpy as np
import pytest

import kcc
from kcc import _core
from kcc import _native as N

# The texel types a kernel reads, by (dtype, channels, read mode).
_CUDA_SCALAR = {"uint8": "uchar", "int8": "char", "uint16": "ushort", "int16": "short",
                "int32": "int", "uint32": "uint", "float32": "float", "float16": "float"}


def _texel_type(dtype, ch, mode):
    """The CUDA type a kernel reads such a texel as (its name in the kernels' names too)."""
    base = "float" if mode == "normalized_float" else _CUDA_SCALAR[dtype]
    return "%s%d" % (base, ch) if ch > 1 else base


def _c_type(t):
    """A scalar texel type as C spells it (CUDA's uchar1 & co. are structs, not scalars)."""
    return {"uchar": "unsigned char", "char": "signed char", "ushort": "unsigned short",
            "uint": "unsigned int"}.get(t, t)


def _out_dtype(dtype, mode):
    return np.dtype(np.float32 if mode == "normalized_float" or dtype == "float16" else dtype)


FORMATS = [(d, ch, "element") for d in _CUDA_SCALAR for ch in (1, 2, 4)] + \
    [(d, ch, "normalized_float") for d in ("uint8", "int8", "uint16", "int16") for ch in (1, 2, 4)]
TEXEL_TYPES = sorted({_texel_type(*f) for f in FORMATS})

# The read families: (kernel prefix, image type, spatial dimensions, layered, the call).
FAMILIES = {
    "fetch": ("1d_buffer", 1, False, "tex1Dfetch<T>(t, ci[i])"),
    "t1": ("1d", 1, False, "tex1D<T>(t, c[i].x)"),
    "t2": ("2d", 2, False, "tex2D<T>(t, c[i].x, c[i].y)"),
    "t3": ("3d", 3, False, "tex3D<T>(t, c[i].x, c[i].y, c[i].z)"),
    "l1": ("1d_array", 1, True, "tex1DLayered<T>(t, c[i].x, (int)c[i].w)"),
    "l2": ("2d_array", 2, True, "tex2DLayered<T>(t, c[i].x, c[i].y, (int)c[i].w)"),
    "lod2": ("2d", 2, False, "tex2DLod<T>(t, c[i].x, c[i].y, c[i].w)"),
}

# Surfaces: texel (x, y, z) gets v[(z * h + y) * w + x] (x in bytes in the calls).
SURF_SRC = r"""
__global__ void sw1_{N}(const {T} *v, cudaSurfaceObject_t s, int w) {{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x < w) surf1Dwrite(v[x], s, x * (int)sizeof({T}));
}}
__global__ void sw2_{N}(const {T} *v, cudaSurfaceObject_t s, int w) {{
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < w) surf2Dwrite(v[y * w + x], s, x * (int)sizeof({T}), y);
}}
__global__ void sw3_{N}(const {T} *v, cudaSurfaceObject_t s, int w, int h) {{
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, z = blockIdx.z;
  if (x < w) surf3Dwrite(v[(z * h + y) * w + x], s, x * (int)sizeof({T}), y, z);
}}
__global__ void sr1_{N}({T} *v, cudaSurfaceObject_t s, int w) {{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x < w) v[x] = surf1Dread<{T}>(s, x * (int)sizeof({T}));
}}
__global__ void sr2_{N}({T} *v, cudaSurfaceObject_t s, int w) {{
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < w) v[y * w + x] = surf2Dread<{T}>(s, x * (int)sizeof({T}), y);
}}
__global__ void sr3_{N}({T} *v, cudaSurfaceObject_t s, int w, int h) {{
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, z = blockIdx.z;
  if (x < w) surf3Dread(&v[(z * h + y) * w + x], s, x * (int)sizeof({T}), y, z);
}}
"""
# Layered surfaces: texel x of row y in layer l gets v[(l * h + y) * w + x] (1D: h is 1).
LAYERED_SRC = r"""
__global__ void swl1_{N}(const {T} *v, cudaSurfaceObject_t s, int w) {{
  int x = blockIdx.x * blockDim.x + threadIdx.x, l = blockIdx.z;
  if (x < w) surf1DLayeredwrite(v[l * w + x], s, x * (int)sizeof({T}), l);
}}
__global__ void srl1_{N}({T} *v, cudaSurfaceObject_t s, int w) {{
  int x = blockIdx.x * blockDim.x + threadIdx.x, l = blockIdx.z;
  if (x < w) v[l * w + x] = surf1DLayeredread<{T}>(s, x * (int)sizeof({T}), l);
}}
__global__ void swl2_{N}(const {T} *v, cudaSurfaceObject_t s, int w, int h) {{
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, l = blockIdx.z;
  if (x < w) surf2DLayeredwrite(v[(l * h + y) * w + x], s, x * (int)sizeof({T}), y, l);
}}
__global__ void srl2_{N}({T} *v, cudaSurfaceObject_t s, int w, int h) {{
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, l = blockIdx.z;
  if (x < w) v[(l * h + y) * w + x] = surf2DLayeredread<{T}>(s, x * (int)sizeof({T}), y, l);
}}
"""
LAYERED_TYPES = ("uchar4", "short4", "uint", "float", "float4", "half")

# The surfaces' texel types: (kernel suffix, CUDA type, numpy dtype, channels).
SURF_TYPES = [("uchar", "unsigned char", "uint8", 1), ("char2", "char2", "int8", 2),
              ("uchar4", "uchar4", "uint8", 4), ("ushort2", "ushort2", "uint16", 2),
              ("short", "short", "int16", 1), ("short4", "short4", "int16", 4),
              ("uint", "unsigned int", "uint32", 1), ("int2", "int2", "int32", 2),
              ("int4", "int4", "int32", 4), ("float", "float", "float32", 1),
              ("float2", "float2", "float32", 2), ("float4", "float4", "float32", 4),
              ("half", "__half", "float16", 1)]

OTHERS = r"""
__global__ void copy2(cudaTextureObject_t t, cudaSurfaceObject_t d, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < w) surf2Dwrite(2.0f * tex2D<float>(t, x + 0.5f, y + 0.5f), d, x * 4, y);
}
__global__ void ptr(const float *p, float *o) { o[0] = p[0]; }
"""


def _source():
    parts = ["#include <cuda_fp16.h>\n"]
    for name, (_, _, _, call) in FAMILIES.items():
        # Every texel type for the two families test_every_format reads them with; the types
        # of SAMPLED and test_families_formats for the rest (PoCL builds every kernel of the
        # module when it loads it: 227 kernels took 76 s on a 2-core machine, these 147 30 s).
        types = TEXEL_TYPES if name in ("fetch", "t2") else \
            ("float", "float2", "float4", "uchar4", "int")
        for t in types:
            parts.append("__global__ void %s_%s(cudaTextureObject_t t, const float4 *c, "
                         "const int *ci, %s *o, int n) {\n  int i = blockIdx.x * blockDim.x + "
                         "threadIdx.x;\n  if (i < n) o[i] = %s;\n}\n"
                         % (name, t, _c_type(t), call.replace("<T>", "<%s>" % _c_type(t))))
    for n, t, _, _ in SURF_TYPES:
        parts.append(SURF_SRC.format(N=n, T=t))
        if n in LAYERED_TYPES:
            parts.append(LAYERED_SRC.format(N=n, T=t))
    parts.append(OTHERS)
    return "".join(parts)


@pytest.fixture(scope="module")
def mod():
    return kcc.compile(_source(), name="textures.cu")


@pytest.fixture
def fresh():
    """A generator on a fresh seed, and the seed (for the failure messages)."""
    seed = int.from_bytes(os.urandom(4), "little")
    return np.random.default_rng(seed), seed


def _platform():
    return getattr(kcc.get_device(), "platform", "")


def _pocl():
    return _platform() == "Portable Computing Language"


def _fast_or_ctypes(kernel, grid, block, fast):
    """kernel[grid, block] through kcc._fastlaunch (fast), the ctypes path (False) or
    whichever this process uses (None)."""
    if fast is None:
        return kernel[grid, block]
    if fast:
        if N.fast is None:
            pytest.skip("kcc._fastlaunch not loaded here: %s" % N.fast_error)
        return kernel[grid, block]
    return _core._Launch(kernel, _core._dim3(grid, "grid"), _core._dim3(block, "block"), 0,
                         None, None)


# ---------------------------------------------------------------- the host reference


def _random_texels(rng, shape, dtype):
    dt = np.dtype(dtype)
    if dt.kind == "f":
        return rng.uniform(-4, 4, size=shape).astype(dt)
    info = np.iinfo(dt)
    return rng.integers(info.min, info.max, size=shape, endpoint=True, dtype=dt)


def _as_read(data, mode):
    """The texels as a read gives them: normalized floats (float32 arithmetic, as libkcrt's
    references do), float16 widened, integers as they are."""
    if mode == "normalized_float":
        d = data.dtype
        scale = np.float32({"uint8": 255, "uint16": 65535, "int8": 127, "int16": 32767}[d.name])
        f = data.astype(np.float32) / scale
        return np.maximum(f, np.float32(-1)) if d.kind == "i" else f
    if data.dtype == np.float16:
        return data.astype(np.float32)
    return data


def _wrap_index(i, n, addressing):
    """Texel indices after addressing; -1 for border texels (read as 0)."""
    if addressing == "clamp":
        return np.clip(i, 0, n - 1)
    if addressing == "border":
        return np.where((i < 0) | (i >= n), -1, i)
    raise AssertionError(addressing)


def _axis(s, n, addressing, filt, normalized):
    """For one coordinate axis: [(indices, weights)] of the texels a read blends (OpenCL 1.2
    §8.2: repeat and mirrored repeat work on the normalized coordinate)."""
    s = s.astype(np.float64)
    if addressing == "wrap":
        u = (s - np.floor(s)) * n
        if filt == "nearest":
            i = np.floor(u).astype(np.int64)
            return [(np.where(i > n - 1, i - n, i), 1.0)]
        i0 = np.floor(u - 0.5).astype(np.int64)
        a = u - 0.5 - np.floor(u - 0.5)
        i1 = i0 + 1
        return [(np.where(i0 < 0, i0 + n, i0), 1 - a), (np.where(i1 > n - 1, i1 - n, i1), a)]
    if addressing == "mirror":
        u = np.abs(s - 2 * np.rint(0.5 * s)) * n
        if filt == "nearest":
            return [(np.minimum(np.floor(u).astype(np.int64), n - 1), 1.0)]
        i0 = np.floor(u - 0.5).astype(np.int64)
        a = u - 0.5 - np.floor(u - 0.5)
        return [(np.maximum(i0, 0), 1 - a), (np.minimum(i0 + 1, n - 1), a)]
    u = s * n if normalized else s
    if filt == "nearest":
        return [(_wrap_index(np.floor(u).astype(np.int64), n, addressing), 1.0)]
    i0 = np.floor(u - 0.5).astype(np.int64)
    a = u - 0.5 - np.floor(u - 0.5)
    return [(_wrap_index(i0, n, addressing), 1 - a), (_wrap_index(i0 + 1, n, addressing), a)]


def _reference(texels, coords, layers, addressing, filt, normalized):
    """Reads of `texels` (the read values: (layers,) [depth,] [height,] width, channels) at
    coords (n, dims: x, y, z) in `layers` (n,): nearest exactly, linear in float64."""
    dims = coords.shape[1]
    sizes = texels.shape[1:1 + dims][::-1]  # width, height, depth
    axes = [_axis(coords[:, k], sizes[k], addressing, filt, normalized) for k in range(dims)]
    out = None
    for combo in itertools.product(*axes):
        idx = [c[0] for c in combo]
        w = np.ones(len(coords))
        for c in combo:
            w = w * c[1]
        border = np.zeros(len(coords), bool)
        for i in idx:
            border |= i < 0
        sel = (layers,) + tuple(np.maximum(i, 0) for i in idx[::-1])
        t = texels[sel].copy()
        if t.dtype.kind == "f":
            t = t.astype(np.float64)
        t[border] = 0
        if filt == "nearest":
            return t
        term = t * w[:, None]
        out = term if out is None else out + term
    return out


def _coords(rng, n, sizes, addressing, filt, normalized):
    """Coordinates from 2 texels outside the image to 2 beyond (wrap and mirror: 1.5 images
    each way), nearest ones a tenth of a texel from where the texel changes (floating-point
    rounding of x * width may land either side there)."""
    cols = []
    for size in sizes:
        lo, hi = (-1.5 * size, 2.5 * size) if addressing in ("wrap", "mirror") else \
            (-2.0, size + 2.0)
        u = rng.uniform(lo, hi, n)
        if filt == "nearest":
            f = u - np.floor(u)
            u = np.floor(u) + np.clip(f, 0.1, 0.9)
        cols.append(u / size if normalized else u)
    return np.stack(cols, axis=1).astype(np.float32)


def _linear_tol(dims, texels):
    """Linear filtering's allowance: weights of 8 fractional bits (half an LSB each way: 2^-8
    of the texels' span per dimension), as OpenCL leaves filtering's precision to the device
    and CUDA's texture units have; 2^-7 on CUDA devices, whose coordinates are of limited
    precision too (tests/runtime/cuda_texobj.c, measured on an H200)."""
    t = texels.astype(np.float64)
    span = float(np.max(np.abs(t))) if t.size else 1.0
    per = 2.0 ** -7 if kcc.get_device().backend == "cuda" else 2.0 ** -8
    return dims * per * span + 1e-6 * span


# ---------------------------------------------------------------- textures


def _image_or_skip(data, image_type, mode, dtype, ch):
    """kcc.Image of the texels, or a skip where the device lacks the format (OpenCL 1.2 asks
    only RGBA; PoCL has no RG images and misreads R half ones: docs/driver-bugs.md 16)."""
    if _pocl() and dtype == "float16" and ch == 1:
        pytest.skip("PoCL misreads one-channel half images (docs/driver-bugs.md 16)")
    try:
        return kcc.Image(data, normalized=mode == "normalized_float",
                         image_type=image_type)
    except (kcc.NotSupportedError, kcc.DriverError) as e:
        if kcc.get_device().backend == "opencl" and ch == 2:
            pytest.skip("no %s %d-channel images on this OpenCL device: %s" % (dtype, ch, e))
        raise


def _run_family(mod, rng, seed, family, fmt, addressing, filt, normalized, fast=None):
    dtype, ch, mode = fmt
    image_type, dims, layered, _ = FAMILIES[family]
    if _pocl() and layered and normalized:
        pytest.skip("PoCL scales a layer coordinate by the layer count with normalized "
                    "coordinates (docs/driver-bugs.md 16)")
    sizes = [int(rng.integers(3, 9)) for _ in range(dims)]  # width, height, depth
    nlayers = int(rng.integers(2, 5)) if layered else 0
    shape = ((nlayers,) if layered else ()) + tuple(sizes[::-1]) + (ch,)
    if family == "fetch":
        sizes = [int(rng.integers(16, 200))]
        shape = (sizes[0], ch)
    data = _random_texels(rng, shape, dtype)
    img = _image_or_skip(data, image_type, mode, dtype, ch)
    tex = kcc.Texture(img, addressing=addressing, filter=filt, normalized=normalized,
                      read_mode=mode)
    n = 96
    c = np.zeros((n, 4), np.float32)
    ci = np.zeros(n, np.int32)
    layers = np.zeros(n, np.int64)
    if family == "fetch":
        ci = rng.integers(0, sizes[0], n).astype(np.int32)  # outside: undefined in OpenCL
    else:
        c[:, :dims] = _coords(rng, n, sizes, addressing, filt, normalized)
        if layered:
            layers = rng.integers(0, nlayers, n)
            c[:, 3] = layers
        elif family == "lod2":
            c[:, 3] = rng.uniform(-2, 4, n)  # one level: every level of detail reads it
    t = _texel_type(dtype, ch, mode)
    out = np.zeros((n, ch) if ch > 1 else (n,), _out_dtype(dtype, mode))
    kernel = getattr(mod, "%s_%s" % (family, t))
    _fast_or_ctypes(kernel, (n + 31) // 32, 32, fast)(tex, c, ci, out, n)
    texels = _as_read(data, mode)
    if family == "fetch":
        want = texels[ci]
    else:
        vol = texels if layered else texels[None]
        want = _reference(vol, c[:, :dims].copy(), layers, addressing, filt, normalized)
        if (kcc.get_device().backend == "cuda" and family == "t1" and addressing == "border"
                and filt == "linear"):
            # NVIDIA's texture units filter a 1D texture as a row of a 2D one read at y = 0,
            # half of it from the border's zeros: CUDA's result (docs/driver-bugs.md 28)
            want = want * 0.5
    want = want.reshape(out.shape)
    msg = "seed %d: %s %s %r %s %s normalized=%s" % (seed, family, t, fmt, addressing, filt,
                                                     normalized)
    if filt == "nearest" and mode == "normalized_float":
        # unorm/snorm to float within 2e-7 relative, test_images.py's tolerance (OpenCL 1.2
        # §8.3.1.1 asks 1.5 ulp; PoCL's c * (1 / 255.0f) rounds twice).
        np.testing.assert_allclose(out, want, rtol=2e-7, atol=0, err_msg=msg)
    elif filt == "nearest":
        np.testing.assert_array_equal(out, want.astype(out.dtype), err_msg=msg)
    else:
        np.testing.assert_allclose(out, want, rtol=0, atol=_linear_tol(dims, texels),
                                   err_msg=msg)
    tex.free()
    img.free()


def _modes(fmt, index):
    """The index-th sampling configuration a format takes (integers: nearest only; wrap and
    mirror: normalized coordinates only), cycling through all of them."""
    floats = fmt[2] == "normalized_float" or fmt[0] in ("float32", "float16")
    out = []
    for filt in ("nearest", "linear") if floats else ("nearest",):
        for addressing in ("clamp", "border", "wrap", "mirror"):
            for normalized in (False, True):
                if addressing in ("wrap", "mirror") and not normalized:
                    continue
                out.append((addressing, filt, normalized))
    return out[index % len(out)]


@pytest.mark.parametrize("fmt", FORMATS, ids=lambda f: "%s-%d-%s" % f)
@pytest.mark.parametrize("family", ["fetch", "t2"])
def test_every_format(mod, fresh, family, fmt):
    """tex1Dfetch and tex2D of every channel type and count in both read modes; tex2D with a
    sampling configuration of its own per format."""
    rng, seed = fresh
    addressing, filt, normalized = _modes(fmt, FORMATS.index(fmt))
    _run_family(mod, rng, seed, family, fmt, addressing, filt, normalized)


SAMPLED = [("float32", 4, "element"), ("uint8", 4, "normalized_float"),
           ("int16", 1, "normalized_float"), ("float16", 4, "element")]
ALL_MODES = [_modes(("float32", 1, "element"), i) for i in range(12)]


@pytest.mark.parametrize("mode", ALL_MODES, ids=lambda m: "%s-%s-%s" % (
    m[0], m[1], "norm" if m[2] else "unnorm"))
@pytest.mark.parametrize("family", ["t1", "t2", "t3", "l1", "l2", "lod2"])
def test_every_sampling_mode(mod, fresh, family, mode):
    """Every addressing mode, filter and coordinate kind for each sampled read family, on a
    format of each kind that filters (float, unorm8, snorm16, half), one per case."""
    rng, seed = fresh
    fmt = SAMPLED[(ALL_MODES.index(mode) + list(FAMILIES).index(family)) % len(SAMPLED)]
    _run_family(mod, rng, seed, family, fmt, *mode)


@pytest.mark.parametrize("fmt", [("uint8", 4, "element"), ("int32", 1, "element"),
                                 ("uint16", 2, "normalized_float"), ("float32", 1, "element"),
                                 ("int8", 4, "normalized_float")], ids=lambda f: "%s-%d-%s" % f)
@pytest.mark.parametrize("family", ["t1", "t3", "l1", "l2", "lod2"])
def test_families_formats(mod, fresh, family, fmt):
    """The other read families on integer, normalized and float formats."""
    rng, seed = fresh
    mode = _modes(fmt, list(FAMILIES).index(family))
    _run_family(mod, rng, seed, family, fmt, *mode)


@pytest.mark.parametrize("fast", [True, False], ids=["fastlaunch", "ctypes"])
def test_both_launch_paths(mod, fresh, fast):
    rng, seed = fresh
    _run_family(mod, rng, seed, "t2", ("float32", 4, "element"), "border", "linear", False,
                fast=fast)
    _run_family(mod, rng, seed, "l2", ("uint8", 4, "element"), "clamp", "nearest", False,
                fast=fast)


def test_fastlaunch_passes_handles(mod):
    """kcc._fastlaunch converts a live texture or surface of the kernel's device in C (by its
    handle, keeping the object until another replaces it); anything else goes to the Python
    setter, which raises."""
    if N.fast is None:
        pytest.skip("kcc._fastlaunch not loaded here: %s" % N.fast_error)
    k = mod.copy2
    assert [_core._fast_code(p) for p in k.params][:2] == [(_core.FAST_TEXOBJ, 9),
                                                           (_core.FAST_TEXOBJ, 10)]
    src = kcc.Image(np.arange(12, dtype=np.float32).reshape(3, 4, 1))
    dst = kcc.Image.empty((3, 4, 1), np.float32)
    tex, surf = kcc.Texture(src), kcc.Surface(dst)
    k[(1, 3), (32, 1)](tex, surf, 4)
    assert k._held[:2] == [tex, surf]  # C's own list: the setters keep theirs elsewhere
    np.testing.assert_array_equal(dst.copy_to_host(), 2 * src.copy_to_host())
    ref = weakref.ref(tex)
    del tex
    assert ref() is not None  # held by the kernel until the next launch
    k[(1, 3), (32, 1)](kcc.Texture(src), surf, 4)
    assert ref() is None
    surf.free()
    with pytest.raises(ValueError, match="the surface was freed"):
        k[(1, 3), (32, 1)](kcc.Texture(src), surf, 4)


# ---------------------------------------------------------------- surfaces


@pytest.mark.parametrize("op", ["read", "write"])
@pytest.mark.parametrize("dims", [1, 2, 3])
@pytest.mark.parametrize("st", SURF_TYPES, ids=lambda s: s[0])
def test_surfaces(mod, fresh, st, dims, op):
    """surf{1,2,3}Dread of a random image into a buffer, and surf{1,2,3}Dwrite of random
    texels, read back: bit for bit."""
    rng, seed = fresh
    name, _, dtype, ch = st
    if _pocl() and dtype == "float16" and ch == 1:
        pytest.skip("PoCL misreads one-channel half images (docs/driver-bugs.md 16)")
    if _pocl() and op == "write" and dims == 3 and np.dtype(dtype).kind == "i":
        pytest.skip("through SPIR-V PoCL's kernel library lacks write_imagei for 3D images "
                    "(docs/driver-bugs.md 16)")
    sizes = [int(rng.integers(3, 40))] + [int(rng.integers(2, 6)) for _ in range(dims - 1)]
    shape = tuple(sizes[::-1]) + (ch,)
    try:
        img = kcc.Image.empty(shape, dtype, normalized=False)
    except (kcc.NotSupportedError, kcc.DriverError) as e:
        if ch == 2 and kcc.get_device().backend == "opencl":
            pytest.skip("no 2-channel images here: %s" % e)
        raise
    surf = kcc.Surface(img)
    grid = (sizes[0] + 31) // 32, sizes[1] if dims > 1 else 1, sizes[2] if dims > 2 else 1
    extra = (sizes[0],) if dims < 3 else (sizes[0], sizes[1])
    vshape = (int(np.prod(sizes)),) + ((ch,) if ch > 1 else ())
    msg = "seed %d: %s %dD %s" % (seed, name, dims, op)
    bufdtype = "uint16" if dtype == "float16" else dtype  # a __half * is an unsigned short *
    if op == "read":
        data = _random_texels(rng, shape, dtype)
        img.copy_to_device(data)
        got = np.zeros(vshape, bufdtype)
        getattr(mod, "sr%d_%s" % (dims, name))[grid, 32](got, surf, *extra)
        assert got.tobytes() == data.tobytes(), msg
    else:
        v = _random_texels(rng, vshape, dtype).view(bufdtype)
        getattr(mod, "sw%d_%s" % (dims, name))[grid, 32](v, surf, *extra)
        assert img.copy_to_host().tobytes() == v.tobytes(), msg
    surf.free()
    img.free()


@pytest.mark.parametrize("op", ["read", "write"])
@pytest.mark.parametrize("dims", [1, 2])
@pytest.mark.parametrize("st", [t for t in SURF_TYPES if t[0] in LAYERED_TYPES],
                         ids=lambda s: s[0])
def test_layered_surfaces(mod, fresh, st, dims, op):
    """surf1DLayeredread/write and surf2DLayeredread/write over '1d_array' and '2d_array'
    images, bit for bit."""
    rng, seed = fresh
    name, _, dtype, ch = st
    if _pocl() and dtype == "float16" and ch == 1:
        pytest.skip("PoCL misreads one-channel half images (docs/driver-bugs.md 16)")
    if _pocl() and op == "write" and dims == 2 and np.dtype(dtype).kind == "i":
        pytest.skip("through SPIR-V PoCL's kernel library lacks write_imagei for 2D-array "
                    "images (docs/driver-bugs.md 16)")
    w, h, layers = int(rng.integers(3, 40)), int(rng.integers(2, 6)), int(rng.integers(2, 5))
    shape = (layers, w, ch) if dims == 1 else (layers, h, w, ch)
    img = kcc.Image.empty(shape, dtype, normalized=False, image_type="%dd_array" % dims)
    surf = kcc.Surface(img)
    grid = ((w + 31) // 32, h if dims == 2 else 1, layers)
    extra = (w,) if dims == 1 else (w, h)
    vshape = (int(np.prod(shape[:-1])),) + ((ch,) if ch > 1 else ())
    bufdtype = "uint16" if dtype == "float16" else dtype
    msg = "seed %d: %s layered %dD %s" % (seed, name, dims, op)
    if op == "read":
        data = _random_texels(rng, shape, dtype)
        img.copy_to_device(data)
        got = np.zeros(vshape, bufdtype)
        getattr(mod, "srl%d_%s" % (dims, name))[grid, (32, 1, 1)](got, surf, *extra)
        assert got.tobytes() == data.tobytes(), msg
    else:
        v = _random_texels(rng, vshape, dtype).view(bufdtype)
        getattr(mod, "swl%d_%s" % (dims, name))[grid, (32, 1, 1)](v, surf, *extra)
        assert img.copy_to_host().tobytes() == v.tobytes(), msg
    surf.free()
    img.free()


def test_texture_into_surface(mod, fresh):
    """A texture read and a surface written by one kernel: d = 2 * s at texel centres."""
    rng, seed = fresh
    data = _random_texels(rng, (5, 7, 1), "float32")
    src, dst = kcc.Image(data), kcc.Image.empty((5, 7, 1), np.float32)
    mod.copy2[(1, 5), (32, 1)](kcc.Texture(src), kcc.Surface(dst), 7)
    np.testing.assert_array_equal(dst.copy_to_host(), 2 * data, err_msg="seed %d" % seed)


# ---------------------------------------------------------------- objects, lifetimes, errors


def test_attributes_and_repr(mod):
    img = kcc.Image(np.zeros((4, 6, 4), np.uint8))
    tex = kcc.Texture(img, addressing="wrap", filter="linear", normalized=True)
    dev = kcc.get_device()
    assert (tex.image, tex.device, tex.addressing, tex.filter, tex.normalized,
            tex.read_mode, tex.freed) == (img, dev, "wrap", "linear", True,
                                          "normalized_float", False)
    assert repr(tex) == ("<kcc.Texture linear wrap normalized normalized_float over 2d 6x4 "
                         "RGBA unorm_int8 on %s>" % dev.name)
    raw = kcc.Image(np.zeros((3, 2, 1, 4), np.int16), normalized=False)
    surf = kcc.Surface(raw)
    assert (surf.image, surf.device) == (raw, dev)
    assert repr(surf) == "<kcc.Surface over 3d 1x2x3 RGBA signed_int16 on %s>" % dev.name
    t2 = kcc.Texture(raw)
    assert (t2.addressing, t2.filter, t2.normalized, t2.read_mode) == \
        ("clamp", "nearest", False, "element")
    tex.free()
    assert tex.freed and repr(tex).endswith(" (freed)>")
    tex.free()  # twice: nothing


def test_image_free_frees_its_objects(mod):
    img = kcc.Image(np.ones((4, 4, 1), np.float32))
    tex, surf = kcc.Texture(img), kcc.Surface(img)
    other = kcc.Texture(kcc.Image(np.ones((4, 4, 1), np.float32)))
    assert len(img._deps) == 2
    img.free()
    assert tex.freed and surf.freed and not other.freed and img._deps == {}
    assert repr(surf).endswith(" (freed)>")
    c, ci, o = np.zeros((1, 4), np.float32), np.zeros(1, np.int32), np.zeros(1, np.float32)
    for fast in (True, False):
        if fast and N.fast is None:
            continue
        with pytest.raises(ValueError) as e:
            _fast_or_ctypes(mod.t2_float, 1, 1, fast)(tex, c, ci, o, 1)
        assert str(e.value) == ("kernel 't2_float' parameter 't' (cudaTextureObject_t): the "
                                "texture's image was freed (which frees its textures and "
                                "surfaces)")
    tex.free()
    surf.free()  # after their image: nothing to do
    with pytest.raises(ValueError) as e:
        kcc.Texture(img)
    assert str(e.value) == "kcc.Texture: the image was freed (img.free())"
    # A texture keeps its image alive: the image goes with its last texture.
    tex2 = kcc.Texture(kcc.Image(np.arange(16, dtype=np.float32).reshape(4, 4, 1)))
    mod.t2_float[1, 1](tex2, np.array([[1.5, 2.5, 0, 0]], np.float32), ci, o, 1)
    assert o[0] == 9.0
    other.free()
    with pytest.raises(ValueError) as e:
        mod.t2_float[1, 1](other, c, ci, o, 1)
    assert str(e.value) == ("kernel 't2_float' parameter 't' (cudaTextureObject_t): the texture "
                            "was freed")


def test_garbage_collection():
    """A texture or surface gone frees its libkcrt object at once (no cycle with its image);
    the image lives while a texture holds it."""
    img = kcc.Image(np.ones((4, 4, 4), np.float32))
    tex, surf = kcc.Texture(img), kcc.Surface(img)
    assert sorted(img._deps.values()) == ["kcrt_surface_free", "kcrt_texture_free"]
    del tex
    assert list(img._deps.values()) == ["kcrt_surface_free"]
    del surf
    assert img._deps == {}
    ref = weakref.ref(img)
    tex = kcc.Texture(img)
    del img
    assert ref() is tex.image
    del tex
    assert ref() is None


def _err(exc, f, *a, **kw):
    with pytest.raises(exc) as e:
        f(*a, **kw)
    return str(e.value)


def test_construction_errors():
    dev = kcc.get_device()
    f = kcc.Image(np.zeros((4, 4, 1), np.float32))
    u8 = kcc.Image(np.zeros((4, 4, 4), np.uint8))  # normalized (unorm_int8)
    i8 = kcc.Image(np.zeros((4, 4, 4), np.uint8), normalized=False)
    T, S = kcc.Texture, kcc.Surface
    assert _err(TypeError, T, np.zeros((4, 4, 1), np.float32)) == \
        "kcc.Texture: takes a kcc.Image (kcc.Image(array) makes one), not a numpy array"
    assert _err(TypeError, S, kcc.Sampler()) == \
        "kcc.Surface: takes a kcc.Image (kcc.Image(array) makes one), not Sampler"
    assert _err(ValueError, T, f, addressing="repeat") == (
        "kcc.Texture: addressing 'repeat' is not one of 'clamp', 'border', 'wrap', 'mirror' "
        "('repeat' is OpenCL's name, kcc.Sampler's; CUDA's is 'wrap')")
    assert _err(ValueError, T, f, addressing="edge") == \
        "kcc.Texture: addressing 'edge' is not one of 'clamp', 'border', 'wrap', 'mirror'"
    assert _err(ValueError, T, f, filter="point") == \
        "kcc.Texture: filter 'point' is not 'nearest' or 'linear' (CUDA's point filtering is " \
        "'nearest')"
    assert _err(ValueError, T, f, read_mode="float") == \
        "kcc.Texture: read_mode 'float' is not 'element' or 'normalized_float'"
    assert _err(ValueError, T, u8, read_mode="element") == (
        "kcc.Texture: read_mode 'element' does not fit the image: unorm_int8 channels are "
        "normalized: they read as floats (read_mode='normalized_float'); for the integers make "
        "the image with kcc.Image(array, normalized=False)")
    assert _err(ValueError, T, i8, read_mode="normalized_float") == (
        "kcc.Texture: read_mode 'normalized_float' does not fit the image: unsigned_int8 "
        "channels read as their own type: read_mode='element'; for normalized floats make the "
        "image with normalized=True")
    assert _err(ValueError, T, f, read_mode="normalized_float") == (
        "kcc.Texture: read_mode 'normalized_float' does not fit the image: float channels read "
        "as their own type: read_mode='element'")
    assert _err(ValueError, T, i8, filter="linear") == (
        "kcc.Texture: linear filtering of unsigned_int8 channels; CUDA and OpenCL filter only "
        "texels read as float (normalized 8- and 16-bit, float16, float32 channels)")
    assert _err(ValueError, T, f, addressing="mirror") == \
        "kcc.Texture: mirror addressing needs normalized coordinates (normalized=True), as " \
        "CUDA defines it"
    assert _err(ValueError, S, u8) == (
        "kcc.Surface: the image's channels are unorm_int8 (normalized); a surface holds raw "
        "texels: make the image with kcc.Image(array, normalized=False)")
    buf = kcc.Image(np.zeros((8, 1), np.float32), image_type="1d_buffer")
    assert _err(ValueError, S, buf) == (
        "kcc.Surface: a 1d_buffer image; CUDA has no surface over linear memory (tex1Dfetch "
        "reads one through a kcc.Texture)")
    argb = kcc.Image(np.zeros((4, 4, 4), np.uint8), order="ARGB")
    assert _err(ValueError, T, argb) == (
        "kcc.Texture: the image's channel order is ARGB; a CUDA texel has 1, 2 or 4 "
        "components (order 'R', 'RG' or 'RGBA')")

    class Other:  # a device that is not the image's
        index, name = 7, "elsewhere"
    assert _err(ValueError, T, f, device=Other()) == (
        "kcc.Texture: the image is on device %d (%s), not on device 7 (elsewhere); a texture "
        "is made on its image's device" % (dev.index, dev.name))
    assert T(f, device=dev).device is dev


def test_launch_errors(mod):
    img = kcc.Image(np.zeros((4, 4, 1), np.float32))
    tex, surf = kcc.Texture(img), kcc.Surface(img)
    c, ci, o = np.zeros((1, 4), np.float32), np.zeros(1, np.int32), np.zeros(1, np.float32)
    where = "kernel 't2_float' parameter 't' (cudaTextureObject_t)"
    swhere = "kernel 'sr2_float' parameter 's' (cudaSurfaceObject_t)"
    paths = [True, False] if N.fast is not None else [False]
    for fast in paths:
        def launch(k, *a):
            return _fast_or_ctypes(k, 1, 1, fast)(*a)
        assert _err(TypeError, launch, mod.t2_float, 5, c, ci, o, 1) == \
            where + " takes a kcc.Texture (kcc.Texture(image, addressing, filter, " \
            "normalized) makes one), not int"
        assert _err(TypeError, launch, mod.t2_float, img, c, ci, o, 1) == \
            where + " takes a kcc.Texture (kcc.Texture(image, addressing, filter, " \
            "normalized) makes one), not a kcc.Image"
        assert _err(TypeError, launch, mod.t2_float, surf, c, ci, o, 1) == \
            where + " takes a kcc.Texture (kcc.Texture(image, addressing, filter, " \
            "normalized) makes one), not a kcc.Surface"
        assert _err(TypeError, launch, mod.t2_float, c, c, ci, o, 1) == \
            where + " takes a kcc.Texture (kcc.Texture(image, addressing, filter, " \
            "normalized) makes one), not a numpy array"
        assert _err(TypeError, launch, mod.sr2_float, o, tex, 1) == \
            swhere + " takes a kcc.Surface (kcc.Surface(image) makes one), not a kcc.Texture"
        assert _err(TypeError, launch, mod.ptr, tex, o) == (
            "kernel 'ptr' parameter 'p' (const float *) is a pointer: it takes an array, not a "
            "kcc.Texture (a CUDA texture or surface object goes to a cudaTextureObject_t or "
            "cudaSurfaceObject_t parameter)")
        assert _err(TypeError, launch, mod.ptr, o, surf) == (
            "kernel 'ptr' parameter 'o' (float *) is a pointer: it takes an array, not a "
            "kcc.Surface (a CUDA texture or surface object goes to a cudaTextureObject_t or "
            "cudaSurfaceObject_t parameter)")
        # An image of another type than the kernel reads: libkcrt's check at the launch.
        msg = _err(kcc.InvalidArgumentError, launch, mod.t1_float, tex, c, ci, o, 1)
        assert msg.endswith("kernel 't1_float' argument 1 (cudaTextureObject_t t): the kernel "
                            "reads it as an image1d_t, and the texture's image is an "
                            "image2d_t"), msg
    # Another device's texture: a device object that is not the kernel's.
    t3 = kcc.Texture(img)
    t3.device = type("D", (), {"index": 9, "name": "elsewhere"})()
    assert _err(ValueError, mod.t2_float[1, 1], t3, c, ci, o, 1) == \
        where + ": the texture is on device 9 (elsewhere), the kernel on %d (%s)" % (
            kcc.get_device().index, kcc.get_device().name)


def test_compiled_unchecked_on_cpu_devices():
    """-fbounds-check keeps texture objects to PTX and CUDA C: on a CPU device kcc.compile
    compiles such a module unchecked (mod.checked False) so that it loads; other modules
    stay checked, and bounds_check=True is obeyed (the module then loads on CUDA only)."""
    if kcc.get_device().type != "cpu":
        pytest.skip("the default device is no CPU device: modules are unchecked anyway")
    src = ("__global__ void k(cudaTextureObject_t t, float *o) { o[0] = tex1D<float>(t, "
           "0.5f); }\n")
    m = kcc.compile(src, name="k.cu")
    assert (m.checked, m.checked_on(), m.log) == (False, False, "")
    img = kcc.Image(np.full((3, 1), 2.5, np.float32))
    o = np.zeros(1, np.float32)
    m.k[1, 1](kcc.Texture(img), o)
    assert o[0] == 2.5
    plain = kcc.compile("__global__ void k(float *o) { o[0] = 1; }", name="p.cu")
    assert plain.checked
    forced = kcc.compile(src, name="k.cu", bounds_check=True)
    assert forced.checked
    with pytest.raises(kcc.NoBinaryError):
        forced.k


def test_compiled_for_a_gpu_loads_unchecked_on_cpu_devices(monkeypatch):
    """A module compiled while a GPU was the device (unchecked), then loaded on a CPU device:
    the checked variant it would get there has no form the device loads, so it keeps its own
    unchecked bundle."""
    if kcc.get_device().type != "cpu":
        pytest.skip("the default device is no CPU device")
    monkeypatch.setattr(_core, "_current_device_type", lambda: "gpu")
    src = ("__global__ void k(cudaTextureObject_t t, float *o) { o[0] = tex1D<float>(t, "
           "1.5f); }\n")
    m = kcc.compile(src, name="g.cu")
    assert (m.checked, m._variant_source is not None) == (False, True)
    assert m.checked_on(kcc.get_device()) is False
    o = np.zeros(1, np.float32)
    m.k[1, 1](kcc.Texture(kcc.Image(np.arange(3, dtype=np.float32).reshape(3, 1))), o)
    assert o[0] == 1.0
    plain = kcc.compile("__global__ void k(float *o) { o[0] = 1; }", name="q.cu")
    assert (plain.checked, plain.checked_on(kcc.get_device())) == (False, True)


OTHER_DEVICE = r'''
import os
for v in ("KCC_DEVICE", "ONEAPI_DEVICE_SELECTOR", "HIP_VISIBLE_DEVICES"):
    os.environ.pop(v, None)
import numpy as np, kcc
ds = kcc.devices()
print("|".join(d.name.split("-")[0] for d in ds))
d0, d1 = ds[0], ds[1]
m = kcc.compile("""
__global__ void k(cudaTextureObject_t t, cudaSurfaceObject_t s, float *o) {
    o[0] = tex2D<float>(t, 0.5f, 0.5f);
    surf2Dwrite(1.0f, s, 0, 0);
}""", name="k.cu")
img0 = kcc.Image(np.ones((2, 2, 1), np.float32), device=d0)
img1 = kcc.Image(np.ones((2, 2, 1), np.float32), device=d1)
t1, s1 = kcc.Texture(img1), kcc.Surface(img1)
print(t1.device is d1, s1.device is d1)
for f in (lambda: kcc.Texture(img1, device=d0), lambda: kcc.Surface(img0, device=d1),
          lambda: m.get_kernel("k", d0)[1, 1](t1, kcc.Surface(img0), np.zeros(1, np.float32)),
          lambda: m.get_kernel("k", d0)[1, 1](kcc.Texture(img0), s1, np.zeros(1, np.float32))):
    try:
        f()
        print("no error")
    except ValueError as e:
        print(e)
o = np.zeros(1, np.float32)
m.get_kernel("k", d1)[1, 1](t1, s1, o)
print(o[0], img1.copy_to_host()[0, 0, 0])
'''


def test_other_device():
    """Objects of another device, on two PoCL devices (POCL_DEVICES="basic pthread", as
    test_scale.py): refused when made and when launched, with the device named."""
    if not _pocl() or os.environ.get("KCC_DEVICE"):
        pytest.skip("two PoCL devices: the default device is PoCL's")
    from conftest import run_python
    st, out, err = run_python(OTHER_DEVICE, {"POCL_DEVICES": "basic pthread"})
    assert st == 0, err
    lines = out.splitlines()
    if lines[0] != "basic|pthread":
        pytest.skip("other devices than PoCL's two: %s" % lines[0])
    names = re.findall(r"device \d \(([^)]*)\)", lines[2])
    d0, d1 = names[1], names[0]
    assert lines[1:] == [
        "True True",
        "kcc.Texture: the image is on device 1 (%s), not on device 0 (%s); a texture is made "
        "on its image's device" % (d1, d0),
        "kcc.Surface: the image is on device 0 (%s), not on device 1 (%s); a surface is made "
        "on its image's device" % (d0, d1),
        "kernel 'k' parameter 't' (cudaTextureObject_t): the texture is on device 1 (%s), the "
        "kernel on 0 (%s)" % (d1, d0),
        "kernel 'k' parameter 's' (cudaSurfaceObject_t): the surface is on device 1 (%s), the "
        "kernel on 0 (%s)" % (d1, d0),
        "1.0 1.0"]
