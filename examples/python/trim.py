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

    from trim import Arch, Energy, Fusion
    arch = Arch("models/arch/virtex7-690t.yaml")
    fusion = Fusion(Network("models/networks/vgg16.yaml"), "conv1_1", "conv3_1")
    fusion.set_hardware(arch)                   # table resolved from the technology
    result = fusion.explore("offchip")
    print(result.plan_metrics(result.best)["offchip_bytes"])

    from trim import Mapping, Eval, Search, NetEval, Space, Explorer
    arch = Arch("models/arch/eyeriss.yaml")
    net = Network("models/networks/alexnet-cifar.yaml")
    w = Workloads(net)
    m = Mapping(arch, "test/data/mapping/eyeriss-conv1.yaml")
    print(Eval(w, ("conv1", "FW"), arch, m).cycles)
    with Explorer(net, w, Space("models/arch/spaces/default.yaml")) as ex:
        ex.set_goal("edp"); ex.run()
        print([ex.point(i)["name"] for i in ex.ranking()], ex.pareto())

    from trim import Constraints
    s = Search(w, ("conv1", "FW"), arch)
    s.set_constraints(Constraints("models/constraints/timeloop-eyeriss-rs.yaml"))
    print(s.distinct, s.run().best().dump())   # or Constraints(preset="row-stationary")

Modules covered: networks and workloads (trim/workload.h), architectures
(arch.h), energy / area tables (energy.h), architecture spaces (space.h),
sparsity (sparsity.h), inter-layer fusion (fusion.h), mappings (mapping.h),
evaluation of one mapping (eval.h), the mapping search (search.h), dataflow
constraints (constraints.h), whole networks (neteval.h) and the explorer
(explore.h). Each class wraps one
opaque handle and calls the C functions of the same name; the library copies
what it needs, so a handle may outlive the objects it was made from.
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
_pvp = ctypes.POINTER(_vp)
_str = ctypes.c_char_p
_p_int64 = ctypes.POINTER(_c_int64)
_p_double = ctypes.POINTER(ctypes.c_double)

# Codes of include/trim/common.h used by the binding itself.
TRIM_EINVAL = -2
TRIM_ENOTFOUND = -7
TRIM_ERANGE = -9


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
        "trim_eval_free": (None, [_vp]),
        "trim_eval_cycles": (ctypes.c_double, [_vp]),
        "trim_eval_energy_pj": (ctypes.c_double, [_vp]),
        "trim_eval_edp": (ctypes.c_double, [_vp]),
        "trim_eval_pe_utilization": (ctypes.c_double, [_vp]),
        "trim_eval_macs": (_c_int64, [_vp]),
        "trim_eval_zero_macs": (_c_int64, [_vp]),
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
        "trim_explorer_ranked": (ctypes.c_int, [_vp, ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t)]),
        "trim_explorer_report": (ctypes.c_int, [_vp, ctypes.c_int, _pvp]),
        "trim_explorer_write": (ctypes.c_int, [_vp, _str]),
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


def _report(fn, *args):
    """Call a ``(..., char **out)`` report function and return the text."""
    ptr = _vp()
    _check(fn(*args, ctypes.byref(ptr)))
    return _take_string(ptr)


def _new(cls):
    """An instance of a handle class with an empty handle, to be filled by **out."""
    obj = cls.__new__(cls)
    _Handle.__init__(obj)
    return obj


# ---- arch.h -----------------------------------------------------------------

class Arch(_Handle):
    """An architecture (``trim_arch``): an ordered hierarchy of levels, from
    off-chip memory (level 0) to the MAC (last level).

    ``Arch(path)`` or ``Arch(text=yaml, name="x.yaml")``; ``clone()`` gives a
    deep copy; ``levels()`` lists every level as a dict of its accessors;
    ``report(fmt, table)`` is ``trim_arch_report`` (capacities, energy per
    access, area or FPGA resources)."""

    _free = "trim_arch_free"

    def __init__(self, path=None, text=None, name="<string>"):
        super().__init__()
        if text is not None:
            _check(lib().trim_arch_load_string(ctypes.byref(self._h), text.encode(), name.encode()))
        else:
            _check(lib().trim_arch_load(ctypes.byref(self._h), os.fsencode(path)))

    def clone(self):
        """A deep copy (``trim_arch_clone``)."""
        a = _new(Arch)
        _check(lib().trim_arch_clone(ctypes.byref(a._h), self.handle))
        return a

    @property
    def name(self):
        return _text(lib().trim_arch_name(self.handle))

    @property
    def file(self):
        return _text(lib().trim_arch_file(self.handle))

    @property
    def technology(self):
        return _text(lib().trim_arch_technology(self.handle))

    @property
    def clock_mhz(self):
        return lib().trim_arch_clock_mhz(self.handle)

    @property
    def word_bits(self):
        return lib().trim_arch_word_bits(self.handle)

    @property
    def total_pes(self):
        return _check_index(lib().trim_arch_total_pes(self.handle))

    def __len__(self):
        return lib().trim_arch_level_count(self.handle)

    def find(self, level_name):
        """Index of the level called ``level_name`` (TrimError if none)."""
        return _check_index(lib().trim_arch_level_find(self.handle, level_name.encode()))

    def level(self, i):
        """Level i (an index or a name) as a dict: name, type, class,
        capacity (bytes, 0 = unbounded or not storage), instances, word_bits,
        fanout ((X, Y), (1, 1) for levels that are not spatial)."""
        if isinstance(i, str):
            i = self.find(i)
        if not 0 <= i < len(self):
            raise IndexError(i)
        h = self.handle
        fanout = (_c_int64 * 2)()
        _check(lib().trim_arch_level_fanout(h, i, fanout, 2))
        return {
            "name": _text(lib().trim_arch_level_name(h, i)),
            "type": _text(lib().trim_arch_level_type_name(_check_index(lib().trim_arch_level_type(h, i)))),
            "class": _text(lib().trim_arch_level_class(h, i)),
            "capacity": _check_index(lib().trim_arch_level_capacity(h, i)),
            "instances": _check_index(lib().trim_arch_level_instances(h, i)),
            "word_bits": lib().trim_arch_level_word_bits(h, i),
            "fanout": tuple(fanout),
        }

    def levels(self):
        """Every level, from off-chip memory to the MAC (see ``level``)."""
        return [self.level(i) for i in range(len(self))]

    def report(self, fmt="table", table=None):
        """``trim_arch_report`` as "table" or "json" text; ``table`` is an
        :class:`Energy` (None: resolved from the technology)."""
        return _report(lib().trim_arch_report, self.handle, table.handle if table is not None else None,
                       _format(fmt))

    def report_json(self, table=None):
        """The JSON report, parsed."""
        return json.loads(self.report("json", table))


