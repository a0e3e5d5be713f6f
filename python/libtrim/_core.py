"""The core of the binding: loading libtrim, the C signatures, errors, the
handle base class, networks and workloads."""
import ctypes
import json
import os

from ._rows import Rows, html_table


MODES = {"default": -1, "inference": 0, "training": 1}
PHASES = {"FW": 0, "BW": 1, "WG": 2}
FORMATS = {"table": 0, "json": 1, "csv": 2, "yaml": 3}
DIMS = "NGMCEFRS"

_c_int64 = ctypes.c_int64
_vp = ctypes.c_void_p
_pvp = ctypes.POINTER(_vp)
_str = ctypes.c_char_p
_p_int64 = ctypes.POINTER(_c_int64)
_p_double = ctypes.POINTER(ctypes.c_double)

# Codes of include/trim/common.h used by the binding itself.
TRIM_EINVAL = -2
TRIM_ENOTFOUND = -7
TRIM_ERANGE = -9


_SONAME = "libtrim.so.0"
_INT_RANGES = {
    ctypes.c_int: (-2 ** 31, 2 ** 31 - 1, "int"),
    ctypes.c_int64: (-2 ** 63, 2 ** 63 - 1, "int64_t"),
    ctypes.c_uint64: (0, 2 ** 64 - 1, "uint64_t"),
    ctypes.c_size_t: (0, 2 ** (8 * ctypes.sizeof(ctypes.c_size_t)) - 1, "size_t"),
}


def _library_candidates():
    """Where libtrim is looked for, in order (TRIM_LIBRARY first)."""
    out = []
    env = os.environ.get("TRIM_LIBRARY")
    if env:
        return [env]
    here = os.path.dirname(os.path.abspath(__file__))
    # the copy the package was built with (python/setup.py: pip install
    # ./python or make wheel after make), then next to an installed package:
    # PREFIX/lib/python3.X/dist-packages/libtrim -> PREFIX/lib; in the source
    # tree python/libtrim -> build/lib
    out.append(os.path.join(here, "lib", _SONAME))
    d = here
    for _ in range(5):
        d = os.path.dirname(d)
        for sub in ("", "lib", os.path.join("build", "lib")):
            out.append(os.path.join(d, sub, _SONAME))
    return out


def find_library():
    """The path of the libtrim shared library this package loads:
    ``$TRIM_LIBRARY`` if set, else the copy inside the package (``libtrim/lib``:
    ``pip install ./python`` or a wheel of ``make wheel`` from a built tree
    carries it), else the first ``libtrim.so.0`` found next to the installed
    package (PREFIX/lib for PREFIX/lib/python3*/...), else the dynamic loader's
    (``ldconfig``, ``LD_LIBRARY_PATH``), else a source tree's build/lib. OSError
    names the places tried."""
    cands = _library_candidates()
    if os.environ.get("TRIM_LIBRARY"):
        return cands[0]
    seen = []
    for c in cands:
        c = os.path.normpath(c)
        if c in seen:
            continue
        seen.append(c)
        if os.path.isfile(c):
            return c
    try:
        ctypes.CDLL(_SONAME)
        return _SONAME
    except OSError:
        pass
    raise OSError("libtrim: cannot find %s (tried %s and the dynamic loader's path); install "
                  "libtrim (make install), build it before pip install ./python (which then bundles it) "
                  "or set TRIM_LIBRARY" % (_SONAME, ", ".join(seen)))


class _CheckedFunction:
    """A C function whose integer and string arguments are checked before the
    call: ctypes would wrap an integer modulo 2**N and cut a string at its
    first NUL byte, passing a different value silently."""

    __slots__ = ("fn", "name", "argtypes")

    def __init__(self, fn, name, argtypes):
        self.fn, self.name, self.argtypes = fn, name, argtypes

    def __call__(self, *args):
        for k, (a, t) in enumerate(zip(args, self.argtypes)):
            if isinstance(a, int) and t in _INT_RANGES:
                lo, hi, cname = _INT_RANGES[t]
                if not lo <= a <= hi:
                    raise OverflowError("%s: argument %d = %d does not fit %s [%d, %d]"
                                        % (self.name, k + 1, a, cname, lo, hi))
            elif isinstance(a, bytes) and t is ctypes.c_char_p and b"\0" in a:
                raise ValueError("%s: argument %d contains a NUL byte (C text ends there): %r"
                                 % (self.name, k + 1, a[:60]))
        return self.fn(*args)


