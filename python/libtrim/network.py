"""Whole networks (NetEval) and the explorer."""
import ctypes
import json
import os

from .mapping import *  # noqa: F401,F403 (the helpers, by __all__)


# ---- neteval.h --------------------------------------------------------------

NET_OPTIONS = {"goal": (0, False), "threads": (1, False), "sparsity": (2, False),
               "max_mappings": (3, False), "cache": (4, False), "imperfect": (5, False), "count": (6, False), "min_pe_util": (10, True),
               "min_rf_util": (11, True), "time_limit": (12, True), "gap": (13, True)}  # enum trim_net_option: name -> (value, is a double)
NET_FIELDS = ("cycles", "energy_pj", "edp", "pe_utilization", "active_pes", "dense_cycles",
              "dense_energy_pj", "static_pj", "macs", "generated", "valid", "evaluated",
              "mapped", "offchip_bytes", "temporal_utilization", "compute_cycles",
              "bottleneck", "lower_bound", "gap", "exact", "reused_from")  # TRIM_NF_*


def fused_tiles(network, workloads, arch, table=None, fuse="all", level=None, goal="energy", threads=1,
                fmt="json", time_limit=0):
    """Fused tiles (``trim_fusedtiles_report``, ``trim network --fuse``;
    docs/fusion.md, "Fused tiles"): every chain of the network's layers
    planned as groups sharing the loops above the buffer ``level`` (a level
    name; None: the first storage level below DRAM), fused only within
    ``fuse`` ("all" or "FIRST:LAST"), searched exactly for ``goal`` ("energy"
    or "delay") on ``threads`` threads. Inference workloads, or training's
    (its FW and BW chains fuse). Returns the
    report parsed (``fmt="json"``: chains, groups, tile counts, DRAM bytes
    and those saved, buffer bytes, totals) or its text (``fmt="table"``).
    ``time_limit`` > 0 (seconds; ``trim_fusedtiles_report_within``): the
    best plan found by then, never worse than layer by layer, with its
    proven ``lower_bound`` and ``gap`` and ``stopped`` true."""
    net = _handle(network, Network, "network", "fused_tiles()")
    w = _handle(workloads, Workloads, "workloads", "fused_tiles()")
    a = _handle(arch, Arch, "arch", "fused_tiles()")
    t = _handle(table, Energy, "table", "fused_tiles()", optional=True)
    text = _report(lib().trim_fusedtiles_report_within, net, w, a, t, fuse.encode() if fuse else None,
                   level.encode() if level else None, _goal(goal), threads, float(time_limit), _format(fmt))
    return json.loads(text) if fmt == "json" else text


