"""Mappings, the evaluation of one mapping, the search, dataflow constraints."""
import ctypes
import json
import os

from .hardware import *  # noqa: F401,F403 (the helpers, by __all__)


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


# enum trim_count: the counting rules, by value
COUNTS = ("libtrim", "timeloop")


def _count(c):
    """A TRIM_COUNT_* value from a name ("libtrim", "timeloop") or an int."""
    if isinstance(c, str):
        if c not in COUNTS:
            raise ValueError("counting rules must be one of %s" % ", ".join(COUNTS))
        return COUNTS.index(c)
    return c


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

    def _describe(self):
        return "%d levels" % len(self)
    _levels = ()

    def __init__(self, arch, path=None, text=None, name="<string>"):
        super().__init__()
        a = _handle(arch, Arch, "arch", "Mapping()")
        if text is not None:
            _check(lib().trim_mapping_load_string(ctypes.byref(self._h), a, text.encode(), name.encode()))
        elif path is not None:
            _check(lib().trim_mapping_load(ctypes.byref(self._h), a, os.fsencode(path)))
        else:
            _check(lib().trim_mapping_create(ctypes.byref(self._h), a))
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
        w = _handle(workloads, Workloads, "workloads", "Mapping.check()")
        a = _handle(arch, Arch, "arch", "Mapping.check()")
        _check(lib().trim_mapping_check(self.handle, w, _windex(workloads, i), a))

    def dump(self, fmt="yaml"):
        """libtrim's YAML form ("yaml", loads back) or the loop nest ("table")."""
        if fmt not in ("yaml", "table"):
            raise ValueError("format must be yaml or table")
        return _report(lib().trim_mapping_dump, self.handle, FORMATS[fmt])


# ---- eval.h -----------------------------------------------------------------

class Eval(_Handle):
    """One mapping of one intra workload evaluated (``trim_eval_mapping_count``):
    ``Eval(workloads, i, arch, mapping, table=None, count="libtrim")``, ``i``
    an index or a (layer, phase) pair, ``table`` an :class:`Energy` (None: the
    arch's technology), ``count`` the counting rules (``COUNTS``: "timeloop"
    charges as Timeloop does, docs/mapping.md). Raises TrimError if the
    mapping does not fit. The result does not refer to its inputs."""

    _free = "trim_eval_free"

    def _describe(self):
        return "%s cycles, %.6g pJ, bottleneck %s" % (format(int(self.cycles), ","), self.energy_pj,
                                                     self.bottleneck)

    def __init__(self, workloads, i, arch, mapping, table=None, count="libtrim"):
        super().__init__()
        w = _handle(workloads, Workloads, "workloads", "Eval()")
        a = _handle(arch, Arch, "arch", "Eval()")
        m = _handle(mapping, Mapping, "mapping", "Eval()")
        t = _handle(table, Energy, "table", "Eval()", optional=True)
        _check(lib().trim_eval_mapping_count(ctypes.byref(self._h), w, _windex(workloads, i), a, t, m,
                                             _count(count)))
        self._levels = tuple(arch.level(k)["name"] for k in range(len(arch)))

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
    def padded_macs(self):
        """MACs of the padded loop nest: ``macs``, or more for an imperfect
        factorisation (ragged tiles)."""
        return _check_index(lib().trim_eval_padded_macs(self.handle))

    @property
    def pe_utilization_real(self):
        """The PEs doing real work on average over the steps / PEs (below
        ``pe_utilization`` when PEs idle on ragged tiles)."""
        return lib().trim_eval_pe_utilization_real(self.handle)

    @property
    def bottleneck(self):
        """Name of the level with the most cycles."""
        return _text(lib().trim_eval_bottleneck(self.handle))

    @property
    def temporal_utilization(self):
        """MACs executed / (PEs x MACs per PE per cycle x cycles)."""
        return lib().trim_eval_temporal_utilization(self.handle)

    @property
    def compute_cycles(self):
        """Cycles of the compute level alone."""
        return lib().trim_eval_compute_cycles(self.handle)

    def breakdown(self):
        """Counts and energy per (level, tensor, action) as :class:`Rows` of
        {level, tensor, action, count, energy_pj} (the non-zero entries);
        their energies add up to ``energy_pj``."""
        return _breakdown(lib().trim_eval_breakdown, (self.handle,), self._levels)

    def warnings(self):
        """Warnings of a design that starves its compute: a list of dicts
        {kind, level, workloads, message}."""
        return _json_text(lib().trim_eval_warnings, self.handle)

    def report(self, fmt="table"):
        """"table" or "json" (every count per level and tensor)."""
        return _report(lib().trim_eval_report, self.handle, _format(fmt))

    def report_json(self):
        return json.loads(self.report("json"))