class _CheckedLibrary:
    """The loaded library: each declared function as a _CheckedFunction."""

    def __init__(self, cdll, path, sig):
        self._cdll = cdll
        self._path = path
        for name, (res, args) in sig.items():
            fn = getattr(cdll, name)
            fn.restype = res
            fn.argtypes = args
            setattr(self, name, _CheckedFunction(fn, name, args))

    def __repr__(self):
        return "<libtrim shared library %s>" % self._path


class TrimError(Exception):
    """An error reported by libtrim: ``code`` (negative TRIM_E*) and ``message``."""

    def __init__(self, code, message):
        super().__init__(message or "libtrim error %d" % code)
        self.code = code
        self.message = message


def _load(path=None):
    path = path or find_library()
    lib = ctypes.CDLL(path)
    sig = {
        "trim_version_string": (ctypes.c_char_p, []),
        "trim_last_error": (ctypes.c_char_p, []),
        "trim_strerror": (ctypes.c_char_p, [ctypes.c_int]),
        "trim_string_free": (None, [_vp]),
        "trim_version_number": (ctypes.c_int, []),
        "trim_data_find": (ctypes.c_int, [_str, _pvp]),
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
        # arch.h
        "trim_arch_load": (ctypes.c_int, [_pvp, _str]),
        "trim_arch_load_string": (ctypes.c_int, [_pvp, _str, _str]),
        "trim_arch_clone": (ctypes.c_int, [_pvp, _vp]),
        "trim_arch_free": (None, [_vp]),
        "trim_arch_name": (_str, [_vp]),
        "trim_arch_file": (_str, [_vp]),
        "trim_arch_technology": (_str, [_vp]),
        "trim_arch_clock_mhz": (ctypes.c_double, [_vp]),
        "trim_arch_word_bits": (ctypes.c_int, [_vp]),
        "trim_arch_total_pes": (_c_int64, [_vp]),
        "trim_arch_level_count": (ctypes.c_int, [_vp]),
        "trim_arch_level_name": (_str, [_vp, ctypes.c_int]),
        "trim_arch_level_type": (ctypes.c_int, [_vp, ctypes.c_int]),
        "trim_arch_level_type_name": (_str, [ctypes.c_int]),
        "trim_arch_level_class": (_str, [_vp, ctypes.c_int]),
        "trim_arch_level_find": (ctypes.c_int, [_vp, _str]),
        "trim_arch_level_capacity": (_c_int64, [_vp, ctypes.c_int]),
        "trim_arch_level_instances": (_c_int64, [_vp, ctypes.c_int]),
        "trim_arch_level_word_bits": (ctypes.c_int, [_vp, ctypes.c_int]),
        "trim_arch_level_fanout": (ctypes.c_int, [_vp, ctypes.c_int, _p_int64, ctypes.c_size_t]),
        "trim_arch_report": (ctypes.c_int, [_vp, _vp, ctypes.c_int, _pvp]),
        "trim_arch_warnings": (ctypes.c_int, [_vp, _vp, _c_int64, ctypes.c_int, _pvp]),
        # energy.h
        "trim_energy_load": (ctypes.c_int, [_pvp, _str]),
        "trim_energy_load_string": (ctypes.c_int, [_pvp, _str, _str]),
        "trim_energy_load_accelergy": (ctypes.c_int, [_pvp, _str, _str]),
        "trim_energy_resolve": (ctypes.c_int, [_str, _str, _pvp]),
        "trim_energy_load_for_arch": (ctypes.c_int, [_pvp, _vp]),
        "trim_energy_free": (None, [_vp]),
        "trim_energy_name": (_str, [_vp]),
        "trim_energy_file": (_str, [_vp]),
        "trim_energy_is_fpga": (ctypes.c_int, [_vp]),
        "trim_energy_action": (ctypes.c_int, [_vp, _str, _str, ctypes.c_double, _c_int64, _p_double]),
        "trim_energy_lookup": (ctypes.c_int, [_vp, _str, _str, ctypes.c_double, _c_int64, ctypes.c_int,
                                              _p_double, ctypes.c_size_t]),
        "trim_energy_area": (ctypes.c_int, [_vp, _str, ctypes.c_double, _c_int64, _p_double]),
        "trim_energy_resources": (ctypes.c_int, [_vp, _vp, _p_double, ctypes.c_size_t]),
        "trim_energy_arch_area": (ctypes.c_int, [_vp, _vp, _p_double]),
        # space.h
        "trim_space_load": (ctypes.c_int, [_pvp, _str]),
        "trim_space_free": (None, [_vp]),
        "trim_space_name": (_str, [_vp]),
        "trim_space_grid_size": (ctypes.c_uint64, [_vp]),
        "trim_space_count": (ctypes.c_uint64, [_vp]),
        "trim_space_point_name": (_str, [_vp, ctypes.c_uint64]),
        "trim_space_point_grid_index": (ctypes.c_uint64, [_vp, ctypes.c_uint64]),
        "trim_space_find": (ctypes.c_int, [_vp, _str, ctypes.POINTER(ctypes.c_uint64)]),
        "trim_space_point_arch": (ctypes.c_int, [_vp, ctypes.c_uint64, _pvp]),
        "trim_space_point_area": (ctypes.c_double, [_vp, ctypes.c_uint64]),
        "trim_space_report": (ctypes.c_int, [_vp, ctypes.c_int, _pvp]),
        # sparsity.h
        "trim_sparsity_create": (ctypes.c_int, [_pvp, _vp, _vp]),
        "trim_sparsity_load_trace": (ctypes.c_int, [_vp, _str]),
        "trim_sparsity_free": (None, [_vp]),
        "trim_sparsity_set_default": (ctypes.c_int, [_vp, ctypes.c_double]),
        "trim_sparsity_workload": (ctypes.c_int, [_vp, ctypes.c_size_t, _p_double, ctypes.c_size_t]),
        "trim_sparsity_layer": (ctypes.c_int, [_vp, _str, ctypes.POINTER(ctypes.c_double)]),
        "trim_sparsity_imbalance": (ctypes.c_int, [_c_int64, ctypes.c_double, _c_int64,
                                                      ctypes.c_double, ctypes.c_double, ctypes.POINTER(ctypes.c_double)]),
        # fusion.h
        "trim_fusion_create": (ctypes.c_int, [_pvp, _vp, _str, _str]),
        "trim_fusion_free": (None, [_vp]),
        "trim_fusion_clone": (ctypes.c_int, [_pvp, _vp]),
        "trim_fusion_layer_count": (ctypes.c_size_t, [_vp]),
        "trim_fusion_layer_name": (_str, [_vp, ctypes.c_size_t]),
        "trim_fusion_layer_find": (ctypes.c_int, [_vp, _str]),
        "trim_fusion_layer_metrics": (ctypes.c_int, [_vp, ctypes.c_size_t, _p_double, ctypes.c_size_t]),
        "trim_fusion_set_param": (ctypes.c_int, [_vp, ctypes.c_int, ctypes.c_double]),
        "trim_fusion_get_param": (ctypes.c_int, [_vp, ctypes.c_int, _p_double]),
        "trim_fusion_param_name": (_str, [ctypes.c_int]),
        "trim_fusion_metric_name": (_str, [ctypes.c_int]),
        "trim_fusion_goal_name": (_str, [ctypes.c_int]),
        "trim_fusion_goal_from_name": (ctypes.c_int, [_str]),
        "trim_fusion_set_parallelism": (ctypes.c_int, [_vp, _str, _c_int64]),
        "trim_fusion_set_max_parallelism": (ctypes.c_int, [_vp, _c_int64]),
        "trim_fusion_set_hardware": (ctypes.c_int, [_vp, _vp, _vp]),
        "trim_fusion_hardware_name": (_str, [_vp]),
        "trim_fusion_evaluate": (ctypes.c_int, [_pvp, _vp, _str]),
        "trim_fusion_evaluate_cuts": (ctypes.c_int, [_pvp, _vp, ctypes.c_uint64]),
        "trim_fusion_plan_free": (None, [_vp]),
        "trim_fusion_plan_cuts": (ctypes.c_uint64, [_vp]),
        "trim_fusion_plan_group_count": (ctypes.c_size_t, [_vp]),
        "trim_fusion_plan_group": (ctypes.c_int, [_vp, ctypes.c_size_t, _p_int64, ctypes.c_size_t]),
        "trim_fusion_plan_metrics": (ctypes.c_int, [_vp, _p_double, ctypes.c_size_t]),
        "trim_fusion_plan_group_metrics": (ctypes.c_int, [_vp, ctypes.c_size_t, _p_double, ctypes.c_size_t]),
        "trim_fusion_plan_layer_times": (ctypes.c_int, [_vp, ctypes.c_size_t, _p_double, ctypes.c_size_t]),
        "trim_fusion_plan_report": (ctypes.c_int, [_vp, ctypes.c_int, _pvp]),
        "trim_fusion_explore": (ctypes.c_int, [_pvp, _vp, ctypes.c_int]),
        "trim_fusion_result_free": (None, [_vp]),
        "trim_fusion_result_considered": (ctypes.c_uint64, [_vp]),
        "trim_fusion_result_used_dp": (ctypes.c_int, [_vp]),
        "trim_fusion_result_plan_count": (ctypes.c_size_t, [_vp]),
        "trim_fusion_result_plan_cuts": (ctypes.c_uint64, [_vp, ctypes.c_size_t]),
        "trim_fusion_result_plan_metrics": (ctypes.c_int, [_vp, ctypes.c_size_t, _p_double, ctypes.c_size_t]),
        "trim_fusion_result_pareto_count": (ctypes.c_size_t, [_vp]),
        "trim_fusion_result_pareto": (ctypes.c_int, [_vp, ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t)]),
        "trim_fusion_result_best": (ctypes.c_int, [_vp, ctypes.POINTER(ctypes.c_size_t)]),
        "trim_fusion_result_layer_by_layer": (ctypes.c_int, [_vp, ctypes.POINTER(ctypes.c_size_t)]),
        "trim_fusion_result_report": (ctypes.c_int, [_vp, ctypes.c_int, _pvp]),
        # fusedtiles.h
        "trim_fusedtiles_report": (ctypes.c_int, [_vp, _vp, _vp, _vp, _str, _str, ctypes.c_int, ctypes.c_int,
                                                  ctypes.c_int, _pvp]),
        "trim_fusedtiles_report_within": (ctypes.c_int, [_vp, _vp, _vp, _vp, _str, _str, ctypes.c_int,
                                                         ctypes.c_int, ctypes.c_double, ctypes.c_int, _pvp]),
        # mapping.h
        "trim_mapping_create": (ctypes.c_int, [_pvp, _vp]),
        "trim_mapping_free": (None, [_vp]),
        "trim_mapping_clone": (ctypes.c_int, [_pvp, _vp]),
        "trim_mapping_levels": (ctypes.c_int, [_vp]),
        "trim_mapping_set_temporal": (ctypes.c_int, [_vp, ctypes.c_int, ctypes.c_int, _c_int64]),
        "trim_mapping_set_spatial": (ctypes.c_int, [_vp, ctypes.c_int, ctypes.c_int, _c_int64, _c_int64]),
        "trim_mapping_set_order": (ctypes.c_int, [_vp, ctypes.c_int, _str]),
        "trim_mapping_set_keep": (ctypes.c_int, [_vp, ctypes.c_int, ctypes.c_int, ctypes.c_int]),
        "trim_mapping_bound": (_c_int64, [_vp, ctypes.c_int, ctypes.c_int]),
        "trim_mapping_check": (ctypes.c_int, [_vp, _vp, ctypes.c_size_t, _vp]),
        "trim_mapping_load": (ctypes.c_int, [_pvp, _vp, _str]),
        "trim_mapping_load_string": (ctypes.c_int, [_pvp, _vp, _str, _str]),
        "trim_mapping_dump": (ctypes.c_int, [_vp, ctypes.c_int, _pvp]),
        # eval.h
        "trim_eval_mapping": (ctypes.c_int, [_pvp, _vp, ctypes.c_size_t, _vp, _vp, _vp]),
        "trim_eval_mapping_count": (ctypes.c_int, [_pvp, _vp, ctypes.c_size_t, _vp, _vp, _vp, ctypes.c_int]),
        "trim_eval_free": (None, [_vp]),
        "trim_eval_cycles": (ctypes.c_double, [_vp]),
        "trim_eval_energy_pj": (ctypes.c_double, [_vp]),
        "trim_eval_edp": (ctypes.c_double, [_vp]),
        "trim_eval_pe_utilization": (ctypes.c_double, [_vp]),
        "trim_eval_macs": (_c_int64, [_vp]),
        "trim_eval_zero_macs": (_c_int64, [_vp]),
        "trim_eval_padded_macs": (_c_int64, [_vp]),
        "trim_eval_pe_utilization_real": (ctypes.c_double, [_vp]),
        "trim_eval_bottleneck": (_str, [_vp]),
        "trim_eval_report": (ctypes.c_int, [_vp, ctypes.c_int, _pvp]),
        # search.h
        "trim_search_create": (ctypes.c_int, [_pvp, _vp, ctypes.c_size_t, _vp, _vp]),
        "trim_search_free": (None, [_vp]),
        "trim_search_set_int": (ctypes.c_int, [_vp, ctypes.c_int, _c_int64]),
        "trim_search_set_double": (ctypes.c_int, [_vp, ctypes.c_int, ctypes.c_double]),
        "trim_search_set_factor": (ctypes.c_int, [_vp, ctypes.c_int, ctypes.c_int, _c_int64]),
        "trim_search_size": (ctypes.c_double, [_vp]),
        "trim_search_distinct": (ctypes.c_double, [_vp]),
        "trim_search_progress": (ctypes.c_double, [_vp]),
        "trim_search_lower_bound": (ctypes.c_double, [_vp]),
        "trim_search_gap": (ctypes.c_double, [_vp]),
        "trim_search_exact": (ctypes.c_int, [_vp]),
        "trim_search_why_empty": (_str, [_vp]),
        "trim_search_run": (ctypes.c_int, [_vp]),
        "trim_search_counts": (ctypes.c_int, [_vp, _p_int64, ctypes.c_size_t]),
        "trim_search_best": (ctypes.c_int, [_vp, _pvp]),
        "trim_search_best_index": (ctypes.c_uint64, [_vp]),
        "trim_search_top_count": (ctypes.c_size_t, [_vp]),
        "trim_search_top": (ctypes.c_int, [_vp, ctypes.c_size_t, _p_double, ctypes.POINTER(ctypes.c_uint64)]),
        "trim_search_top_mapping": (ctypes.c_int, [_vp, ctypes.c_size_t, _pvp]),
        "trim_search_index_str": (ctypes.c_int, [_vp, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t]),
        "trim_search_report": (ctypes.c_int, [_vp, ctypes.c_int, _pvp]),
        "trim_search_set_constraints": (ctypes.c_int, [_vp, _vp]),
        # constraints.h
        "trim_constraints_create": (ctypes.c_int, [_pvp]),
        "trim_constraints_load": (ctypes.c_int, [_pvp, _str]),
        "trim_constraints_load_string": (ctypes.c_int, [_pvp, _str, _str]),
        "trim_constraints_clone": (ctypes.c_int, [_pvp, _vp]),
        "trim_constraints_free": (None, [_vp]),
        "trim_constraints_add_preset": (ctypes.c_int, [_vp, _str]),
        "trim_constraints_merge": (ctypes.c_int, [_vp, _vp]),
        "trim_constraints_preset_name": (_str, [ctypes.c_size_t]),
        "trim_constraints_preset_description": (_str, [ctypes.c_size_t]),
        "trim_constraints_count": (ctypes.c_size_t, [_vp]),
        "trim_constraints_preset_count": (ctypes.c_size_t, [_vp]),
        "trim_constraints_check": (ctypes.c_int, [_vp, _vp]),
        "trim_constraints_dump": (ctypes.c_int, [_vp, _vp, _pvp]),
        "trim_space_constraints": (_vp, [_vp]),
        "trim_neteval_set_constraints": (ctypes.c_int, [_vp, _vp]),
        "trim_explorer_set_constraints": (ctypes.c_int, [_vp, _vp]),
        "trim_explorer_set_fuse": (ctypes.c_int, [_vp, ctypes.c_char_p, ctypes.c_char_p]),
        # neteval.h
        "trim_neteval_create": (ctypes.c_int, [_pvp, _vp, _vp, _vp, _vp]),
        "trim_neteval_free": (None, [_vp]),
        "trim_neteval_set_int": (ctypes.c_int, [_vp, ctypes.c_int, _c_int64]),
        "trim_neteval_set_double": (ctypes.c_int, [_vp, ctypes.c_int, ctypes.c_double]),
        "trim_neteval_set_layers": (ctypes.c_int, [_vp, ctypes.c_char_p, ctypes.c_char_p]),
        "trim_neteval_load_trace": (ctypes.c_int, [_vp, _str]),
        "trim_neteval_step": (ctypes.c_int, [_vp, ctypes.POINTER(ctypes.c_int)]),
        "trim_neteval_run": (ctypes.c_int, [_vp]),
        "trim_neteval_done": (ctypes.c_size_t, [_vp]),
        "trim_neteval_progress": (ctypes.c_double, [_vp]),
        "trim_neteval_set_out_dir": (ctypes.c_int, [_vp, ctypes.c_char_p]),
        "trim_neteval_exact": (ctypes.c_int, [_vp, _p_double, _p_double]),
        "trim_neteval_resumed": (ctypes.c_int, [_vp, ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(ctypes.c_int64)]),
        "trim_neteval_count": (ctypes.c_size_t, [_vp]),
        "trim_neteval_cycles": (ctypes.c_double, [_vp]),
        "trim_neteval_energy_pj": (ctypes.c_double, [_vp]),
        "trim_neteval_static_pj": (ctypes.c_double, [_vp]),
        "trim_neteval_dense_cycles": (ctypes.c_double, [_vp]),
        "trim_neteval_dense_energy_pj": (ctypes.c_double, [_vp]),
        "trim_neteval_seconds": (ctypes.c_double, [_vp]),
        "trim_neteval_pe_utilization": (ctypes.c_double, [_vp]),
        "trim_neteval_level_energy": (ctypes.c_int, [_vp, _p_double, ctypes.c_size_t]),
        "trim_neteval_workload": (ctypes.c_int, [_vp, ctypes.c_size_t, _p_double, ctypes.c_size_t]),
        "trim_neteval_mapping": (ctypes.c_int, [_vp, ctypes.c_size_t, _pvp]),
        "trim_neteval_report": (ctypes.c_int, [_vp, ctypes.c_int, _pvp]),
        "trim_neteval_temporal_utilization": (ctypes.c_double, [_vp]),
        "trim_neteval_breakdown": (ctypes.c_int, [_vp, ctypes.c_size_t, _p_double, _p_double,
                                                  ctypes.c_size_t]),
        "trim_neteval_inter": (ctypes.c_int, [_vp, ctypes.c_size_t, _p_double, ctypes.c_size_t]),
        "trim_neteval_warnings": (ctypes.c_int, [_vp, _pvp]),
        "trim_neteval_breakdown_report": (ctypes.c_int, [_vp, ctypes.c_int, _pvp]),
        "trim_neteval_write_html": (ctypes.c_int, [_vp, _str]),
        # eval.h: breakdowns
        "trim_action_name": (_str, [ctypes.c_int]),
        "trim_breakdown_size": (ctypes.c_size_t, [ctypes.c_int]),
        "trim_eval_breakdown": (ctypes.c_int, [_vp, _p_double, _p_double, ctypes.c_size_t]),
        "trim_eval_temporal_utilization": (ctypes.c_double, [_vp]),
        "trim_eval_compute_cycles": (ctypes.c_double, [_vp]),
        "trim_eval_warnings": (ctypes.c_int, [_vp, _pvp]),
        # explore.h
        "trim_explore_goal_name": (_str, [ctypes.c_int]),
        "trim_explorer_create": (ctypes.c_int, [_pvp, _vp, _vp, _vp]),
        "trim_explorer_free": (None, [_vp]),
        "trim_explorer_set_int": (ctypes.c_int, [_vp, ctypes.c_int, _c_int64]),
        "trim_explorer_set_double": (ctypes.c_int, [_vp, ctypes.c_int, ctypes.c_double]),
        "trim_explorer_set_out_dir": (ctypes.c_int, [_vp, _str]),
        "trim_explorer_step": (ctypes.c_int, [_vp, ctypes.POINTER(ctypes.c_int)]),
        "trim_explorer_run": (ctypes.c_int, [_vp]),
        "trim_explorer_done": (ctypes.c_size_t, [_vp]),
        "trim_explorer_count": (ctypes.c_size_t, [_vp]),
        "trim_explorer_resumed": (ctypes.c_size_t, [_vp]),
        "trim_explorer_point_name": (_str, [_vp, ctypes.c_size_t]),
        "trim_explorer_point": (ctypes.c_int, [_vp, ctypes.c_size_t, _p_double, ctypes.c_size_t]),
        "trim_explorer_point_fused": (ctypes.c_int, [_vp, ctypes.c_size_t, _p_double, ctypes.c_size_t]),
        "trim_explorer_ranked": (ctypes.c_int, [_vp, ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t)]),
        "trim_explorer_report": (ctypes.c_int, [_vp, ctypes.c_int, _pvp]),
        "trim_explorer_write": (ctypes.c_int, [_vp, _str]),
        "trim_explorer_workload": (ctypes.c_int, [_vp, ctypes.c_size_t, ctypes.c_size_t, _p_double,
                                                  ctypes.c_size_t]),
        "trim_explorer_breakdown": (ctypes.c_int, [_vp, ctypes.c_size_t, ctypes.c_size_t, _p_double,
                                                   _p_double, ctypes.c_size_t]),
        "trim_explorer_warnings": (ctypes.c_int, [_vp, ctypes.c_size_t, _pvp]),
        "trim_explorer_breakdown_report": (ctypes.c_int, [_vp, ctypes.c_int, _pvp]),
        "trim_explorer_write_html": (ctypes.c_int, [_vp, _str]),
    }
    return _CheckedLibrary(lib, path, sig)


