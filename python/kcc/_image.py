"""kcc.Image and kcc.Sampler: OpenCL C's images and samplers (issue 30) for `.cl` kernels
taking image2d_t & co. and sampler_t, over libkcrt's kcrt_image_* and kcrt_sampler_*
(docs/runtime.md, "Images and samplers"; docs/python.md, "Images and samplers"); and
kcc.Texture and kcc.Surface, CUDA's texture and surface objects over such images for `.cu`
kernels taking cudaTextureObject_t and cudaSurfaceObject_t (kcrt_texture_*, kcrt_surface_*;
docs/python.md, "Textures and surfaces")."""
import ctypes

from . import _native as N
from ._core import _check, _numpy, get_device

c_size_t = ctypes.c_size_t


class _ImageDesc(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("order", ctypes.c_int), ("data_type", ctypes.c_int),
                ("width", c_size_t), ("height", c_size_t), ("depth", c_size_t),
                ("array_size", c_size_t)]


# kcrt_image_type: the OpenCL C type a kernel declares, and how a numpy shape maps onto the
# image's dimensions (the channels last): (code, C type, the shape's names before channels).
_TYPES = {
    "1d": (1, "image1d_t", ("width",)),
    "1d_buffer": (2, "image1d_buffer_t", ("width",)),
    "1d_array": (3, "image1d_array_t", ("array_size", "width")),
    "2d": (4, "image2d_t", ("height", "width")),
    "2d_array": (5, "image2d_array_t", ("array_size", "height", "width")),
    "3d": (6, "image3d_t", ("depth", "height", "width")),
}
_TYPE_OF_CODE = {v[0]: k for k, v in _TYPES.items()}
_C_TYPE_NAMES = {v[1]: k for k, v in _TYPES.items()}
_DEFAULT_TYPE = {1: "1d", 2: "2d", 3: "3d"}  # by the number of spatial dimensions

# kcrt_channel_order (OpenCL's CL_ values) and its channel count.
_ORDERS = {"R": (0x10B0, 1), "A": (0x10B1, 1), "RG": (0x10B2, 2), "RA": (0x10B3, 2),
           "RGBA": (0x10B5, 4), "BGRA": (0x10B6, 4), "ARGB": (0x10B7, 4),
           "INTENSITY": (0x10B8, 1), "LUMINANCE": (0x10B9, 1)}
_ORDER_OF_CODE = {v[0]: k for k, v in _ORDERS.items()}
_DEFAULT_ORDER = {1: "R", 2: "RG", 4: "RGBA"}

# kcrt_channel_type by (numpy dtype name, normalized): the kernel reads normalized channels
# with read_imagef (unorm: [0, 1], snorm: [-1, 1]), integer ones with read_imagei/ui.
_CHANNEL_TYPES = {
    ("int8", True): (0x10D0, "snorm_int8"), ("int16", True): (0x10D1, "snorm_int16"),
    ("uint8", True): (0x10D2, "unorm_int8"), ("uint16", True): (0x10D3, "unorm_int16"),
    ("int8", False): (0x10D7, "signed_int8"), ("int16", False): (0x10D8, "signed_int16"),
    ("int32", False): (0x10D9, "signed_int32"), ("uint8", False): (0x10DA, "unsigned_int8"),
    ("uint16", False): (0x10DB, "unsigned_int16"),
    ("uint32", False): (0x10DC, "unsigned_int32"),
    ("float16", None): (0x10DD, "half_float"), ("float32", None): (0x10DE, "float"),
}
_DTYPE_OF_CHANNEL_CODE = {v[0]: k[0] for k, v in _CHANNEL_TYPES.items()}
_CHANNEL_NAME_OF_CODE = {v[0]: v[1] for v in _CHANNEL_TYPES.values()}