class NetEval(_Handle):
    """A whole network on one architecture (``trim_neteval``):
    ``NetEval(network, workloads, arch, table=None)``, options, optional
    ``load_trace``, then ``step()`` until it returns True (``done`` / ``len()``
    give progress) or ``run()``; then totals, ``level_energy()``,
    ``workload(i)``, ``mapping(i)`` and the report. It copies its inputs."""

    _free = "trim_neteval_free"

    def _describe(self):
        if self.done < len(self):
            return "%d/%d workloads mapped" % (self.done, len(self))
        return "%d workloads: %s cycles, %.6g pJ" % (len(self), format(int(self.cycles), ","),
                                                   self.energy_pj)

    def _repr_html_(self):
        head = "<p>%s</p>" % repr(self).replace("<", "&lt;")
        return head + (self.workloads()._repr_html_() if self.done == len(self) else "")
    _levels = ()

    def __init__(self, network, workloads, arch, table=None):
        super().__init__()
        net = _handle(network, Network, "network", "NetEval()")
        w = _handle(workloads, Workloads, "workloads", "NetEval()")
        a = _handle(arch, Arch, "arch", "NetEval()")
        t = _handle(table, Energy, "table", "NetEval()", optional=True)
        _check(lib().trim_neteval_create(ctypes.byref(self._h), net, w, a, t))
        self._levels = tuple(arch.level(k)["name"] for k in range(len(arch)))
        self._names = [(w["layer"], w["phase"]) for w in (workloads.intra(k) for k in range(len(workloads)))]

    def set(self, option, value):
        """Set an option by name (``NET_OPTIONS``) or TRIM_NET_* value."""
        if option in ("goal", 0):
            value = _goal(value)
        elif option in ("sparsity", 2):
            value = 1 if value else 0
        elif option in ("count", 6):
            value = _count(value)
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
        _check(lib().trim_neteval_set_constraints(self.handle, _cons(constraints, "NetEval.set_constraints()")))

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

    @property
    def progress(self):
        """Share of the searches done, in [0, 1]; readable from another thread during a step."""
        return lib().trim_neteval_progress(self.handle)

    def set_out_dir(self, path):
        """Keep finished searches in directory `path` and resume from it (trim network --out)."""
        _check(lib().trim_neteval_set_out_dir(self.handle, None if path is None else os.fsencode(path)))
        return self

    def search_proof(self):
        """{exact, lower_bound, gap, resumed, stale} of the whole network's searches."""
        lb, gap = ctypes.c_double(), ctypes.c_double()
        exact = lib().trim_neteval_exact(self.handle, ctypes.byref(lb), ctypes.byref(gap))
        res, stale = _c_int64(), _c_int64()
        _check(lib().trim_neteval_resumed(self.handle, ctypes.byref(res), ctypes.byref(stale)))
        return {"exact": None if exact < 0 else bool(exact), "lower_bound": lb.value, "gap": gap.value,
                "resumed": res.value, "stale": stale.value}

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
        dict, with its "layer", "phase" and its energy per level ("<level>_pj",
        e.g. "DRAM_pj": the columns of trim network's CSV)."""
        i = self._index(i)
        out = _doubles(len(NET_FIELDS))
        _check(lib().trim_neteval_workload(self.handle, i, out, len(out)))
        d = dict(zip(NET_FIELDS, out))
        d["bottleneck"] = int(d["bottleneck"])  # a level index, -1 if not mapped
        if d["exact"] == d["exact"]:  # not NaN
            d["exact"] = bool(d["exact"])
        if d["reused_from"] == d["reused_from"]:
            d["reused_from"] = int(d["reused_from"])  # an earlier identical workload, or -1
        d["layer"], d["phase"] = self._names[i]
        d.update(_level_energy(lib().trim_neteval_breakdown, (self.handle, i), self._levels, d["mapped"] == 1))
        return d

    def workloads(self):
        """Every intra workload (``workload(i)``) as :class:`Rows`: a list of
        dicts, ``.frame()`` a DataFrame."""
        return Rows(self.workload(i) for i in range(len(self)))

    def mapping(self, i):
        """A copy of the best :class:`Mapping` of intra workload i."""
        m = _new(Mapping)
        _check(lib().trim_neteval_mapping(self.handle, self._index(i), ctypes.byref(m._h)))
        m._levels = self._levels
        return m

    @property
    def temporal_utilization(self):
        """MACs executed / (PEs x MACs per PE per cycle x cycles) of the intra
        workloads together (``pe_utilization`` is the spatial one)."""
        return lib().trim_neteval_temporal_utilization(self.handle)

    def breakdown(self, i):
        """Counts and energy of intra workload i (an index or (layer, phase))
        per level, tensor and action, as :class:`Rows` of {level, tensor,
        action, count, energy_pj} (the non-zero entries). Their energies add
        up to ``workload(i)["energy_pj"]``."""
        return _breakdown(lib().trim_neteval_breakdown, (self.handle, self._index(i)), self._levels)

    def breakdowns(self):
        """The breakdown of every mapped workload, one row per entry with the
        workload's "index", "layer" and "phase" (``.frame()``: a DataFrame)."""
        rows = []
        for i in range(len(self)):
            if not self.workload(i)["mapped"]:
                continue
            for r in self.breakdown(i):
                rows.append(dict(index=i, layer=self._names[i][0], phase=self._names[i][1], **r))
        return Rows(rows)

    def inter(self, j):
        """Inter workload j: {cycles, energy_pj, static_pj, level, mapped}."""
        out = _doubles(5)
        _check(lib().trim_neteval_inter(self.handle, j, out, len(out)))
        d = dict(zip(("cycles", "energy_pj", "static_pj", "level", "mapped"), out))
        d["level"], d["mapped"] = self._levels[int(d["level"])], bool(d["mapped"])
        return d

    def warnings(self):
        """Warnings of defaults that starve the design: a list of dicts
        {kind, level, workloads, message}."""
        return _json_text(lib().trim_neteval_warnings, self.handle)

    def write_html(self, path):
        """Write the self-contained HTML report (charts, loop nests, warnings)."""
        _check(lib().trim_neteval_write_html(self.handle, os.fsencode(path)))

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
                   "min_rf_util": (15, True), "time_limit": (16, True), "gap": (17, True), "imperfect": (4, False)}
EXPLORE_FIELDS = ("valid", "rank", "cycles", "seconds", "energy_pj", "static_pj", "edp", "area_mm2",
                  "pe_utilization", "pareto", "fits", "dsp", "bram36", "lut", "ff",
                  "exact", "lower_bound", "gap", "rank_best", "rank_worst", "pareto_proven")  # TRIM_XF_*
EXPLORE_FUSED_FIELDS = ("planned", "chains", "fused_groups", "dram_bytes", "lbl_dram_bytes", "dram_saved",
                        "buffer_bytes", "cost", "lbl_cost", "lower_bound", "exact", "lbl_energy_pj",
                        "lbl_cycles")  # TRIM_XFU_*