_lib = None


def lib():
    """The loaded shared library (loaded on first use)."""
    global _lib
    if _lib is None:
        _lib = _load()
    return _lib


def version():
    """The version of the loaded libtrim, "MAJOR.MINOR.PATCH"."""
    return lib().trim_version_string().decode()


def data_path(relative):
    """The path of a shipped data file, e.g. ``data_path("models/arch/eyeriss.yaml")``:
    found under $TRIM_DATA_DIR, the current directory, the installed data
    directory (PREFIX/share/trim) or the source tree (``trim_data_find``)."""
    ptr = _vp()
    _check(lib().trim_data_find(_enc(relative), ctypes.byref(ptr)))
    return _take_string(ptr)


def _check(rc):
    if rc != 0:
        msg = lib().trim_last_error().decode(errors="replace")
        raise TrimError(rc, msg or lib().trim_strerror(rc).decode())
    return rc


def _check_index(rc):
    """For calls returning an index / count / flag, or a negative TRIM_E* code."""
    if rc < 0:
        _check(rc)
    return rc


def _text(b):
    """Decode a library-owned ``const char *`` (None stays None)."""
    return None if b is None else b.decode()


def _enc(s):
    """Encode an optional string argument (None passes NULL)."""
    return None if s is None else s.encode()


def _format(fmt):
    if fmt not in FORMATS:
        raise ValueError("format must be one of %s" % ", ".join(FORMATS))
    return FORMATS[fmt]