# ---- energy.h ---------------------------------------------------------------

FPGA_RESOURCES = ("dsp", "bram36", "lut", "ff")  # enum trim_fpga_resource


def resolve_table(technology, arch_file=None):
    """Path of the table of a technology name (``trim_energy_resolve``)."""
    ptr = _vp()
    _check(lib().trim_energy_resolve(technology.encode(), _enc(arch_file), ctypes.byref(ptr)))
    return _take_string(ptr)


class Energy(_Handle):
    """An energy / area table (``trim_energy``): energy per action and area
    (or FPGA resources) of the components an architecture is made of.

    ``Energy(path)``, ``Energy(text=yaml)``, ``Energy.for_arch(arch)``
    (the architecture's technology) or ``Energy.accelergy(ert, art)``.
    Energies in pJ per action on one word, leakage in uW, area in mm^2."""

    _free = "trim_energy_free"

    def __init__(self, path=None, text=None, name="<string>"):
        super().__init__()
        if text is not None:
            _check(lib().trim_energy_load_string(ctypes.byref(self._h), text.encode(), name.encode()))
        else:
            _check(lib().trim_energy_load(ctypes.byref(self._h), os.fsencode(path)))

    @classmethod
    def for_arch(cls, arch):
        """The table of an architecture's technology (``trim_energy_load_for_arch``)."""
        t = _new(cls)
        _check(lib().trim_energy_load_for_arch(ctypes.byref(t._h), arch.handle))
        return t

    @classmethod
    def accelergy(cls, ert_path, art_path=None):
        """An Accelergy ERT / ART pair (``trim_energy_load_accelergy``)."""
        t = _new(cls)
        _check(lib().trim_energy_load_accelergy(ctypes.byref(t._h), os.fsencode(ert_path),
                                                None if art_path is None else os.fsencode(art_path)))
        return t

    @property
    def name(self):
        return _text(lib().trim_energy_name(self.handle))

    @property
    def file(self):
        return _text(lib().trim_energy_file(self.handle))

    @property
    def is_fpga(self):
        return bool(lib().trim_energy_is_fpga(self.handle))

    def action(self, component, action, capacity_bytes=0, word_bits=16):
        """Energy (pJ) of one action, strict about the table's range."""
        v = ctypes.c_double()
        _check(lib().trim_energy_action(self.handle, component.encode(), action.encode(),
                                        capacity_bytes, word_bits, ctypes.byref(v)))
        return v.value

    def lookup(self, component, action, capacity_bytes=0, word_bits=16, clamp=False):
        """(energy in pJ, number of clamped coordinates); ``clamp=True`` is
        TRIM_ENERGY_CLAMP, otherwise out of range raises."""
        out = _doubles(2)
        _check(lib().trim_energy_lookup(self.handle, component.encode(), action.encode(),
                                        capacity_bytes, word_bits, 1 if clamp else 0, out, 2))
        return out[0], int(out[1])

    def area(self, component, capacity_bytes=0, word_bits=16):
        """Area in mm^2 of one instance of a component."""
        v = ctypes.c_double()
        _check(lib().trim_energy_area(self.handle, component.encode(), capacity_bytes, word_bits,
                                      ctypes.byref(v)))
        return v.value

    def resources(self, arch):
        """FPGA resources of ``arch`` under this (FPGA) table:
        {"used": {dsp, bram36, lut, ff}, "available": {...}, "fits": bool}."""
        out = _doubles(8)
        fits = _check_index(lib().trim_energy_resources(self.handle, arch.handle, out, 8))
        return {"used": dict(zip(FPGA_RESOURCES, out[0:4])),
                "available": dict(zip(FPGA_RESOURCES, out[4:8])),
                "fits": bool(fits)}

    def arch_area(self, arch):
        """Total area in mm^2 of ``arch`` under this (ASIC) table."""
        v = ctypes.c_double()
        _check(lib().trim_energy_arch_area(self.handle, arch.handle, ctypes.byref(v)))
        return v.value

    def report(self, arch, fmt="table"):
        """The architecture report of ``arch`` costed with this table (the C
        API has no report of a table alone: this is ``trim_arch_report``)."""
        return arch.report(fmt, self)


# ---- space.h ----------------------------------------------------------------

class Space(_Handle):
    """An architecture space (``trim_space``): a base architecture and
    parameter grids in canonical order; ``len()`` is the number of accepted
    points, ``grid_size`` counts the rejected ones too. ``point_arch(i)``
    returns a new :class:`Arch`."""

    _free = "trim_space_free"

    def __init__(self, path):
        super().__init__()
        _check(lib().trim_space_load(ctypes.byref(self._h), os.fsencode(path)))

    def constraints(self):
        """A copy of the space's ``mapspace_constraints`` (:class:`Constraints`), or None."""
        h = lib().trim_space_constraints(self.handle)
        if not h:
            return None
        c = _new(Constraints)
        _check(lib().trim_constraints_clone(ctypes.byref(c._h), h))
        return c

    @property
    def name(self):
        return _text(lib().trim_space_name(self.handle))

    @property
    def grid_size(self):
        return lib().trim_space_grid_size(self.handle)

    def __len__(self):
        return lib().trim_space_count(self.handle)

    def _index(self, i):
        if not 0 <= i < len(self):
            raise IndexError(i)
        return i

    def point_name(self, i):
        return _text(lib().trim_space_point_name(self.handle, self._index(i)))

    def names(self):
        """Names of the accepted points, in order."""
        return [self.point_name(i) for i in range(len(self))]

    def point_grid_index(self, i):
        return lib().trim_space_point_grid_index(self.handle, self._index(i))

    def find(self, name):
        """Index of the point called ``name`` (TrimError if none)."""
        idx = ctypes.c_uint64()
        _check(lib().trim_space_find(self.handle, name.encode(), ctypes.byref(idx)))
        return idx.value

    def point_arch(self, i):
        """The architecture of point i (an index or a name), a new :class:`Arch`."""
        if isinstance(i, str):
            i = self.find(i)
        a = _new(Arch)
        _check(lib().trim_space_point_arch(self.handle, self._index(i), ctypes.byref(a._h)))
        return a

    def point_area(self, i):
        """Area in mm^2 of point i (NaN when unknown, e.g. FPGA tables)."""
        return lib().trim_space_point_area(self.handle, self._index(i))

    def report(self, fmt="table"):
        return _report(lib().trim_space_report, self.handle, _format(fmt))

    def report_json(self):
        return json.loads(self.report("json"))