_EXPLORE_FLAGS = ("valid", "pareto", "fits", "exact", "pareto_proven")
_EXPLORE_INTS = ("rank", "rank_best", "rank_worst")


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

    def _describe(self):
        return "%d/%d points evaluated (%d resumed)" % (self.done, len(self), self.resumed)

    def _repr_html_(self):
        head = "<p>%s</p>" % repr(self).replace("<", "&lt;")
        return head + (self.points()._repr_html_() if self.done == len(self) else "")

    def __init__(self, network, workloads, space):
        super().__init__()
        self._inputs = ()
        net = _handle(network, Network, "network", "Explorer()")
        w = _handle(workloads, Workloads, "workloads", "Explorer()")
        s = _handle(space, Space, "space", "Explorer()")
        self._inputs = (network, workloads, space)
        _check(lib().trim_explorer_create(ctypes.byref(self._h), net, w, s))

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
        _check(lib().trim_explorer_set_constraints(self.handle, _cons(constraints, "Explorer.set_constraints()")))

    def set_fuse(self, fuse="all", level=None):
        """Fused tiles (``trim_explorer_set_fuse``, ``trim explore --fuse``;
        docs/fusion.md, "Interfaces"): each valid point's chains planned as
        fused groups at the buffer ``level`` (None: the first storage level
        below DRAM), fused only within ``fuse`` ("all" or "FIRST:LAST"; None:
        no fused tiles); a point's energy and cycles are then its
        layer-by-layer figures less what the plan saves, and ``fused(i)``
        gives its chains' figures (training's FW and BW chains too). Energy
        or delay goal, dense figures; not with an out dir."""
        _check(lib().trim_explorer_set_fuse(self.handle, fuse.encode() if fuse else None,
                                            level.encode() if level else None))

    def fused(self, i):
        """TRIM_XFU_* of point i as a dict (``EXPLORE_FUSED_FIELDS``): its
        chains' DRAM bytes fused and layer by layer, the bytes saved, the
        fused groups, the buffer bytes they need, the goal's cost of the
        plans and layer by layer, and the point's figures layer by layer;
        planned and exact are bools."""
        out = _doubles(len(EXPLORE_FUSED_FIELDS))
        _check(lib().trim_explorer_point_fused(self.handle, i, out, len(out)))
        d = dict(zip(EXPLORE_FUSED_FIELDS, out))
        for k in ("planned", "exact"):
            d[k] = bool(d[k])
        for k in ("chains", "fused_groups"):
            d[k] = int(d[k])
        return d

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
        pareto, fits, exact and pareto_proven are bools, rank, rank_best and
        rank_worst ints (0: not ranked). How sure the point is: exact (every
        search proven optimal), lower_bound (no mappings give the goal's figure
        less; NaN: no bound), gap ((figure - lower_bound) / figure), the ranks
        it could hold within the bounds (rank_best == rank_worst: its order is
        proven) and pareto_proven (its place on or off the front proven)."""
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
        """Every point (``point(i)``) as :class:`Rows`: a list of dicts,
        ``.frame()`` a DataFrame."""
        return Rows(self.point(i) for i in range(len(self)))

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

    def workload(self, i, k, _levels=None):
        """TRIM_NF_* of intra workload k of valid point i, as
        :meth:`NetEval.workload` gives them (generated, valid, evaluated and
        reused_from are NaN: the explorer keeps no search counts), with its
        energy per level ("<level>_pj": the columns of workloads.csv)."""
        out = _doubles(len(NET_FIELDS))
        _check(lib().trim_explorer_workload(self.handle, i, k, out, len(out)))
        d = dict(zip(NET_FIELDS, out))
        d["bottleneck"] = int(d["bottleneck"])
        d["exact"] = bool(d["exact"])
        d.update(_level_energy(lib().trim_explorer_breakdown, (self.handle, i, k),
                               _levels or self._point_levels(i)))
        return d

    def workloads(self, i):
        """Every workload of valid point i (``workload(i, k)``) as :class:`Rows`."""
        levels = self._point_levels(i)
        return Rows(dict(index=k, **self.workload(i, k, levels))
                    for k in range(len(self._inputs[1])))

    def _point_levels(self, i):
        a = self._inputs[2].point_arch(i)
        return tuple(a.level(k)["name"] for k in range(len(a)))

    def breakdown(self, i, k):
        """Counts and energy per level, tensor and action of workload k of
        valid point i (:meth:`NetEval.breakdown`)."""
        return _breakdown(lib().trim_explorer_breakdown, (self.handle, i, k), self._point_levels(i))

    def warnings(self, i):
        """Warnings of valid point i: a list of dicts {kind, level, workloads, message}."""
        return _json_text(lib().trim_explorer_warnings, self.handle, i)

    def write_html(self, path):
        """Write the self-contained HTML report (ranking, Pareto front, every point)."""
        _check(lib().trim_explorer_write_html(self.handle, os.fsencode(path)))


__all__ = [n for n in dict(globals()) if not n.startswith("__")]