def _channel_type(dtype, normalized):
    """(kcrt_channel_type code, name) of a numpy dtype and the `normalized` argument."""
    name = dtype.name if dtype.isnative else None
    if name in ("float32", "float16"):
        if normalized:
            raise ValueError("kcc.Image: normalized=True is for 8- and 16-bit integer channels; "
                             "%s channels are read as they are" % name)
        return _CHANNEL_TYPES[(name, None)]
    if name in ("int32", "uint32"):
        if normalized:
            raise ValueError("kcc.Image: OpenCL has no normalized 32-bit channels: %s is read "
                             "with read_image%s (normalized=False)"
                             % (name, "i" if name == "int32" else "ui"))
        return _CHANNEL_TYPES[(name, False)]
    if name in ("int8", "uint8", "int16", "uint16"):
        return _CHANNEL_TYPES[(name, True if normalized is None else bool(normalized))]
    raise TypeError("kcc.Image: no OpenCL channel type holds %s; use uint8, int8, uint16, "
                    "int16 (normalized or integer), int32, uint32, float16 or float32"
                    % dtype)


class Image:
    """An OpenCL image on a device, for a `.cl` kernel's image1d_t, image1d_buffer_t,
    image1d_array_t, image2d_t, image2d_array_t or image3d_t parameter.

    kcc.Image(array) copies a numpy array in; its shape is the image's, channels last:
    (width, channels) a 1D image, (height, width, channels) a 2D image, (depth, height, width,
    channels) a 3D one; `image_type` ('1d', '1d_buffer', '1d_array', '2d', '2d_array', '3d')
    says which when the number of dimensions does not (a 1D array is (layers, width,
    channels), a 2D array (layers, height, width, channels)). Channels: 1 (R), 2 (RG) or 4
    (RGBA), or `order` ('R', 'A', 'RG', 'RA', 'RGBA', 'BGRA', 'ARGB', 'INTENSITY',
    'LUMINANCE'). The dtype is the channel type: float32 (float), float16 (half_float),
    int32 and uint32 (signed/unsigned_int32), and uint8, int8, uint16, int16, which are
    normalized (unorm/snorm: read_imagef gives [0, 1] or [-1, 1]) unless normalized=False
    (unsigned/signed_int8/16: read_imageui/read_imagei give the integers).
    kcc.Image.empty(shape, dtype) makes one without contents (for a kernel to write).
    A launch takes the image by reference, as it takes a kcc.DeviceArray; copy_to_host()
    reads it back."""

    def __init__(self, array, normalized=None, image_type=None, order=None, device=None):
        np = _numpy()
        a = np.asarray(array)
        self._h = None
        self._setup(a.shape, a.dtype, normalized, image_type, order, device)
        self.copy_to_device(a)

    @classmethod
    def empty(cls, shape, dtype=None, normalized=None, image_type=None, order=None,
              device=None):
        """An image of `shape` (channels last, as kcc.Image's array) and `dtype` (default
        float32), its contents undefined until written (by copy_to_device or a kernel)."""
        np = _numpy()
        self = cls.__new__(cls)
        self._h = None
        try:
            shape = tuple(int(s) for s in shape)
        except TypeError:
            raise TypeError("kcc.Image.empty: the shape is a sequence of ints (channels last), "
                            "not %r" % (shape,)) from None
        self._setup(shape, np.dtype(np.float32 if dtype is None else dtype), normalized,
                    image_type, order, device)
        return self

    def _setup(self, shape, dtype, normalized, image_type, order, device):
        shape = tuple(shape)
        if len(shape) < 2 or len(shape) > 4:
            raise ValueError("kcc.Image: an array of shape %r; an image's array is (width, "
                             "channels), (height, width, channels) or (depth, height, width, "
                             "channels)" % (shape,))
        if image_type is None:
            image_type = _DEFAULT_TYPE[len(shape) - 1]
        if image_type not in _TYPES:
            raise ValueError("kcc.Image: image_type %r is not one of %s"
                             % (image_type, ", ".join(repr(t) for t in _TYPES)))
        code, ctype, names = _TYPES[image_type]
        if len(shape) != len(names) + 1:
            raise ValueError("kcc.Image: a %s image's array is (%s, channels), not shape %r"
                             % (image_type, ", ".join(names), shape))
        channels = shape[-1]
        if order is None:
            if channels not in _DEFAULT_ORDER:
                raise ValueError("kcc.Image: %d channels (the last dimension of shape %r); "
                                 "OpenCL images have 1 (R), 2 (RG) or 4 (RGBA)"
                                 % (channels, shape))
            order = _DEFAULT_ORDER[channels]
        if order not in _ORDERS:
            raise ValueError("kcc.Image: order %r is not one of %s"
                             % (order, ", ".join(repr(o) for o in _ORDERS)))
        if _ORDERS[order][1] != channels:
            raise ValueError("kcc.Image: order %r has %d channels, the array's last dimension "
                             "%d" % (order, _ORDERS[order][1], channels))
        ch_code, ch_name = _channel_type(dtype, normalized)
        if order == "BGRA" and ch_name not in ("unorm_int8",):
            raise ValueError("kcc.Image: BGRA images are unorm_int8 (normalized uint8) only")
        if any(s <= 0 for s in shape[:-1]):
            raise ValueError("kcc.Image: an empty image (shape %r)" % (shape,))
        dims = dict(zip(names, shape[:-1]))
        self.device = device or get_device()
        self.shape = shape
        self.dtype = dtype
        self.image_type = image_type
        self.order = order
        self.channel_type = ch_name
        self.width = dims["width"]
        self.height = dims.get("height", 0)
        self.depth = dims.get("depth", 0)
        self.array_size = dims.get("array_size", 0)
        self.nbytes = dtype.itemsize
        # The textures and surfaces made over the image: handle -> its kcrt free function's
        # name. libkcrt's objects point at their image, so free() frees them first; raw
        # handles, not the Python objects, so that an image and its textures make no cycle
        # (each is freed when its last reference goes, not at the next cyclic collection).
        self._deps = {}
        for s in shape:
            self.nbytes *= s
        self._ctype = ctype
        d = _ImageDesc(code, _ORDERS[order][0], ch_code, self.width, self.height, self.depth,
                       self.array_size)
        h = ctypes.c_void_p()
        _check(N.kcrt().kcrt_image_create(self.device._open(), ctypes.byref(d), ctypes.byref(h)),
               "kcc.Image: creating a %s %s %s image of shape %r on %s"
               % (image_type, order, ch_name, shape, self.device.name))
        self._h = h.value

    @property
    def ndim(self):
        """The number of dimensions of the image's array (channels included)."""
        return len(self.shape)

    def _alive(self, what):
        if self._h is None:
            raise ValueError("%s: the image was freed (img.free())" % what)

    def copy_to_device(self, ary):
        """Copies a host array of the image's shape and dtype into the image (blocking, after
        the device's queued work; unlike DeviceArray's copies, Ctrl-C waits for it)."""
        np = _numpy()
        self._alive("Image.copy_to_device")
        a = np.asarray(ary)
        if a.shape != self.shape:
            raise ValueError("Image.copy_to_device: an array of shape %r into an image of shape "
                             "%r" % (a.shape, self.shape))
        if a.dtype != self.dtype:
            raise TypeError("Image.copy_to_device: an array of %s into an image of %s"
                            % (a.dtype, self.dtype))
        a = np.ascontiguousarray(a)
        _check(N.kcrt().kcrt_image_write(self._h, a.ctypes.data), "Image.copy_to_device")
        return self

    def copy_to_host(self):
        """The image's contents, as a new numpy array of its shape and dtype (waits for the
        device's queued work, as DeviceArray.copy_to_host does)."""
        np = _numpy()
        self._alive("Image.copy_to_host")
        out = np.empty(self.shape, self.dtype)
        _check(N.kcrt().kcrt_image_read(self._h, out.ctypes.data), "Image.copy_to_host")
        return out

    def free(self):
        """Releases the image now (else when it is garbage collected), and with it the
        textures and surfaces made over it (kcc.Texture, kcc.Surface), which are then freed
        (using one raises ValueError)."""
        h, self._h = getattr(self, "_h", None), None
        deps = getattr(self, "_deps", None)
        if h and N._kcrt is not None:
            for d, free in list(deps.items()):
                getattr(N._kcrt, free)(d)
            deps.clear()
            N._kcrt.kcrt_image_free(h)

    __del__ = free

    def __repr__(self):
        dims = "x".join(str(s) for s in (self.width, self.height, self.depth) if s)
        if self.array_size:
            dims += ", %d layers" % self.array_size
        return "<kcc.Image %s %s %s %s on %s%s>" % (
            self.image_type, dims, self.order, self.channel_type, self.device.name,
            " (freed)" if self._h is None else "")

    def __array__(self, dtype=None, copy=None):
        """Refused, as DeviceArray's: img.copy_to_host() is the host copy."""
        raise TypeError("a kcc.Image is in device memory: np.asarray() cannot read it; use "
                        "img.copy_to_host() for a numpy array")