# ---- sparsity.h -------------------------------------------------------------

SPARSITY_FIELDS = ("operand0", "operand1", "output", "factor", "spread")  # TRIM_SP_*


def imbalance(units, density, pes, cv=0.0, threshold=0.0):
    """``trim_sparsity_imbalance``: E[max PE load] / ideal load (>= 1)."""
    v = ctypes.c_double()
    _check(lib().trim_sparsity_imbalance(units, density, pes, cv, threshold, ctypes.byref(v)))
    return v.value


class Sparsity(_Handle):
    """ReLU-driven sparsity of every intra workload (``trim_sparsity``), from
    the annotations of a :class:`Network` and the :class:`Workloads` made from
    it; ``load_trace(csv)`` overrides per-layer figures. ``workload(i)``
    gives the TRIM_SP_* fields as a dict."""

    _free = "trim_sparsity_free"

    def __init__(self, network, workloads):
        super().__init__()
        _check(lib().trim_sparsity_create(ctypes.byref(self._h), network.handle, workloads.handle))

    def load_trace(self, path):
        _check(lib().trim_sparsity_load_trace(self.handle, os.fsencode(path)))

    def set_default(self, zeros):
        """Zeros of every ReLU output with no figure of its own, in [0, 1)."""
        _check(lib().trim_sparsity_set_default(self.handle, zeros))

    def workload(self, i):
        """Sparsity of intra workload i: {operand0, operand1, output, factor, spread}."""
        out = _doubles(len(SPARSITY_FIELDS))
        _check(lib().trim_sparsity_workload(self.handle, i, out, len(out)))
        return dict(zip(SPARSITY_FIELDS, out))

    def layer(self, name):
        """Zeros of the output of layer ``name`` (TrimError if no such layer)."""
        v = ctypes.c_double()
        _check(lib().trim_sparsity_layer(self.handle, name.encode(), ctypes.byref(v)))
        return v.value

    imbalance = staticmethod(imbalance)


# ---- fusion.h ---------------------------------------------------------------

# enum trim_fusion_layer_metric and trim_fusion_time (the C API has no names for them)
FUSION_LAYER_METRICS = ("line_buffer_words", "window_words", "pool_buffer_words", "weight_words",
                        "macs_parallel", "parallelism", "passes", "fill_slots", "pipeline_cycles",
                        "cycles_per_pixel", "out_pixels", "in_pixels", "macs")
FUSION_TIMES = ("first_output", "last_output", "pace")


def fusion_params():
    """Names of the TRIM_FUSION_* parameters, by value."""
    return _names(lib().trim_fusion_param_name)


def fusion_metrics():
    """Names of the TRIM_FUSION_* metrics, by value."""
    return _names(lib().trim_fusion_metric_name)


def fusion_goals():
    return _names(lib().trim_fusion_goal_name)


def _metrics(fn, *args):
    names = fusion_metrics()
    out = _doubles(len(names))
    _check(fn(*args, out, len(out)))
    return dict(zip(names, out))


def _param(p):
    if isinstance(p, str):
        names = fusion_params()
        if p not in names:
            raise ValueError("unknown parameter %r (one of %s)" % (p, ", ".join(names)))
        return names.index(p)
    return p


class Fusion(_Handle):
    """Inter-layer fusion of a CONV / POOL chain (``trim_fusion``):
    ``Fusion(network, first, last)``, then ``set_hardware(arch, table)``,
    ``set_param``, ``set_parallelism``; ``evaluate(plan)`` gives a
    :class:`FusionPlan`, ``explore(goal)`` a :class:`FusionResult`.
    Parameters are named as ``trim_fusion_param_name`` names them."""

    _free = "trim_fusion_free"

    def __init__(self, network, first=None, last=None):
        super().__init__()
        _check(lib().trim_fusion_create(ctypes.byref(self._h), network.handle, _enc(first), _enc(last)))

    def clone(self):
        f = _new(Fusion)
        _check(lib().trim_fusion_clone(ctypes.byref(f._h), self.handle))
        return f

    def __len__(self):
        return lib().trim_fusion_layer_count(self.handle)

    def layers(self):
        """Names of the chain's layers."""
        return [_text(lib().trim_fusion_layer_name(self.handle, i)) for i in range(len(self))]

    def find(self, name):
        return _check_index(lib().trim_fusion_layer_find(self.handle, name.encode()))

    def layer_metrics(self, i):
        """TRIM_FUSION_L_* of chain layer i (an index or a name) as a dict."""
        if isinstance(i, str):
            i = self.find(i)
        out = _doubles(len(FUSION_LAYER_METRICS))
        _check(lib().trim_fusion_layer_metrics(self.handle, i, out, len(out)))
        return dict(zip(FUSION_LAYER_METRICS, out))

    def set_param(self, param, value):
        """Set a parameter by name ("clock_mhz", ...) or TRIM_FUSION_* value."""
        _check(lib().trim_fusion_set_param(self.handle, _param(param), value))

    def get_param(self, param):
        v = ctypes.c_double()
        _check(lib().trim_fusion_get_param(self.handle, _param(param), ctypes.byref(v)))
        return v.value

    def params(self):
        """Every parameter as a dict name -> value."""
        return {n: self.get_param(i) for i, n in enumerate(fusion_params())}

    def set_parallelism(self, layer, channels):
        _check(lib().trim_fusion_set_parallelism(self.handle, layer.encode(), channels))

    def set_max_parallelism(self, channels):
        _check(lib().trim_fusion_set_max_parallelism(self.handle, channels))

    def set_hardware(self, arch, table=None):
        """Clock, word width, DRAM and FPGA resources from an :class:`Arch`
        and its :class:`Energy` table (None: resolved from the technology)."""
        _check(lib().trim_fusion_set_hardware(self.handle, arch.handle,
                                              table.handle if table is not None else None))

    @property
    def hardware_name(self):
        return _text(lib().trim_fusion_hardware_name(self.handle))

    def evaluate(self, groups):
        """A plan from "a,b|c" text, a list of groups of layer names, or a
        cut mask (int)."""
        p = _new(FusionPlan)
        if isinstance(groups, int):
            _check(lib().trim_fusion_evaluate_cuts(ctypes.byref(p._h), self.handle, groups))
        else:
            if not isinstance(groups, str):
                groups = "|".join(",".join(g) for g in groups)
            _check(lib().trim_fusion_evaluate(ctypes.byref(p._h), self.handle, groups.encode()))
        p._layers = self.layers()
        return p

    def explore(self, goal="offchip"):
        """Every partition (or the Pareto DP); ``goal`` by name or TRIM_FUSION_GOAL_*."""
        if isinstance(goal, str):
            g = lib().trim_fusion_goal_from_name(goal.encode())
            goal = _check_index(g)
        r = _new(FusionResult)
        _check(lib().trim_fusion_explore(ctypes.byref(r._h), self.handle, goal))
        return r


