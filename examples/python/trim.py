"""Thin ctypes binding of libtrim's C API.

Load the shared library (``TRIM_LIBRARY`` or ``build/lib/libtrim.so`` next to
this repository), then use the classes below. Every failing call raises
:class:`TrimError` carrying the library's message ("file:line:col: key: ...").
Handles are freed when their Python object is collected, or explicitly with
``close()`` / a ``with`` block.

    from trim import Network, Workloads
    with Network("models/networks/alexnet.yaml") as net:
        w = Workloads(net, mode="training")
        print(len(w), w.totals()["peak_cached_bytes"])
"""
import ctypes
import json
import os

_HERE = os.path.dirname(os.path.abspath(__file__))
_DEFAULT = os.path.join(_HERE, "..", "..", "build", "lib", "libtrim.so")

MODES = {"default": -1, "inference": 0, "training": 1}
PHASES = {"FW": 0, "BW": 1, "WG": 2}
FORMATS = {"table": 0, "json": 1, "csv": 2, "yaml": 3}
DIMS = "NGMCEFRS"

_c_int64 = ctypes.c_int64
_vp = ctypes.c_void_p


class TrimError(Exception):
    """An error reported by libtrim: ``code`` (negative TRIM_E*) and ``message``."""

    def __init__(self, code, message):
        super().__init__(message or "libtrim error %d" % code)
        self.code = code
        self.message = message


def _load(path=None):
    path = path or os.environ.get("TRIM_LIBRARY") or _DEFAULT
    lib = ctypes.CDLL(path)
    sig = {
        "trim_version_string": (ctypes.c_char_p, []),
        "trim_last_error": (ctypes.c_char_p, []),
        "trim_strerror": (ctypes.c_char_p, [ctypes.c_int]),
        "trim_string_free": (None, [_vp]),
        "trim_network_load": (ctypes.c_int, [ctypes.POINTER(_vp), ctypes.c_char_p]),
        "trim_network_load_string": (ctypes.c_int, [ctypes.POINTER(_vp), ctypes.c_char_p, ctypes.c_char_p]),
        "trim_network_free": (None, [_vp]),
        "trim_network_name": (ctypes.c_char_p, [_vp]),
        "trim_network_params": (_c_int64, [_vp]),
        "trim_network_macs": (_c_int64, [_vp]),
        "trim_network_layer_count": (ctypes.c_size_t, [_vp]),
        "trim_network_layer_name": (ctypes.c_char_p, [_vp, ctypes.c_size_t]),
        "trim_network_layer_type": (ctypes.c_char_p, [_vp, ctypes.c_size_t]),
        "trim_network_layer_shape": (ctypes.c_int, [_vp, ctypes.c_size_t, ctypes.POINTER(_c_int64), ctypes.c_size_t]),
        "trim_workloads_create": (ctypes.c_int, [ctypes.POINTER(_vp), _vp, ctypes.c_int, _c_int64, ctypes.c_int]),
        "trim_workloads_free": (None, [_vp]),
        "trim_workloads_intra_count": (ctypes.c_size_t, [_vp]),
        "trim_workloads_inter_count": (ctypes.c_size_t, [_vp]),
        "trim_workloads_intra_layer": (ctypes.c_char_p, [_vp, ctypes.c_size_t]),
        "trim_workloads_intra_phase": (ctypes.c_int, [_vp, ctypes.c_size_t]),
        "trim_workloads_intra_bounds": (ctypes.c_int, [_vp, ctypes.c_size_t, ctypes.POINTER(_c_int64), ctypes.c_size_t]),
        "trim_workloads_intra_macs": (_c_int64, [_vp, ctypes.c_size_t]),
        "trim_workloads_intra_zero_macs": (_c_int64, [_vp, ctypes.c_size_t]),
        "trim_workloads_find": (ctypes.c_int, [_vp, ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(ctypes.c_size_t)]),
        "trim_workloads_peak_cached_bytes": (_c_int64, [_vp]),
        "trim_workloads_report": (ctypes.c_int, [_vp, ctypes.c_int, ctypes.POINTER(_vp)]),
    }
    for name, (res, args) in sig.items():
        fn = getattr(lib, name)
        fn.restype = res
        fn.argtypes = args
    return lib