_ADDRESSING = {"none": 0, "clamp_to_edge": 1, "clamp": 2, "repeat": 3, "mirrored_repeat": 4}
_FILTERS = {"nearest": 0, "linear": 1}


class Sampler:
    """An OpenCL sampler for a `.cl` kernel's sampler_t parameter: normalized coordinates
    (True: [0, 1) across the image) or not, the addressing ('none', 'clamp_to_edge',
    'clamp', 'repeat', 'mirrored_repeat'; the repeats need normalized coordinates) and the
    filter ('nearest', 'linear'). Samplers a kernel declares itself (`__constant sampler_t s
    = ...`) need none."""

    def __init__(self, normalized=False, addressing="clamp_to_edge", filter="nearest",
                 device=None):
        self._h = None
        if addressing not in _ADDRESSING:
            raise ValueError("kcc.Sampler: addressing %r is not one of %s"
                             % (addressing, ", ".join(repr(a) for a in _ADDRESSING)))
        if filter not in _FILTERS:
            raise ValueError("kcc.Sampler: filter %r is not 'nearest' or 'linear'" % (filter,))
        if addressing in ("repeat", "mirrored_repeat") and not normalized:
            raise ValueError("kcc.Sampler: %s addressing needs normalized coordinates "
                             "(normalized=True), as OpenCL defines it" % addressing)
        self.normalized = bool(normalized)
        self.addressing = addressing
        self.filter = filter
        self.device = device or get_device()
        h = ctypes.c_void_p()
        _check(N.kcrt().kcrt_sampler_create(self.device._open(), int(self.normalized),
                                            _ADDRESSING[addressing], _FILTERS[filter],
                                            ctypes.byref(h)),
               "kcc.Sampler on %s" % self.device.name)
        self._h = h.value

    def free(self):
        """Releases the sampler now (else when it is garbage collected)."""
        h, self._h = getattr(self, "_h", None), None
        if h and N._kcrt is not None:
            N._kcrt.kcrt_sampler_free(h)

    __del__ = free

    def __repr__(self):
        return "<kcc.Sampler %s %s%s on %s%s>" % (
            self.filter, self.addressing, " normalized" if self.normalized else "",
            self.device.name, " (freed)" if self._h is None else "")