class FusionPlan(_Handle):
    """One evaluated partition of a chain into groups (``trim_fusion_plan``)."""

    _free = "trim_fusion_plan_free"
    _layers = ()

    @property
    def cuts(self):
        return lib().trim_fusion_plan_cuts(self.handle)

    def __len__(self):
        return lib().trim_fusion_plan_group_count(self.handle)

    def group(self, g):
        """(first, last) chain indices of group g."""
        out = (_c_int64 * 2)()
        _check(lib().trim_fusion_plan_group(self.handle, g, out, 2))
        return tuple(out)

    def groups(self):
        """Groups as lists of layer names."""
        return [list(self._layers[a:b + 1]) for a, b in (self.group(g) for g in range(len(self)))]

    def metrics(self):
        return _metrics(lib().trim_fusion_plan_metrics, self.handle)

    def group_metrics(self, g):
        return _metrics(lib().trim_fusion_plan_group_metrics, self.handle, g)

    def layer_times(self, i):
        """TRIM_FUSION_T_* of chain layer i in its group: first_output, last_output, pace."""
        out = _doubles(len(FUSION_TIMES))
        _check(lib().trim_fusion_plan_layer_times(self.handle, i, out, len(out)))
        return dict(zip(FUSION_TIMES, out))

    def report(self, fmt="table"):
        return _report(lib().trim_fusion_plan_report, self.handle, _format(fmt))


class FusionResult(_Handle):
    """The outcome of ``Fusion.explore`` (``trim_fusion_result``): the plans
    kept, the Pareto set, the best plan for the goal and layer-by-layer."""

    _free = "trim_fusion_result_free"

    @property
    def considered(self):
        return lib().trim_fusion_result_considered(self.handle)

    @property
    def used_dp(self):
        return bool(lib().trim_fusion_result_used_dp(self.handle))

    def __len__(self):
        return lib().trim_fusion_result_plan_count(self.handle)

    def _index(self, i):
        if not 0 <= i < len(self):
            raise IndexError(i)
        return i

    def plan_cuts(self, i):
        return lib().trim_fusion_result_plan_cuts(self.handle, self._index(i))

    def plan_metrics(self, i):
        return _metrics(lib().trim_fusion_result_plan_metrics, self.handle, self._index(i))

    def pareto(self):
        """Plan indices of the Pareto set, in the library's order."""
        h, out, idx = self.handle, [], ctypes.c_size_t()
        for k in range(lib().trim_fusion_result_pareto_count(h)):
            _check(lib().trim_fusion_result_pareto(h, k, ctypes.byref(idx)))
            out.append(idx.value)
        return out

    @property
    def best(self):
        idx = ctypes.c_size_t()
        _check(lib().trim_fusion_result_best(self.handle, ctypes.byref(idx)))
        return idx.value

    @property
    def layer_by_layer(self):
        """Plan index of layer-by-layer execution, None if it was not kept."""
        idx = ctypes.c_size_t()
        rc = lib().trim_fusion_result_layer_by_layer(self.handle, ctypes.byref(idx))
        if rc == TRIM_ENOTFOUND:
            return None
        _check(rc)
        return idx.value

    def report(self, fmt="table"):
        return _report(lib().trim_fusion_result_report, self.handle, _format(fmt))

    def report_json(self):
        return json.loads(self.report("json"))


# ---- mapping.h --------------------------------------------------------------

SLOTS = ("input", "weight", "output")  # tensor slots 0, 1, 2
GOALS = ("energy", "delay", "edp")      # enum trim_goal (search and network evaluation)


def _dim(d):
    """A TRIM_DIM_* value from a letter ("M") or an int."""
    if isinstance(d, str):
        if len(d) != 1 or d.upper() not in DIMS:
            raise ValueError("dim must be one of the letters %s" % DIMS)
        return DIMS.index(d.upper())
    return d


def _slot(s):
    if isinstance(s, str):
        if s not in SLOTS:
            raise ValueError("slot must be one of %s" % ", ".join(SLOTS))
        return SLOTS.index(s)
    return s


def _goal(g):
    """A TRIM_GOAL_* value from a name ("energy", "delay", "edp") or an int."""
    if isinstance(g, str):
        if g not in GOALS:
            raise ValueError("goal must be one of %s" % ", ".join(GOALS))
        return GOALS.index(g)
    return g


def _windex(workloads, i):
    """An intra workload index from an int or a (layer, phase) pair."""
    if isinstance(i, tuple):
        return workloads.find(*i)
    return i


def _option(options, opt):
    """(value, is_double) of an option given by name or value."""
    if isinstance(opt, str):
        if opt not in options:
            raise ValueError("unknown option %r (one of %s)" % (opt, ", ".join(options)))
        return options[opt]
    for value, is_double in options.values():
        if value == opt:
            return value, is_double
    raise ValueError("unknown option %r" % (opt,))


def _set_option(options, set_int, set_double, h, opt, value):
    code, is_double = _option(options, opt)
    if is_double:
        _check(set_double(h, code, float(value)))
    else:
        _check(set_int(h, code, int(value)))


