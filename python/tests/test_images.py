"""kcc.Image and kcc.Sampler (issue 30): OpenCL C kernels taking image2d_t & co. and sampler_t,
on the default device (PoCL's CPU device in CI). Every result is compared, element by element,
with a numpy reference of the OpenCL 1.2 rules (§8.2 addressing and filtering, §8.3
conversions) on fresh random images and coordinates."""
import numpy as np
import pytest

import kcc

SRC = r"""
__kernel void sample(read_only image2d_t img, sampler_t s, __global const float2 *at,
                     __global float4 *out) {
    size_t i = get_global_id(0);
    out[i] = read_imagef(img, s, at[i]);
}

__kernel void twice(read_only image2d_t src, write_only image2d_t dst) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    write_imageui(dst, p, read_imageui(src, p) * 2u);
}

__kernel void fetchf(read_only image2d_t img, __global float4 *out) {
    int x = get_global_id(0), y = get_global_id(1);
    out[y * get_image_width(img) + x] = read_imagef(img, (int2)(x, y));
}

__kernel void dims(read_only image3d_t img, __global int *out) {
    out[0] = get_image_width(img);
    out[1] = get_image_height(img);
    out[2] = get_image_depth(img);
    out[3] = get_image_channel_order(img);
    out[4] = get_image_channel_data_type(img);
}

__kernel void fill(__global float *p) {
    p[get_global_id(0)] = 1.0f;
}

#ifdef __IMAGE_SUPPORT__
__kernel void has_images(__global int *out) { out[0] = 1; }
#endif
"""


@pytest.fixture(scope="module")
def mod():
    return kcc.compile(SRC, name="images.cl")


def _texel(img, x, y, addressing):
    """Texels at integer (x, y) arrays, with clamp_to_edge or clamp's border (0 for RGBA)."""
    h, w = img.shape[:2]
    if addressing == "clamp_to_edge":
        return img[np.clip(y, 0, h - 1), np.clip(x, 0, w - 1)].astype(np.float64)
    inside = (x >= 0) & (x < w) & (y >= 0) & (y < h)
    t = img[np.clip(y, 0, h - 1), np.clip(x, 0, w - 1)].astype(np.float64)
    t[~inside] = 0.0
    return t


def _reference(img, at, addressing, filt, normalized):
    """read_imagef of a float RGBA image at float coordinates (OpenCL 1.2 §8.2)."""
    h, w = img.shape[:2]
    u, v = at[:, 0].astype(np.float64), at[:, 1].astype(np.float64)
    if normalized:
        u, v = u * w, v * h
    if filt == "nearest":
        return _texel(img, np.floor(u).astype(int), np.floor(v).astype(int), addressing)
    i0, j0 = np.floor(u - 0.5), np.floor(v - 0.5)
    a, b = (u - 0.5 - i0)[:, None], (v - 0.5 - j0)[:, None]
    i0, j0 = i0.astype(int), j0.astype(int)
    return ((1 - a) * (1 - b) * _texel(img, i0, j0, addressing) +
            a * (1 - b) * _texel(img, i0 + 1, j0, addressing) +
            (1 - a) * b * _texel(img, i0, j0 + 1, addressing) +
            a * b * _texel(img, i0 + 1, j0 + 1, addressing))


def _coords(rng, n, w, h):
    """Unnormalized coordinates from 2 texels outside the image to 2 beyond, kept 0.05 texel
    away from where nearest filtering changes texels (integers) and linear filtering changes
    its pairs (half-integers), where float rounding may go either way."""
    at = rng.uniform([-2, -2], [w + 2, h + 2], size=(n, 2))
    frac = at * 2 - np.floor(at * 2)
    at = np.where(np.abs(frac - 0.5) > 0.4, np.floor(at * 2) / 2 + 0.25, at)
    return at.astype(np.float32)