# ---- search.h ---------------------------------------------------------------

# enum trim_search_option: name -> (value, is a double)
SEARCH_OPTIONS = {"goal": (0, False), "threads": (1, False), "min_pe_util": (2, True),
                  "min_rf_util": (3, True), "top_k": (4, False), "time_limit": (5, True),
                  "gap": (6, True), "imperfect": (7, False), "count": (8, False)}
SEARCH_COUNTS = ("generated", "valid", "evaluated", "unsupported", "pruned", "skipped")


class Search(_Handle):
    """Exhaustive mapping search for one intra workload (``trim_search``):
    ``Search(workloads, i, arch, table=None)``, set options, look at
    ``size`` / ``distinct`` before a long ``run()``, then ``counts()``,
    ``best()`` (a :class:`Mapping`), ``best_index``, ``top(k)`` and the report.
    Options by name (``SEARCH_OPTIONS``) or TRIM_SEARCH_* value; goals by name
    (``GOALS``)."""

    _free = "trim_search_free"

    def _describe(self):
        return "%.6g distinct mappings" % self.distinct
    _levels = ()

    def __init__(self, workloads, i, arch, table=None):
        super().__init__()
        w = _handle(workloads, Workloads, "workloads", "Search()")
        a = _handle(arch, Arch, "arch", "Search()")
        t = _handle(table, Energy, "table", "Search()", optional=True)
        _check(lib().trim_search_create(ctypes.byref(self._h), w, _windex(workloads, i), a, t))
        self._levels = tuple(arch.level(k)["name"] for k in range(len(arch)))

    def set(self, option, value):
        """Set an option by name or value (``trim_search_set_int`` / ``_set_double``)."""
        if option in ("goal", 0):
            value = _goal(value)
        if option in ("count", 8):
            value = _count(value)
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

    def set_imperfect(self, on=True):
        """Also search imperfect factorisations (a dim over more PEs than any
        divisor fits, a ragged last pass; TRIM_SEARCH_IMPERFECT): a larger
        space, another index, slower."""
        self.set("imperfect", 1 if on else 0)

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
        _check(lib().trim_search_set_constraints(self.handle, _cons(constraints, "Search.set_constraints()")))

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

    @property
    def lower_bound(self):
        """Proven lower bound on the goal's cost of every mapping (NaN before a run)."""
        return lib().trim_search_lower_bound(self.handle)

    @property
    def gap(self):
        """(best - lower bound) / best: 0 when exact (NaN before a run)."""
        return lib().trim_search_gap(self.handle)

    @property
    def exact(self):
        """True when the best is exhaustive evaluation's (cost, second figure, index); None before a run."""
        v = lib().trim_search_exact(self.handle)
        return None if v < 0 else bool(v)

    @property
    def why_empty(self):
        """After a run that found no mapping: why (the utilisation constraint that
        prunes every mapping that fits, or the dataflow constraints and custom
        factors without which one fits); None when a mapping was found."""
        v = lib().trim_search_why_empty(self.handle)
        return None if v is None else v.decode()

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
        """(cost, index) of the k-th best mapping (0 = the best; ranked on the goal's
        cost, then the other figure: energy for delay and EDP, cycles for energy, then
        the index)."""
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

    def _describe(self):
        return "%d constraints, %d presets" % (len(self), self.preset_count)

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
        _check(lib().trim_constraints_merge(self.handle, _handle(other, Constraints, "other", "Constraints.merge()")))
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
        _check(lib().trim_constraints_check(self.handle, _handle(arch, Arch, "arch", "Constraints.check()")))

    def dump(self, arch=None):
        """libtrim's YAML form; with ``arch``, the presets spelled out for it."""
        a = _handle(arch, Arch, "arch", "Constraints.dump()", optional=True)
        out = _vp()
        _check(lib().trim_constraints_dump(self.handle, a, ctypes.byref(out)))
        return _take_string(out)


def _cons(c, where):
    """The handle of optional constraints given to ``where`` (TypeError if not Constraints)."""
    return _handle(c, Constraints, "constraints", where, optional=True)


__all__ = [n for n in dict(globals()) if not n.startswith("__")]