class Mapping(_Handle):
    """A mapping of an intra workload onto an architecture (``trim_mapping``).

    ``Mapping(arch)`` is every bound 1, canonical orders, no bypass
    (``trim_mapping_create``); ``Mapping(arch, path)`` or
    ``Mapping(arch, text=yaml, name="m.yaml")`` loads libtrim's YAML or
    Timeloop's ``mapping:`` list. Levels are indices or the architecture's
    level names, dims letters of ``DIMS`` or TRIM_DIM_* values, slots names of
    ``SLOTS`` or 0..2. The mapping copies what it needs: the arch may go first."""

    _free = "trim_mapping_free"
    _levels = ()

    def __init__(self, arch, path=None, text=None, name="<string>"):
        super().__init__()
        if text is not None:
            _check(lib().trim_mapping_load_string(ctypes.byref(self._h), arch.handle, text.encode(),
                                                  name.encode()))
        elif path is not None:
            _check(lib().trim_mapping_load(ctypes.byref(self._h), arch.handle, os.fsencode(path)))
        else:
            _check(lib().trim_mapping_create(ctypes.byref(self._h), arch.handle))
        self._levels = tuple(arch.level(i)["name"] for i in range(len(arch)))

    def clone(self):
        """A deep copy (``trim_mapping_clone``)."""
        m = _new(Mapping)
        _check(lib().trim_mapping_clone(ctypes.byref(m._h), self.handle))
        m._levels = self._levels
        return m

    def __len__(self):
        """Number of levels (the architecture's)."""
        return _check_index(lib().trim_mapping_levels(self.handle))

    def _level(self, level):
        if isinstance(level, str):
            if level not in self._levels:
                raise TrimError(TRIM_ENOTFOUND, "no level '%s'" % level)
            return self._levels.index(level)
        return level

    def set_temporal(self, level, dim, bound):
        _check(lib().trim_mapping_set_temporal(self.handle, self._level(level), _dim(dim), bound))

    def set_spatial(self, level, dim, fx, fy=1):
        _check(lib().trim_mapping_set_spatial(self.handle, self._level(level), _dim(dim), fx, fy))

    def set_order(self, level, order):
        """Loop order as dim letters, outermost first ("MC")."""
        _check(lib().trim_mapping_set_order(self.handle, self._level(level), order.encode()))

    def set_keep(self, level, slot, keep=True):
        """Whether storage level ``level`` holds tensor ``slot`` (False: bypass)."""
        _check(lib().trim_mapping_set_keep(self.handle, self._level(level), _slot(slot), 1 if keep else 0))

    def bound(self, level, dim):
        """Bound of ``dim`` at ``level`` (temporal, or fx * fy); IndexError if out of range."""
        v = lib().trim_mapping_bound(self.handle, self._level(level), _dim(dim))
        if v < 0:
            raise IndexError((level, dim))
        return v

    def bounds(self, level):
        """Every bound of ``level`` as {dim letter: bound}."""
        return {d: self.bound(level, d) for d in DIMS}

    def check(self, workloads, i, arch):
        """``trim_mapping_check`` for intra workload ``i`` (an index or
        (layer, phase)): raises TrimError (TRIM_ESHAPE, TRIM_ENOFIT...)."""
        _check(lib().trim_mapping_check(self.handle, workloads.handle, _windex(workloads, i), arch.handle))

    def dump(self, fmt="yaml"):
        """libtrim's YAML form ("yaml", loads back) or the loop nest ("table")."""
        if fmt not in ("yaml", "table"):
            raise ValueError("format must be yaml or table")
        return _report(lib().trim_mapping_dump, self.handle, FORMATS[fmt])


# ---- eval.h -----------------------------------------------------------------

class Eval(_Handle):
    """One mapping of one intra workload evaluated (``trim_eval_mapping``):
    ``Eval(workloads, i, arch, mapping, table=None)``, ``i`` an index or a
    (layer, phase) pair, ``table`` an :class:`Energy` (None: the arch's
    technology). Raises TrimError if the mapping does not fit. The result
    does not refer to its inputs."""

    _free = "trim_eval_free"

    def __init__(self, workloads, i, arch, mapping, table=None):
        super().__init__()
        _check(lib().trim_eval_mapping(ctypes.byref(self._h), workloads.handle, _windex(workloads, i),
                                       arch.handle, table.handle if table is not None else None,
                                       mapping.handle))

    @property
    def cycles(self):
        return lib().trim_eval_cycles(self.handle)

    @property
    def energy_pj(self):
        return lib().trim_eval_energy_pj(self.handle)

    @property
    def edp(self):
        """Energy-delay product, pJ x cycles."""
        return lib().trim_eval_edp(self.handle)

    @property
    def pe_utilization(self):
        return lib().trim_eval_pe_utilization(self.handle)

    @property
    def macs(self):
        return _check_index(lib().trim_eval_macs(self.handle))

    @property
    def zero_macs(self):
        return _check_index(lib().trim_eval_zero_macs(self.handle))

    @property
    def bottleneck(self):
        """Name of the level with the most cycles."""
        return _text(lib().trim_eval_bottleneck(self.handle))

    def report(self, fmt="table"):
        """"table" or "json" (every count per level and tensor)."""
        return _report(lib().trim_eval_report, self.handle, _format(fmt))

    def report_json(self):
        return json.loads(self.report("json"))


# ---- search.h ---------------------------------------------------------------

# enum trim_search_option: name -> (value, is a double)
SEARCH_OPTIONS = {"goal": (0, False), "threads": (1, False), "min_pe_util": (2, True),
                  "min_rf_util": (3, True), "top_k": (4, False)}
SEARCH_COUNTS = ("generated", "valid", "evaluated", "unsupported", "pruned", "skipped")