def _doubles(n):
    return (ctypes.c_double * n)()


def _names(fn):
    """The names a ``*_name(int)`` function gives for 0, 1, ... until NULL."""
    out = []
    while True:
        b = fn(len(out))
        if b is None:
            return out
        out.append(b.decode())


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
            raise TrimError(TRIM_EINVAL, "the handle is closed")
        return self._h

    def _describe(self):
        """A short description for repr (subclasses say more)."""
        return ""

    def __repr__(self):
        if not self._h.value:
            return "<libtrim.%s (closed)>" % type(self).__name__
        try:
            d = self._describe()
        except Exception as e:  # a repr never raises
            d = "(%s)" % e
        return "<libtrim.%s%s>" % (type(self).__name__, " " + d if d else "")


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

    def _describe(self):
        n = lib().trim_network_layer_count(self.handle)
        return "%r: %d layers, %s params, %s MACs" % (self.name, n, format(self.params, ","),
                                                      format(self.macs, ","))

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
        net = _handle(network, Network, "network", "Workloads()")
        if mode not in MODES:
            raise ValueError("mode must be one of %s" % ", ".join(MODES))
        _check(lib().trim_workloads_create(ctypes.byref(self._h), net, MODES[mode], batch, word_bits))

    def __len__(self):
        return lib().trim_workloads_intra_count(self.handle)

    def _describe(self):
        return "%d intra-layer and %d inter-layer workloads" % (
            len(self), lib().trim_workloads_inter_count(self.handle))

    def all(self):
        """Every intra workload (``intra(i)``) as :class:`Rows`: a list of
        dicts, ``.frame()`` a DataFrame."""
        return Rows(self.intra(i) for i in range(len(self)))

    def _repr_html_(self):
        return "<p>%s</p>%s" % (repr(self).replace("<", "&lt;"), self.all()._repr_html_())

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