# CUDA's address modes (cudaTextureDesc.addressMode) as kcrt_addressing: clamp is OpenCL's
# CLAMP_TO_EDGE, border its CLAMP, wrap REPEAT, mirror MIRRORED_REPEAT. A texture speaks
# CUDA's words, as the kernel that reads it does; 'clamp' means the edge texel there, the
# border colour in OpenCL (kcc.Sampler), so the two sets are not mixed.
_TEX_ADDRESSING = {"clamp": 1, "border": 2, "wrap": 3, "mirror": 4}
_OPENCL_ADDRESSING = {"clamp_to_edge": "clamp", "repeat": "wrap",
                      "mirrored_repeat": "mirror", "none": "clamp"}
_READ_MODES = {"element": 0, "normalized_float": 1}  # kcrt_read_mode
_NORMALIZED_CHANNELS = ("unorm_int8", "unorm_int16", "snorm_int8", "snorm_int16")
_FLOAT_CHANNELS = _NORMALIZED_CHANNELS + ("half_float", "float")
_TEXEL_ORDERS = ("R", "RG", "RGBA")  # a CUDA texel's 1, 2 or 4 components


class _TextureDesc(ctypes.Structure):  # kcrt_texture_desc
    _fields_ = [("addressing", ctypes.c_int), ("filter", ctypes.c_int),
                ("normalized", ctypes.c_int), ("read_mode", ctypes.c_int)]