class Search(_Handle):
    """Exhaustive mapping search for one intra workload (``trim_search``):
    ``Search(workloads, i, arch, table=None)``, set options, look at
    ``size`` / ``distinct`` before a long ``run()``, then ``counts()``,
    ``best()`` (a :class:`Mapping`), ``best_index``, ``top(k)`` and the report.
    Options by name (``SEARCH_OPTIONS``) or TRIM_SEARCH_* value; goals by name
    (``GOALS``)."""

    _free = "trim_search_free"
    _levels = ()

    def __init__(self, workloads, i, arch, table=None):
        super().__init__()
        _check(lib().trim_search_create(ctypes.byref(self._h), workloads.handle, _windex(workloads, i),
                                        arch.handle, table.handle if table is not None else None))
        self._levels = tuple(arch.level(k)["name"] for k in range(len(arch)))

    def set(self, option, value):
        """Set an option by name or value (``trim_search_set_int`` / ``_set_double``)."""
        if option in ("goal", 0):
            value = _goal(value)
        _set_option(SEARCH_OPTIONS, lib().trim_search_set_int, lib().trim_search_set_double,
                    self.handle, option, value)

    def set_goal(self, goal):
        self.set("goal", goal)

    def set_threads(self, n):
        self.set("threads", n)

    def set_min_pe_util(self, fraction):
        self.set("min_pe_util", fraction)

    def set_min_rf_util(self, fraction):
        self.set("min_rf_util", fraction)

    def set_top_k(self, k):
        self.set("top_k", k)

    def set_factor(self, level, dim, bound):
        """Force the bound of ``dim`` at ``level`` (0 frees it)."""
        if isinstance(level, str):
            if level not in self._levels:
                raise TrimError(TRIM_ENOTFOUND, "no level '%s'" % level)
            level = self._levels.index(level)
        _check(lib().trim_search_set_factor(self.handle, level, _dim(dim), bound))

    def set_constraints(self, constraints):
        """Dataflow :class:`Constraints` the search must obey (copied; None
        removes them). TrimError TRIM_ENOFIT names the level and dimension
        when no factorisation of this workload obeys them."""
        _check(lib().trim_search_set_constraints(self.handle, _cons(constraints)))

    def _size(self, fn):
        v = fn(self.handle)
        if v < 0:
            _check(TRIM_EINVAL)
        return v

    @property
    def size(self):
        """Raw mapspace size (a float: it may exceed 2^64)."""
        return self._size(lib().trim_search_size)

    @property
    def distinct(self):
        """Distinct mappings the search generates (a float)."""
        return self._size(lib().trim_search_distinct)

    def run(self):
        _check(lib().trim_search_run(self.handle))
        return self

    @property
    def progress(self):
        """Share of the search's top nodes done, in [0, 1] (1 after a run)."""
        return lib().trim_search_progress(self.handle)

    def counts(self):
        """{generated, valid, evaluated, unsupported, pruned, skipped (by lower bounds)}."""
        out = (_c_int64 * len(SEARCH_COUNTS))()
        _check(lib().trim_search_counts(self.handle, out, len(out)))
        return dict(zip(SEARCH_COUNTS, out))

    def best(self):
        """A copy of the best mapping (TrimError TRIM_ENOTFOUND if none fits)."""
        m = _new(Mapping)
        _check(lib().trim_search_best(self.handle, ctypes.byref(m._h)))
        m._levels = self._levels
        return m

    def _index(self, k):
        buf = ctypes.create_string_buffer(48)
        _check(lib().trim_search_index_str(self.handle, k, buf, len(buf)))
        return int(buf.value.decode())

    @property
    def best_index(self):
        """Index of the best mapping in the canonical order (a Python int of any
        width: batch-64 mapspaces exceed 2**64); 2**64 - 1 if nothing fits."""
        if lib().trim_search_top_count(self.handle) == 0:
            return lib().trim_search_best_index(self.handle)
        return self._index(0)

    def top_count(self):
        return lib().trim_search_top_count(self.handle)

    def top(self, k):
        """(cost, index) of the k-th best mapping (0 = the best)."""
        cost, index = ctypes.c_double(), ctypes.c_uint64()
        rc = lib().trim_search_top(self.handle, k, ctypes.byref(cost), ctypes.byref(index))
        if rc != TRIM_ERANGE:  # TRIM_ERANGE: an index wider than 64 bits
            _check(rc)
        return cost.value, self._index(k)

    def top_mapping(self, k):
        m = _new(Mapping)
        _check(lib().trim_search_top_mapping(self.handle, k, ctypes.byref(m._h)))
        m._levels = self._levels
        return m

    def report(self, fmt="table"):
        return _report(lib().trim_search_report, self.handle, _format(fmt))

    def report_json(self):
        return json.loads(self.report("json"))


# ---- constraints.h ----------------------------------------------------------

def dataflow_presets():
    """{name: definition and source} of the built-in dataflow presets."""
    out, i = {}, 0
    while True:
        name = lib().trim_constraints_preset_name(i)
        if name is None:
            return out
        out[name.decode()] = lib().trim_constraints_preset_description(i).decode()
        i += 1


class Constraints(_Handle):
    """Dataflow constraints (``trim_constraints``) that restrict the mapspace
    of :class:`Search`, :class:`NetEval` and :class:`Explorer`:
    ``Constraints()`` (none), ``Constraints(path)``, ``Constraints(text=yaml,
    name="c.yaml")`` (libtrim's ``targets:`` / ``preset:`` or Timeloop's
    ``mapspace_constraints:``), ``Constraints(preset="row-stationary")``.
    Level names are checked against an architecture when the constraints are
    used or by ``check(arch)``."""

    _free = "trim_constraints_free"

    def __init__(self, path=None, text=None, name="<string>", preset=None):
        super().__init__()
        if text is not None:
            _check(lib().trim_constraints_load_string(ctypes.byref(self._h), text.encode(), name.encode()))
        elif path is not None:
            _check(lib().trim_constraints_load(ctypes.byref(self._h), os.fsencode(path)))
        else:
            _check(lib().trim_constraints_create(ctypes.byref(self._h)))
        for p in ([preset] if isinstance(preset, str) else preset or []):
            self.add_preset(p)

    def add_preset(self, name):
        """Add a preset of ``dataflow_presets()``."""
        _check(lib().trim_constraints_add_preset(self.handle, name.encode()))
        return self

    def merge(self, other):
        """Add every target and preset of ``other``."""
        _check(lib().trim_constraints_merge(self.handle, other.handle))
        return self

    def clone(self):
        c = _new(Constraints)
        _check(lib().trim_constraints_clone(ctypes.byref(c._h), self.handle))
        return c

    def __len__(self):
        """Targets written (presets not counted)."""
        return lib().trim_constraints_count(self.handle)

    @property
    def preset_count(self):
        return lib().trim_constraints_preset_count(self.handle)

    def check(self, arch):
        """Raise TrimError (with file:line:col and key path) unless every target
        fits ``arch`` and nothing contradicts."""
        _check(lib().trim_constraints_check(self.handle, arch.handle))

    def dump(self, arch=None):
        """libtrim's YAML form; with ``arch``, the presets spelled out for it."""
        out = _vp()
        _check(lib().trim_constraints_dump(self.handle, arch.handle if arch is not None else None,
                                           ctypes.byref(out)))
        return _take_string(out)