@pytest.mark.parametrize("filt", ["nearest", "linear"])
@pytest.mark.parametrize("addressing", ["clamp_to_edge", "clamp"])
@pytest.mark.parametrize("normalized", [False, True])
def test_read_imagef_with_sampler(mod, rng, filt, addressing, normalized):
    h, w = rng.integers(3, 40, size=2)
    data = rng.random((h, w, 4), dtype=np.float32)
    img = kcc.Image(data)
    assert (img.width, img.height, img.order, img.channel_type) == (w, h, "RGBA", "float")
    n = 512
    at = _coords(rng, n, w, h)
    if normalized:
        at = (at / np.array([w, h], np.float32)).astype(np.float32)
    s = kcc.Sampler(normalized, addressing, filt)
    out = np.empty((n, 4), np.float32)
    mod.sample[n // 64, 64](img, s, at, out)
    want = _reference(data, at, addressing, filt, normalized)
    # Nearest: the texel itself. Linear: the specification leaves the precision to the device;
    # the reference computes in double, the device in float on values in [0, 1): a few float
    # roundings of the weights and of the sum of four products (2^-18 is 64 ulp of 1).
    tol = 0.0 if filt == "nearest" else 2.0 ** -18
    np.testing.assert_allclose(out, want, rtol=0, atol=tol)


def test_write_imageui_round_trip(mod, rng):
    h, w = rng.integers(2, 50, size=2)
    data = rng.integers(0, 256, size=(h, w, 4), dtype=np.uint8)
    src = kcc.Image(data, normalized=False)
    dst = kcc.Image.empty((h, w, 4), np.uint8, normalized=False)
    assert src.channel_type == dst.channel_type == "unsigned_int8"
    mod.twice[(w, h), (1, 1)](src, dst)
    got = dst.copy_to_host()
    assert got.dtype == np.uint8 and got.shape == (h, w, 4)
    # write_imageui converts with saturation (OpenCL 1.2 §8.3.4): 2v above 255 is 255.
    np.testing.assert_array_equal(got, np.minimum(data.astype(np.uint32) * 2, 255))
    np.testing.assert_array_equal(src.copy_to_host(), data)  # the source is unchanged


@pytest.mark.parametrize("dtype, normalized, scale", [
    (np.uint8, None, 255.0), (np.uint16, True, 65535.0), (np.float32, None, 1.0),
    (np.float16, None, 1.0)])
def test_read_imagef_channel_types(mod, rng, dtype, normalized, scale):
    h, w = rng.integers(2, 30, size=2)
    if dtype in (np.float32, np.float16):
        data = rng.uniform(-100, 100, size=(h, w, 4)).astype(dtype)
    else:
        data = rng.integers(0, int(scale) + 1, size=(h, w, 4)).astype(dtype)
    img = kcc.Image(data, normalized=normalized)
    out = np.empty((h * w, 4), np.float32)
    mod.fetchf[(w, h), (1, 1)](img, out)
    want = (data.astype(np.float64) / scale).reshape(h * w, 4)
    # unorm to float: float and half exact; unorm within 2e-7 relative, the tolerance of
    # tests/runtime/cl_images.c (OpenCL 1.2 §8.3.1.1 asks 1.5 ulp; PoCL's c * (1 / 255.0f)
    # rounds twice, up to 2.5 ulp below 0.5).
    tol = 2e-7 if scale > 1 else 0.0
    np.testing.assert_allclose(out, want, rtol=tol, atol=0)


def test_shapes_and_round_trips(mod, rng):
    cases = [((17, 4), None, "1d", (17, 0, 0, 0)),
             ((33, 4), "1d_buffer", "1d_buffer", (33, 0, 0, 0)),
             ((5, 9, 1), None, "2d", (9, 5, 0, 0)),
             ((3, 4, 6, 1), None, "3d", (6, 4, 3, 0)),
             ((3, 11, 4), "1d_array", "1d_array", (11, 0, 0, 3)),
             ((2, 5, 7, 4), "2d_array", "2d_array", (7, 5, 0, 2))]
    for shape, kind, want_kind, dims in cases:
        data = rng.random(shape, dtype=np.float32)
        img = kcc.Image(data, image_type=kind)
        assert img.image_type == want_kind
        assert (img.width, img.height, img.depth, img.array_size) == dims
        assert img.shape == shape and img.ndim == len(shape) and img.nbytes == data.nbytes
        np.testing.assert_array_equal(img.copy_to_host(), data)
        new = rng.random(shape, dtype=np.float32)
        assert img.copy_to_device(new) is img
        np.testing.assert_array_equal(img.copy_to_host(), new)
    d, h, w = rng.integers(2, 9, size=3)
    img = kcc.Image(rng.integers(0, 255, size=(d, h, w, 4), dtype=np.uint8))
    out = np.zeros(5, np.int32)
    mod.dims[1, 1](img, out)
    # CL_RGBA, CL_UNORM_INT8
    np.testing.assert_array_equal(out, [w, h, d, 0x10B5, 0x10D2])


def test_image_support_macro(mod):
    out = np.zeros(1, np.int32)
    mod.has_images[1, 1](out)  # defined only under #ifdef __IMAGE_SUPPORT__
    assert out[0] == 1


def test_bad_images():
    with pytest.raises(ValueError, match="3 channels"):
        kcc.Image(np.zeros((4, 4, 3), np.float32))
    with pytest.raises(ValueError, match="shape"):
        kcc.Image(np.zeros(8, np.float32))
    with pytest.raises(ValueError, match="shape"):
        kcc.Image(np.zeros((2, 2, 2, 2, 1), np.float32))
    with pytest.raises(TypeError, match="float64"):
        kcc.Image(np.zeros((4, 4, 1), np.float64))
    with pytest.raises(TypeError, match="int64"):
        kcc.Image(np.zeros((4, 4, 1), np.int64))
    with pytest.raises(ValueError, match="normalized"):
        kcc.Image(np.zeros((4, 4, 1), np.float32), normalized=True)
    with pytest.raises(ValueError, match="32-bit"):
        kcc.Image(np.zeros((4, 4, 1), np.int32), normalized=True)
    with pytest.raises(ValueError, match="image_type"):
        kcc.Image(np.zeros((4, 4, 1), np.float32), image_type="4d")
    with pytest.raises(ValueError, match="2d_array"):
        kcc.Image(np.zeros((4, 4, 1), np.float32), image_type="2d_array")
    with pytest.raises(ValueError, match="order 'RG' has 2 channels"):
        kcc.Image(np.zeros((4, 4, 4), np.float32), order="RG")
    with pytest.raises(ValueError, match="BGRA"):
        kcc.Image(np.zeros((4, 4, 4), np.float32), order="BGRA")
    with pytest.raises(ValueError, match="empty"):
        kcc.Image(np.zeros((0, 4, 1), np.float32))
    img = kcc.Image(np.zeros((4, 5, 1), np.float32))
    with pytest.raises(ValueError, match="shape"):
        img.copy_to_device(np.zeros((5, 4, 1), np.float32))
    with pytest.raises(TypeError, match="float64"):
        img.copy_to_device(np.zeros((4, 5, 1), np.float64))
    with pytest.raises(TypeError, match="copy_to_host"):
        np.asarray(img)
    img.free()
    with pytest.raises(ValueError, match="freed"):
        img.copy_to_host()


def test_bad_samplers():
    with pytest.raises(ValueError, match="normalized coordinates"):
        kcc.Sampler(False, "repeat")
    with pytest.raises(ValueError, match="addressing 'wrap'"):
        kcc.Sampler(True, "wrap")
    with pytest.raises(ValueError, match="filter 'cubic'"):
        kcc.Sampler(True, "clamp", "cubic")


def test_wrong_arguments(mod):
    img = kcc.Image(np.zeros((4, 4, 4), np.float32))
    img1d = kcc.Image(np.zeros((4, 4), np.float32))
    s = kcc.Sampler()
    at = np.zeros((64, 2), np.float32)
    out = np.zeros((64, 4), np.float32)
    with pytest.raises(TypeError, match=r"parameter 'img' \(read_only image2d_t\) takes a "
                                        r"kcc.Image .*not a numpy array"):
        mod.sample[1, 64](np.zeros((4, 4, 4), np.float32), s, at, out)
    with pytest.raises(TypeError, match="parameter 's' .* takes a kcc.Sampler"):
        mod.sample[1, 64](img, img, at, out)
    with pytest.raises(TypeError, match="takes a kcc.Image"):
        mod.sample[1, 64](s, s, at, out)
    with pytest.raises(TypeError, match="a 1d image .*image2d_t"):
        mod.sample[1, 64](img1d, s, at, out)
    with pytest.raises(TypeError, match="parameter 'at' .* is a pointer: it takes an array, "
                                        "not a kcc.Image"):
        mod.sample[1, 64](img, s, img, out)
    with pytest.raises(TypeError, match="is a pointer: it takes an array, not a kcc.Sampler"):
        mod.fill[1, 1](s)
    freed = kcc.Image(np.zeros((4, 4, 4), np.float32))
    freed.free()
    with pytest.raises(ValueError, match="freed"):
        mod.sample[1, 64](freed, s, at, out)


def test_reprs():
    img = kcc.Image(np.zeros((3, 5, 4), np.uint8))
    assert repr(img).startswith("<kcc.Image 2d 5x3 RGBA unorm_int8 on ")
    arr = kcc.Image(np.zeros((2, 3, 5, 1), np.float32), image_type="2d_array")
    assert repr(arr).startswith("<kcc.Image 2d_array 5x3, 2 layers R float on ")
    s = kcc.Sampler(True, "mirrored_repeat", "linear")
    assert repr(s).startswith("<kcc.Sampler linear mirrored_repeat normalized on ")
    img.free()
    assert repr(img).endswith("(freed)>")
