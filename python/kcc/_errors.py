"""kcc's exceptions: one class per libkcc and libkcrt status, all under kcc.Error."""


class Error(Exception):
    """Base of every error kcc raises (besides TypeError/ValueError/OverflowError for
    arguments that Python itself would reject)."""

    status = None  # the C status name, e.g. "KCRT_ERROR_INVALID_LAUNCH"


# ---------------------------------------------------------------- libkcc (compiling)

class CompileError(Error):
    """The source has errors. .log holds the diagnostics exactly as kcc prints them."""

    status = "KCC_ERROR_COMPILE"

    def __init__(self, log, name=None):
        self.log = log
        self.name = name
        super().__init__(log.rstrip("\n") or "compile error")


class InvalidOptionError(CompileError, ValueError):
    """An option kcc does not take (the log names it)."""

    status = "KCC_ERROR_INVALID_OPTION"


# ---------------------------------------------------------------- libkcrt (running)

class KcrtError(Error):
    """A libkcrt call failed. .message is kcrt_last_error()'s text, .status the status name."""

    def __init__(self, message, status=None):
        self.message = message
        if status:
            self.status = status
        super().__init__(message)


def _cls(name, status, doc, *bases):
    c = type(name, (KcrtError,) + bases, {"__doc__": doc, "status": status})
    c.__module__ = "kcc"
    return c


NoDeviceError = _cls("NoDeviceError", "KCRT_ERROR_NO_DEVICE",
                     "No usable device, or none matches the request.")
InvalidValueError = _cls("InvalidValueError", "KCRT_ERROR_INVALID_VALUE",
                         "A bad handle, index or size.", ValueError)
OutOfMemoryError = _cls("OutOfMemoryError", "KCRT_ERROR_OUT_OF_MEMORY",
                        "A host or device allocation failed.", MemoryError)
InvalidModuleError = _cls("InvalidModuleError", "KCRT_ERROR_INVALID_MODULE",
                          "Not a bundle, damaged, or an unsupported version.")
KernelNotFoundError = _cls("KernelNotFoundError", "KCRT_ERROR_KERNEL_NOT_FOUND",
                           "No kernel of that name in the module.", AttributeError)
InvalidArgumentError = _cls("InvalidArgumentError", "KCRT_ERROR_INVALID_ARGUMENT",
                            "Launch arguments that do not match the kernel's parameters.",
                            TypeError)
InvalidLaunchError = _cls("InvalidLaunchError", "KCRT_ERROR_INVALID_LAUNCH",
                          "Grid, block or shared memory beyond the device's limits (the "
                          "message names the limit).", ValueError)
BuildFailedError = _cls("BuildFailedError", "KCRT_ERROR_BUILD_FAILED",
                        "The driver rejected the module (its log is in the message).")
NoBinaryError = _cls("NoBinaryError", "KCRT_ERROR_NO_BINARY",
                     "The bundle has no form this device can load.")
DriverError = _cls("DriverError", "KCRT_ERROR_DRIVER", "Another driver failure.")
KcrtIOError = _cls("KcrtIOError", "KCRT_ERROR_IO", "A file could not be read.", OSError)
NotSupportedError = _cls("NotSupportedError", "KCRT_ERROR_NOT_SUPPORTED",
                         "The device or back end cannot do this.")
LaunchFailedError = _cls("LaunchFailedError", "KCRT_ERROR_LAUNCH_FAILED",
                         "A kernel faulted while running (reported at a synchronisation).")
SymbolNotFoundError = _cls("SymbolNotFoundError", "KCRT_ERROR_SYMBOL_NOT_FOUND",
                           "No host-filled variable of that name in the module.",
                           AttributeError)


class OutOfBoundsError(KcrtError):
    """A kernel compiled with -fbounds-check (the default on CPU devices, docs/python.md) made
    an out-of-bounds access, which was not performed. Raised by the launch that made it when
    the launch waits for the kernel (numpy arrays copied back), else by the next call that
    waits (kcc.synchronize(), copy_to_host...). .kernel names the kernel; the message gives
    the source line, the thread, the buffer, the index and the buffer's size."""

    status = "KCRT_ERROR_OUT_OF_BOUNDS"

    def __init__(self, message, status=None):
        super().__init__(message, status)
        i = message.find("kernel '")
        j = message.find("'", i + 8) if i >= 0 else -1
        self.kernel = message[i + 8:j] if j > 0 else None


OutOfBoundsError.__module__ = "kcc"


class KccWarning(UserWarning):
    """A warning of the kcc compiler (issued by kcc.compile through Python's warnings module,
    at the kernel source's file and line; the whole log is mod.log)."""


KccWarning.__module__ = "kcc"

_BY_STATUS = {
    1: NoDeviceError, 2: InvalidValueError, 3: OutOfMemoryError, 4: InvalidModuleError,
    5: KernelNotFoundError, 6: InvalidArgumentError, 7: InvalidLaunchError,
    8: BuildFailedError, 9: NoBinaryError, 10: DriverError, 11: KcrtIOError,
    12: NotSupportedError, 13: LaunchFailedError, 14: SymbolNotFoundError, 15: OutOfBoundsError,
}


def kcrt_error(lib, status, context=None, message=None):
    """The exception for a failed libkcrt call: its class by status, kcrt_last_error()'s text
    (or `message`, that text fetched by the thread that made the call), prefixed with
    `context` when given."""
    msg = message if message is not None else \
        (lib.kcrt_last_error() or b"").decode("utf-8", "replace")
    name = (lib.kcrt_status_name(status) or b"").decode()
    if not msg:
        msg = name
    if context:
        msg = "%s: %s" % (context, msg)
    cls = _BY_STATUS.get(status, KcrtError)
    return cls(msg, name)