def _cons(c):
    return c.handle if c is not None else None


# ---- neteval.h --------------------------------------------------------------

NET_OPTIONS = {"goal": (0, False), "threads": (1, False), "sparsity": (2, False),
               "max_mappings": (3, False), "min_pe_util": (10, True),
               "min_rf_util": (11, True)}  # enum trim_net_option: name -> (value, is a double)
NET_FIELDS = ("cycles", "energy_pj", "edp", "pe_utilization", "active_pes", "dense_cycles",
              "dense_energy_pj", "static_pj", "macs", "generated", "valid", "evaluated",
              "mapped", "offchip_bytes")  # TRIM_NF_*


class NetEval(_Handle):
    """A whole network on one architecture (``trim_neteval``):
    ``NetEval(network, workloads, arch, table=None)``, options, optional
    ``load_trace``, then ``step()`` until it returns True (``done`` / ``len()``
    give progress) or ``run()``; then totals, ``level_energy()``,
    ``workload(i)``, ``mapping(i)`` and the report. It copies its inputs."""

    _free = "trim_neteval_free"
    _levels = ()

    def __init__(self, network, workloads, arch, table=None):
        super().__init__()
        _check(lib().trim_neteval_create(ctypes.byref(self._h), network.handle, workloads.handle,
                                         arch.handle, table.handle if table is not None else None))
        self._levels = tuple(arch.level(k)["name"] for k in range(len(arch)))
        self._names = [(w["layer"], w["phase"]) for w in (workloads.intra(k) for k in range(len(workloads)))]

    def set(self, option, value):
        """Set an option by name (``NET_OPTIONS``) or TRIM_NET_* value."""
        if option in ("goal", 0):
            value = _goal(value)
        elif option in ("sparsity", 2):
            value = 1 if value else 0
        _set_option(NET_OPTIONS, lib().trim_neteval_set_int, lib().trim_neteval_set_double,
                    self.handle, option, value)

    def set_goal(self, goal):
        self.set("goal", goal)

    def set_layers(self, first, last):
        """Map only the workloads of layers first..last (``trim_neteval_set_layers``)."""
        _check(lib().trim_neteval_set_layers(self.handle, first.encode(), last.encode()))

    def set_threads(self, n):
        self.set("threads", n)

    def set_sparsity(self, on):
        self.set("sparsity", on)

    def set_max_mappings(self, n):
        self.set("max_mappings", n)

    def set_min_pe_util(self, fraction):
        self.set("min_pe_util", fraction)

    def set_min_rf_util(self, fraction):
        self.set("min_rf_util", fraction)

    def load_trace(self, path):
        """Per-layer sparsity from a CSV trace (``trim_sparsity_load_trace``)."""
        _check(lib().trim_neteval_load_trace(self.handle, os.fsencode(path)))

    def set_constraints(self, constraints):
        """Dataflow :class:`Constraints` for every workload (copied; None
        removes them); checked against the architecture at once."""
        _check(lib().trim_neteval_set_constraints(self.handle, _cons(constraints)))

    def step(self):
        """Map the next workload; True when every workload is mapped."""
        done = ctypes.c_int()
        _check(lib().trim_neteval_step(self.handle, ctypes.byref(done)))
        return bool(done.value)

    def run(self):
        _check(lib().trim_neteval_run(self.handle))
        return self

    @property
    def done(self):
        """Intra workloads mapped so far."""
        return lib().trim_neteval_done(self.handle)

    def __len__(self):
        """Intra workloads in all."""
        return lib().trim_neteval_count(self.handle)

    @property
    def cycles(self):
        return lib().trim_neteval_cycles(self.handle)

    @property
    def energy_pj(self):
        return lib().trim_neteval_energy_pj(self.handle)

    @property
    def static_pj(self):
        return lib().trim_neteval_static_pj(self.handle)

    @property
    def dense_cycles(self):
        return lib().trim_neteval_dense_cycles(self.handle)

    @property
    def dense_energy_pj(self):
        return lib().trim_neteval_dense_energy_pj(self.handle)

    @property
    def seconds(self):
        return lib().trim_neteval_seconds(self.handle)

    @property
    def pe_utilization(self):
        """MAC-weighted mean PE utilisation."""
        return lib().trim_neteval_pe_utilization(self.handle)

    def totals(self):
        """Every total as a dict."""
        return {k: getattr(self, k) for k in ("cycles", "energy_pj", "static_pj", "dense_cycles",
                                              "dense_energy_pj", "seconds", "pe_utilization")}

    def level_energy(self):
        """Energy per level (pJ, dynamic + static) as {level name: pJ}, in level order."""
        out = _doubles(len(self._levels))
        _check(lib().trim_neteval_level_energy(self.handle, out, len(out)))
        return dict(zip(self._levels, out))

    def _index(self, i):
        if isinstance(i, tuple):
            if i not in self._names:
                raise TrimError(TRIM_ENOTFOUND, "no workload %s %s" % i)
            return self._names.index(i)
        return i

    def workload(self, i):
        """TRIM_NF_* of intra workload i (an index or (layer, phase)) as a
        dict, with its "layer" and "phase"."""
        i = self._index(i)
        out = _doubles(len(NET_FIELDS))
        _check(lib().trim_neteval_workload(self.handle, i, out, len(out)))
        d = dict(zip(NET_FIELDS, out))
        d["layer"], d["phase"] = self._names[i]
        return d

    def workloads(self):
        return [self.workload(i) for i in range(len(self))]

    def mapping(self, i):
        """A copy of the best :class:`Mapping` of intra workload i."""
        m = _new(Mapping)
        _check(lib().trim_neteval_mapping(self.handle, self._index(i), ctypes.byref(m._h)))
        m._levels = self._levels
        return m

    def report(self, fmt="table"):
        """"table", "json" or "csv" (one row per workload)."""
        return _report(lib().trim_neteval_report, self.handle, _format(fmt))

    def report_json(self):
        return json.loads(self.report("json"))


# ---- explore.h --------------------------------------------------------------