class _TexObj:
    """What kcc.Texture and kcc.Surface share: the image, its device, the lifetime."""

    _what = _free = None

    def _over(self, image, device):
        """Checks the image (a live kcc.Image of a CUDA texel's order) and the device."""
        cls = type(self).__name__
        self._h = None
        if not isinstance(image, Image):
            what = ("a numpy array" if type(image).__module__ == "numpy" and
                    hasattr(image, "shape") else type(image).__name__)
            raise TypeError("kcc.%s: takes a kcc.Image (kcc.Image(array) makes one), not %s"
                            % (cls, what))
        if image._h is None:
            raise ValueError("kcc.%s: the image was freed (img.free())" % cls)
        if device is not None and device is not image.device:
            raise ValueError("kcc.%s: the image is on device %d (%s), not on device %d (%s); "
                             "a %s is made on its image's device"
                             % (cls, image.device.index, image.device.name, device.index,
                                device.name, self._what))
        if image.order not in _TEXEL_ORDERS:
            raise ValueError("kcc.%s: the image's channel order is %s; a CUDA texel has 1, 2 or "
                             "4 components (order 'R', 'RG' or 'RGBA')" % (cls, image.order))
        self.image = image
        self.device = image.device

    def _made(self, h):
        self._h = h.value
        self.image._deps[self._h] = self._free

    def _alive(self, where):
        """Raises ValueError when the object, or its image, was freed."""
        if self._h is None:
            raise ValueError("%s: the %s was freed" % (where, self._what))
        if self.image._h is None:
            raise ValueError("%s: the %s's image was freed (which frees its textures and "
                             "surfaces)" % (where, self._what))

    def free(self):
        """Releases the object now (else when it is garbage collected; freeing its image
        frees it too). The image stays."""
        h, self._h = getattr(self, "_h", None), None
        img = getattr(self, "image", None)
        # Freed already when its image was (the image's free() emptied _deps).
        if h and img is not None and img._deps.pop(h, None) and N._kcrt is not None:
            getattr(N._kcrt, self._free)(h)

    __del__ = free

    @property
    def freed(self):
        """Whether the object (or its image) was freed."""
        return self._h is None or self.image._h is None

    def _image_words(self):
        img = self.image
        dims = "x".join(str(s) for s in (img.width, img.height, img.depth) if s)
        if img.array_size:
            dims += ", %d layers" % img.array_size
        return "%s %s %s %s" % (img.image_type, dims, img.order, img.channel_type)