ACTIONS = ("reads", "fills", "updates", "drains", "unicast", "multicast", "reductions", "macs",
           "static", "sparse")  # enum trim_action
_WHOLE_ACTIONS = ("macs", "static", "sparse")  # one entry per level, not per tensor
_SLOTS = ("input", "weight", "output")


def _breakdown(fn, args, levels):
    """Rows of {level, tensor, action, count, energy_pj} from a breakdown
    function fn(*args, counts, energy, n): the non-zero entries, in (level,
    tensor, action) order; tensor "all" for MACs, leakage and sparse terms."""
    n = lib().trim_breakdown_size(len(levels))
    counts, energy = _doubles(n), _doubles(n)
    _check(fn(*args, counts, energy, n))
    out = []
    for k in range(n):
        if counts[k] == 0 and energy[k] == 0:
            continue
        level, rest = divmod(k, 3 * len(ACTIONS))
        slot, action = divmod(rest, len(ACTIONS))
        name = ACTIONS[action]
        out.append({"level": levels[level], "tensor": "all" if name in _WHOLE_ACTIONS else _SLOTS[slot],
                    "action": name, "count": counts[k], "energy_pj": energy[k]})
    return Rows(out)


def _level_energy(fn, args, levels, mapped=True):
    """{"<level>_pj": energy} of one workload from a breakdown function (the
    columns of trim network's CSV, summed in the same order: the same doubles);
    zeros for a workload that is not mapped (outside the layer range)."""
    if not mapped:
        return {"%s_pj" % name: 0.0 for name in levels}
    n = lib().trim_breakdown_size(len(levels))
    energy = _doubles(n)
    _check(fn(*args, None, energy, n))
    per = 3 * len(ACTIONS)
    out = {}
    for l, name in enumerate(levels):
        total = 0.0
        for k in range(per):
            total += energy[l * per + k]
        out["%s_pj" % name] = total
    return out