# enum trim_explore_option: name -> (value, is a double)
EXPLORE_OPTIONS = {"goal": (0, False), "threads": (1, False), "sparsity": (2, False),
                   "max_mappings": (3, False), "area_budget": (10, True), "w_energy": (11, True),
                   "w_delay": (12, True), "w_area": (13, True), "min_pe_util": (14, True),
                   "min_rf_util": (15, True)}
EXPLORE_FIELDS = ("valid", "rank", "cycles", "seconds", "energy_pj", "static_pj", "edp", "area_mm2",
                  "pe_utilization", "pareto", "fits", "dsp", "bram36", "lut", "ff")  # TRIM_XF_*
_EXPLORE_FLAGS = ("valid", "pareto", "fits")
_EXPLORE_INTS = ("rank",)


def explore_goals():
    """Names of the explorer's goals, by TRIM_EXPLORE_* value."""
    return _names(lib().trim_explore_goal_name)


class Explorer(_Handle):
    """Every point of an architecture :class:`Space` on a network
    (``trim_explorer``): ``Explorer(network, workloads, space)``, options
    (goal by name, area budget, weights, threads, out dir), ``step()`` until
    True or ``run()``, then ``points()``, ``ranking()``, ``pareto()``, the
    report and ``write(dir)``.

    The C explorer keeps pointers to the network, workloads and space: this
    object holds references to them, and refuses to be used (TrimError) once
    one of them was closed."""

    _free = "trim_explorer_free"

    def __init__(self, network, workloads, space):
        super().__init__()
        self._inputs = (network, workloads, space)
        _check(lib().trim_explorer_create(ctypes.byref(self._h), network.handle, workloads.handle,
                                          space.handle))

    @property
    def handle(self):
        h = super().handle
        for obj in self._inputs:
            if not obj._h.value:
                raise TrimError(TRIM_EINVAL, "the explorer's %s is closed" % type(obj).__name__)
        return h

    def set(self, option, value):
        """Set an option by name (``EXPLORE_OPTIONS``) or TRIM_EX_* value."""
        if option in ("goal", 0) and isinstance(value, str):
            goals = explore_goals()
            if value not in goals:
                raise ValueError("goal must be one of %s" % ", ".join(goals))
            value = goals.index(value)
        elif option in ("sparsity", 2):
            value = 1 if value else 0
        _set_option(EXPLORE_OPTIONS, lib().trim_explorer_set_int, lib().trim_explorer_set_double,
                    self.handle, option, value)

    def set_goal(self, goal):
        """"energy", "delay", "edp", "area", "weighted" or a TRIM_EXPLORE_* value."""
        self.set("goal", goal)

    def set_threads(self, n):
        self.set("threads", n)

    def set_sparsity(self, on):
        self.set("sparsity", on)

    def set_max_mappings(self, n):
        self.set("max_mappings", n)

    def set_min_pe_util(self, fraction):
        self.set("min_pe_util", fraction)

    def set_min_rf_util(self, fraction):
        self.set("min_rf_util", fraction)

    def set_area_budget(self, mm2):
        self.set("area_budget", mm2)

    def set_weights(self, energy=1.0, delay=1.0, area=0.0):
        """Exponents of the weighted goal energy^we x delay^wd x area^wa."""
        self.set("w_energy", energy)
        self.set("w_delay", delay)
        self.set("w_area", area)

    def set_constraints(self, constraints):
        """Dataflow :class:`Constraints` for every point, added to the space's
        own ``mapspace_constraints`` (copied; None keeps only the space's)."""
        _check(lib().trim_explorer_set_constraints(self.handle, _cons(constraints)))

    def set_out_dir(self, path):
        """Make the sweep resumable through ``path`` (created if missing)."""
        _check(lib().trim_explorer_set_out_dir(self.handle, os.fsencode(path)))

    def step(self):
        """Evaluate the next point; True when all are done and ranked."""
        done = ctypes.c_int()
        _check(lib().trim_explorer_step(self.handle, ctypes.byref(done)))
        return bool(done.value)

    def run(self):
        _check(lib().trim_explorer_run(self.handle))
        return self

    @property
    def done(self):
        return lib().trim_explorer_done(self.handle)

    def __len__(self):
        return lib().trim_explorer_count(self.handle)

    @property
    def resumed(self):
        """Points loaded from the output directory instead of evaluated."""
        return lib().trim_explorer_resumed(self.handle)

    def point_name(self, i):
        if not 0 <= i < len(self):
            raise IndexError(i)
        return _text(lib().trim_explorer_point_name(self.handle, i))

    def names(self):
        return [self.point_name(i) for i in range(len(self))]

    def point(self, i):
        """TRIM_XF_* of point i as a dict with its "name" and "index"; valid,
        pareto and fits are bools, rank an int (0: not ranked)."""
        name = self.point_name(i)
        out = _doubles(len(EXPLORE_FIELDS))
        _check(lib().trim_explorer_point(self.handle, i, out, len(out)))
        d = dict(zip(EXPLORE_FIELDS, out))
        for k in _EXPLORE_FLAGS:
            d[k] = bool(d[k])
        for k in _EXPLORE_INTS:
            d[k] = int(d[k])
        d["name"], d["index"] = name, i
        return d

    def points(self):
        return [self.point(i) for i in range(len(self))]

    def ranked(self, rank):
        """Index of the point of rank ``rank`` (1 = best); TrimError
        TRIM_ENOTFOUND if no point has it."""
        idx = ctypes.c_size_t()
        _check(lib().trim_explorer_ranked(self.handle, rank, ctypes.byref(idx)))
        return idx.value

    def ranking(self):
        """Indices of the ranked points, best first."""
        out = []
        while True:
            idx = ctypes.c_size_t()
            if lib().trim_explorer_ranked(self.handle, len(out) + 1, ctypes.byref(idx)) != 0:
                return out
            out.append(idx.value)

    def pareto(self):
        """Names of the points on the (energy, delay, area) front, in point order."""
        return [p["name"] for p in self.points() if p["pareto"]]

    def report(self, fmt="table"):
        """"table", "json" ({goal, points, pareto}) or "csv"."""
        return _report(lib().trim_explorer_report, self.handle, _format(fmt))

    def report_json(self):
        return json.loads(self.report("json"))

    def write(self, path):
        """Write path/results.json, path/points.csv and path/workloads.csv."""
        _check(lib().trim_explorer_write(self.handle, os.fsencode(path)))