class Texture(_TexObj):
    """A CUDA texture object over a kcc.Image, for a `.cu` kernel's cudaTextureObject_t
    parameter (tex1Dfetch, tex1D, tex2D, tex3D, tex2DLod, tex1DLayered, tex2DLayered...):
    cudaCreateTextureObject's resource and texture descriptions in one. `addressing`:
    CUDA's address mode for every dimension, 'clamp' (the edge texel), 'border' (zeros),
    'wrap' or 'mirror' (these two need normalized coordinates); `filter` 'nearest' (CUDA's
    point) or 'linear' (channels read as float only); `normalized`: coordinates in [0, 1)
    (normalizedCoords); `read_mode`: 'normalized_float' (cudaReadModeNormalizedFloat: 8- and
    16-bit integer channels read as [0, 1] or [-1, 1], a kcc.Image made with the default
    normalized=True) or 'element' (cudaReadModeElementType: integers as they are, from an
    image made with normalized=False; half and float channels), or None for the one the
    image's channel type implies (libkcrt takes no other). The kernel reads the image as the
    type its calls name: tex2D a '2d' image, tex1Dfetch a '1d_buffer' one, tex2DLayered a
    '2d_array' one... The texture keeps its image alive; img.free() frees it."""

    _what = "texture"
    _free = "kcrt_texture_free"

    def __init__(self, image, addressing="clamp", filter="nearest", normalized=False,
                 read_mode=None, device=None):
        self._over(image, device)
        if addressing not in _TEX_ADDRESSING:
            hint = ""
            if addressing in _OPENCL_ADDRESSING:
                hint = (" ('%s' is OpenCL's name, kcc.Sampler's; CUDA's is '%s')"
                        % (addressing, _OPENCL_ADDRESSING[addressing]))
            raise ValueError("kcc.Texture: addressing %r is not one of 'clamp', 'border', "
                             "'wrap', 'mirror'%s" % (addressing, hint))
        if filter not in _FILTERS:
            hint = " (CUDA's point filtering is 'nearest')" if filter == "point" else ""
            raise ValueError("kcc.Texture: filter %r is not 'nearest' or 'linear'%s"
                             % (filter, hint))
        ch = image.channel_type
        implied = "normalized_float" if ch in _NORMALIZED_CHANNELS else "element"
        if read_mode is None:
            read_mode = implied
        if read_mode not in _READ_MODES:
            raise ValueError("kcc.Texture: read_mode %r is not 'element' or 'normalized_float'"
                             % (read_mode,))
        if read_mode != implied:
            if implied == "element":
                why = ("%s channels read as their own type: read_mode='element'%s"
                       % (ch, "; for normalized floats make the image with "
                          "normalized=True" if image.dtype.itemsize < 4 and
                          image.dtype.kind in "iu" else ""))
            else:
                why = ("%s channels are normalized: they read as floats "
                       "(read_mode='normalized_float'); for the integers make the image with "
                       "kcc.Image(array, normalized=False)" % ch)
            raise ValueError("kcc.Texture: read_mode %r does not fit the image: %s"
                             % (read_mode, why))
        if filter == "linear" and ch not in _FLOAT_CHANNELS:
            raise ValueError("kcc.Texture: linear filtering of %s channels; CUDA and OpenCL "
                             "filter only texels read as float (normalized 8- and 16-bit, "
                             "float16, float32 channels)" % ch)
        if addressing in ("wrap", "mirror") and not normalized:
            raise ValueError("kcc.Texture: %s addressing needs normalized coordinates "
                             "(normalized=True), as CUDA defines it" % addressing)
        self.addressing = addressing
        self.filter = filter
        self.normalized = bool(normalized)
        self.read_mode = read_mode
        d = _TextureDesc(_TEX_ADDRESSING[addressing], _FILTERS[filter], int(self.normalized),
                         _READ_MODES[read_mode])
        h = ctypes.c_void_p()
        _check(N.kcrt().kcrt_texture_create(self.device._open(), image._h, ctypes.byref(d),
                                            ctypes.byref(h)),
               "kcc.Texture over a %s image on %s" % (self._image_words(), self.device.name))
        self._made(h)

    def __repr__(self):
        return "<kcc.Texture %s %s%s %s over %s on %s%s>" % (
            self.filter, self.addressing, " normalized" if self.normalized else "",
            self.read_mode, self._image_words(), self.device.name,
            " (freed)" if self.freed else "")


class Surface(_TexObj):
    """A CUDA surface object over a kcc.Image, for a `.cu` kernel's cudaSurfaceObject_t
    parameter (surf1Dread/write, surf2D..., surf3D..., the layered forms; x in bytes): the
    raw texels, so the image's channels are integers (normalized=False for 8- and 16-bit
    ones), float16 or float32, and it is not a '1d_buffer' image (CUDA has no surface over
    linear memory). The surface keeps its image alive; img.free() frees it."""

    _what = "surface"
    _free = "kcrt_surface_free"

    def __init__(self, image, device=None):
        self._over(image, device)
        if image.channel_type in _NORMALIZED_CHANNELS:
            raise ValueError("kcc.Surface: the image's channels are %s (normalized); a surface "
                             "holds raw texels: make the image with kcc.Image(array, "
                             "normalized=False)" % image.channel_type)
        if image.image_type == "1d_buffer":
            raise ValueError("kcc.Surface: a 1d_buffer image; CUDA has no surface over linear "
                             "memory (tex1Dfetch reads one through a kcc.Texture)")
        h = ctypes.c_void_p()
        _check(N.kcrt().kcrt_surface_create(self.device._open(), image._h, ctypes.byref(h)),
               "kcc.Surface over a %s image on %s" % (self._image_words(), self.device.name))
        self._made(h)

    def __repr__(self):
        return "<kcc.Surface over %s on %s%s>" % (self._image_words(), self.device.name,
                                                  " (freed)" if self.freed else "")


