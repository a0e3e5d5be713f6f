"""Architectures, energy tables, spaces, sparsity and fusion."""
import ctypes
import json
import os

from ._core import *  # noqa: F401,F403 (the helpers, by __all__)


# ---- arch.h -----------------------------------------------------------------

class Arch(_Handle):
    """An architecture (``trim_arch``): an ordered hierarchy of levels, from
    off-chip memory (level 0) to the MAC (last level).

    ``Arch(path)`` or ``Arch(text=yaml)`` (a technology name such as 45nm is
    found in the data directories; ``name`` only labels messages and anchors a
    technology given as a relative path); ``clone()`` gives a
    deep copy; ``levels()`` lists every level as a dict of its accessors;
    ``report(fmt, table)`` is ``trim_arch_report`` (capacities, energy per
    access, area or FPGA resources, the roofline); ``warnings(workloads)`` the
    warnings before the work (``trim_arch_warnings``)."""

    _free = "trim_arch_free"

    def _describe(self):
        return "%r (%s): %d levels, %d PEs, %d-bit, %g MHz, technology %s" % (
            self.name, self.file, len(self), self.total_pes, self.word_bits, self.clock_mhz,
            self.technology)

    def _repr_html_(self):
        return "<p>%s</p>%s" % (repr(self).replace("<", "&lt;"), self.levels()._repr_html_())

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
        """Every level, from off-chip memory to the MAC (see ``level``), as
        :class:`Rows` (a list of dicts; ``.frame()`` a DataFrame)."""
        return Rows(self.level(i) for i in range(len(self)))

    def report(self, fmt="table", table=None):
        """``trim_arch_report`` as "table" or "json" text; ``table`` is an
        :class:`Energy` (None: resolved from the technology)."""
        t = _handle(table, Energy, "table", "Arch.report()", optional=True)
        return _report(lib().trim_arch_report, self.handle, t, _format(fmt))

    def report_json(self, table=None):
        """The JSON report, parsed (its "roofline" and "warnings" included)."""
        return json.loads(self.report("json", table))

    def warnings(self, workloads=None, workload=-1):
        """``trim_arch_warnings``: the warnings before the work, parsed (a list of
        dicts with "kind", "level", "workloads", "message" and, for
        "traffic_bound", "utilization_bound"); ``workloads`` a
        :class:`Workloads` (None: the architecture alone), ``workload`` the index
        of one intra workload, or -1 for all."""
        w = _handle(workloads, Workloads, "workloads", "Arch.warnings()", optional=True)
        return _json_text(lib().trim_arch_warnings, self.handle, w, int(workload), FORMATS["json"])


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

    def _describe(self):
        return "%r (%s)%s" % (self.name, self.file, ", FPGA" if self.is_fpga else "")

    def __init__(self, path=None, text=None, name="<string>"):
        super().__init__()
        if text is not None:
            _check(lib().trim_energy_load_string(ctypes.byref(self._h), text.encode(), name.encode()))
        else:
            _check(lib().trim_energy_load(ctypes.byref(self._h), os.fsencode(path)))

    @classmethod
    def for_arch(cls, arch):
        """The table of an architecture's technology (``trim_energy_load_for_arch``)."""
        a = _handle(arch, Arch, "arch", "Energy.for_arch()")
        t = _new(cls)
        _check(lib().trim_energy_load_for_arch(ctypes.byref(t._h), a))
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
        a = _handle(arch, Arch, "arch", "Energy.resources()")
        out = _doubles(8)
        fits = _check_index(lib().trim_energy_resources(self.handle, a, out, 8))
        return {"used": dict(zip(FPGA_RESOURCES, out[0:4])),
                "available": dict(zip(FPGA_RESOURCES, out[4:8])),
                "fits": bool(fits)}

    def arch_area(self, arch):
        """Total area in mm^2 of ``arch`` under this (ASIC) table."""
        a = _handle(arch, Arch, "arch", "Energy.arch_area()")
        v = ctypes.c_double()
        _check(lib().trim_energy_arch_area(self.handle, a, ctypes.byref(v)))
        return v.value

    def report(self, arch, fmt="table"):
        """The architecture report of ``arch`` costed with this table (the C
        API has no report of a table alone: this is ``trim_arch_report``)."""
        _handle(arch, Arch, "arch", "Energy.report()")
        return arch.report(fmt, self)


# ---- space.h ----------------------------------------------------------------

class Space(_Handle):
    """An architecture space (``trim_space``): a base architecture and
    parameter grids in canonical order; ``len()`` is the number of accepted
    points, ``grid_size`` counts the rejected ones too. ``point_arch(i)``
    returns a new :class:`Arch`."""

    _free = "trim_space_free"

    def _describe(self):
        return "%r: %d points of a %d-point grid" % (self.name, len(self), self.grid_size)

    def __init__(self, path):
        super().__init__()
        _check(lib().trim_space_load(ctypes.byref(self._h), os.fsencode(path)))

    def constraints(self):
        """A copy of the space's ``mapspace_constraints`` (:class:`Constraints`), or None."""
        h = lib().trim_space_constraints(self.handle)
        if not h:
            return None
        from .mapping import Constraints  # defined after this module
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
        net = _handle(network, Network, "network", "Sparsity()")
        w = _handle(workloads, Workloads, "workloads", "Sparsity()")
        _check(lib().trim_sparsity_create(ctypes.byref(self._h), net, w))

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

    def _describe(self):
        return "%d layers (%s .. %s)" % (len(self), self.layers()[0], self.layers()[-1]) if len(self) else ""

    def __init__(self, network, first=None, last=None):
        super().__init__()
        net = _handle(network, Network, "network", "Fusion()")
        _check(lib().trim_fusion_create(ctypes.byref(self._h), net, _enc(first), _enc(last)))

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
        a = _handle(arch, Arch, "arch", "Fusion.set_hardware()")
        t = _handle(table, Energy, "table", "Fusion.set_hardware()", optional=True)
        _check(lib().trim_fusion_set_hardware(self.handle, a, t))

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

    def _describe(self):
        return "%d groups: %s" % (len(self), self.groups())
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

    def _describe(self):
        return "%d plans considered, %d on the Pareto set" % (self.considered, len(self))

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


__all__ = [n for n in dict(globals()) if not n.startswith("__")]