def _json_text(fn, *args):
    """Library-owned JSON text from fn(*args, char **out), parsed."""
    ptr = _vp()
    _check(fn(*args, ctypes.byref(ptr)))
    return json.loads(_take_string(ptr))


def _report(fn, *args):
    """Call a ``(..., char **out)`` report function and return the text."""
    ptr = _vp()
    _check(fn(*args, ctypes.byref(ptr)))
    return _take_string(ptr)


def _class_name(obj):
    """"libtrim.Arch" for the binding's classes, the type's name ("str") for others."""
    t = type(obj)
    return "libtrim.%s" % t.__name__ if isinstance(obj, _Handle) else t.__name__


def _handle(obj, cls, param, where, optional=False):
    """The C handle of ``obj``, given as parameter ``param`` of ``where``
    ("NetEval()", "Mapping.check()"). TypeError, before any C call, unless
    ``obj`` is a ``cls`` (or None where ``optional``): a handle of one type
    passed where the C function expects another would be read as the wrong
    struct. The message names the parameter, the class expected and the
    class given."""
    if obj is None and optional:
        return None
    if not isinstance(obj, cls):
        raise TypeError("%s: %s must be a libtrim.%s%s, not %s" % (
            where, param, cls.__name__, " or None" if optional else "", _class_name(obj)))
    return obj.handle


def _new(cls):
    """An instance of a handle class with an empty handle, to be filled by **out."""
    obj = cls.__new__(cls)
    _Handle.__init__(obj)
    return obj


__all__ = [n for n in dict(globals()) if not n.startswith("__")]