def texobj_setter(p, arg, where, dev):
    """The argument setter of a texture or surface object parameter (a `.cu` kernel's
    cudaTextureObject_t, cudaSurfaceObject_t; kcc._core.Kernel._setter)."""
    store = ctypes.c_void_p()
    keep = [None]  # the object the slot holds: alive until the next launch replaces it
    cls = Texture if p.kind == 9 else Surface
    # The slot points at `store` from the start: kcc._fastlaunch writes a handle there itself
    # (P_TEXOBJ), without calling this setter.
    arg.value = ctypes.addressof(store)
    arg.size = ctypes.sizeof(store)
    arg.buffer = None

    def set_texobj(a):
        if not isinstance(a, cls):
            hint = (" (kcc.Texture(image, addressing, filter, normalized) makes one)"
                    if cls is Texture else " (kcc.Surface(image) makes one)")
            if type(a).__module__ == "numpy" and hasattr(a, "shape"):
                what = "a numpy array"
            elif isinstance(a, (_TexObj, Image, Sampler)):
                what = "a kcc.%s" % type(a).__name__
            else:
                what = type(a).__name__
            raise TypeError("%s takes a kcc.%s%s, not %s" % (where, cls.__name__, hint, what))
        a._alive(where)
        _pass_handle(a, a._what, where, dev, store, keep, arg)
    return set_texobj


def image_setter(p, arg, where, dev):
    """The argument setter of an image or sampler parameter (kcc._core.Kernel._setter)."""
    store = ctypes.c_void_p()
    keep = [None]  # the object the slot holds: alive until the next launch replaces it
    image = p.kind == 7
    want_type = None
    if image:
        for word in p.ctype.split():
            want_type = _C_TYPE_NAMES.get(word, want_type)

    def set_image(a):
        cls = Image if image else Sampler
        if not isinstance(a, cls):
            hint = (" (kcc.Image(array) makes one)" if image else
                    " (kcc.Sampler(normalized, addressing, filter))")
            what = ("a numpy array" if type(a).__module__ == "numpy" and hasattr(a, "shape")
                    else type(a).__name__)
            raise TypeError("%s takes a kcc.%s%s, not %s" % (where, cls.__name__, hint, what))
        if a._h is None:
            raise ValueError("%s: the %s was freed" % (where, "image" if image else "sampler"))
        if image and want_type and a.image_type != want_type and a.device is dev:
            raise TypeError("%s: the image is a %s image (%s), the kernel's parameter an %s"
                            % (where, a.image_type, a._ctype, _TYPES[want_type][1]))
        _pass_handle(a, "image" if image else "sampler", where, dev, store, keep, arg)
    return set_image


def _pass_handle(a, what, where, dev, store, keep, arg):
    """A launch argument passed by its libkcrt handle: a's, once it is on the kernel's device
    (`what` names it in the error); the slot keeps a until another launch replaces it."""
    if a.device is not dev:
        raise ValueError("%s: the %s is on device %d (%s), the kernel on %d (%s)"
                         % (where, what, a.device.index, a.device.name, dev.index, dev.name))
    store.value = a._h
    keep[0] = a
    arg.value = ctypes.addressof(store)
    arg.size = ctypes.sizeof(store)
    arg.buffer = None


if N.fast:  # the C launch path passes these by their handle (fastlaunch.c, P_TEXOBJ)
    N.fast.register_texobj(Texture, Surface)