_lib = None


def lib():
    """The loaded shared library (loaded on first use)."""
    global _lib
    if _lib is None:
        _lib = _load()
    return _lib


def version():
    return lib().trim_version_string().decode()


def _check(rc):
    if rc != 0:
        msg = lib().trim_last_error().decode(errors="replace")
        raise TrimError(rc, msg or lib().trim_strerror(rc).decode())
    return rc


def _take_string(ptr):
    """Copy library-owned text and free it."""
    try:
        return ctypes.string_at(ptr).decode()
    finally:
        lib().trim_string_free(ptr)


class _Handle:
    _free = None

    def __init__(self):
        self._h = _vp()

    def close(self):
        if self._h and self._h.value:
            getattr(lib(), self._free)(self._h)
            self._h = _vp()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @property
    def handle(self):
        if not self._h.value:
            raise TrimError(-2, "the handle is closed")
        return self._h


class Network(_Handle):
    """A network description (``trim_network``)."""

    _free = "trim_network_free"

    def __init__(self, path=None, text=None, name="<string>"):
        super().__init__()
        if text is not None:
            _check(lib().trim_network_load_string(ctypes.byref(self._h), text.encode(), name.encode()))
        else:
            _check(lib().trim_network_load(ctypes.byref(self._h), os.fsencode(path)))

    @property
    def name(self):
        return lib().trim_network_name(self.handle).decode()

    @property
    def params(self):
        return lib().trim_network_params(self.handle)

    @property
    def macs(self):
        return lib().trim_network_macs(self.handle)

    def layers(self):
        """[(name, type, (H, W, C)), ...]"""
        out = []
        shape = (_c_int64 * 3)()
        for i in range(lib().trim_network_layer_count(self.handle)):
            _check(lib().trim_network_layer_shape(self.handle, i, shape, 3))
            out.append((lib().trim_network_layer_name(self.handle, i).decode(),
                        lib().trim_network_layer_type(self.handle, i).decode(), tuple(shape)))
        return out


class Workloads(_Handle):
    """The task analyst's workloads of a network (``trim_workloads``)."""

    _free = "trim_workloads_free"

    def __init__(self, network, mode="default", batch=0, word_bits=0):
        super().__init__()
        if mode not in MODES:
            raise ValueError("mode must be one of %s" % ", ".join(MODES))
        _check(lib().trim_workloads_create(ctypes.byref(self._h), network.handle, MODES[mode],
                                           batch, word_bits))

    def __len__(self):
        return lib().trim_workloads_intra_count(self.handle)

    def intra(self, i):
        """Intra workload i as a dict: layer, phase, bounds, macs, zero_macs."""
        if not 0 <= i < len(self):
            raise IndexError(i)
        b = (_c_int64 * 8)()
        _check(lib().trim_workloads_intra_bounds(self.handle, i, b, 8))
        phase = lib().trim_workloads_intra_phase(self.handle, i)
        return {
            "layer": lib().trim_workloads_intra_layer(self.handle, i).decode(),
            "phase": "FW BW WG".split()[phase],
            "bounds": dict(zip(DIMS, b)),
            "macs": lib().trim_workloads_intra_macs(self.handle, i),
            "zero_macs": lib().trim_workloads_intra_zero_macs(self.handle, i),
        }

    def find(self, layer, phase):
        idx = ctypes.c_size_t()
        _check(lib().trim_workloads_find(self.handle, layer.encode(), PHASES[phase], ctypes.byref(idx)))
        return idx.value

    def report(self, fmt="json"):
        ptr = _vp()
        _check(lib().trim_workloads_report(self.handle, FORMATS[fmt], ctypes.byref(ptr)))
        return _take_string(ptr)

    def totals(self):
        return json.loads(self.report("json"))["totals"]
