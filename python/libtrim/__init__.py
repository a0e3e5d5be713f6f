"""libtrim: the Python binding (ctypes) of libtrim's C API.

The package loads the shared library by itself: ``$TRIM_LIBRARY`` if set,
else the ``libtrim.so.0`` installed next to the package (``make install``
puts both under one PREFIX), else the dynamic loader's, else a source
tree's build/lib (``find_library()``). Every failing call raises
:class:`TrimError` carrying the library's message ("file:line:col: key:
..."); an integer that does not fit its C type raises OverflowError and text
with a NUL byte ValueError (instead of passing a different value), and an
object of another class where a handle is expected (an Arch given as the
network) TypeError naming the parameter, the class expected and the class
given, before any C call (the library refuses it too). Handles
are freed when their Python object is collected, or explicitly with
``close()`` / a ``with`` block. Shipped models are found from any directory
with ``data_path()``.

    import libtrim
    with libtrim.Network(libtrim.data_path("models/networks/alexnet.yaml")) as net:
        w = libtrim.Workloads(net, mode="training")
        print(len(w), w.totals()["peak_cached_bytes"])
        w.all().frame()                         # a pandas DataFrame (python3-pandas)

    from libtrim import Arch, Energy, Fusion, data_path
    arch = Arch(data_path("models/arch/virtex7-690t.yaml"))
    fusion = Fusion(Network(data_path("models/networks/vgg16.yaml")), "conv1_1", "conv3_1")
    fusion.set_hardware(arch)                   # table resolved from the technology
    result = fusion.explore("offchip")
    print(result.plan_metrics(result.best)["offchip_bytes"])

    from libtrim import Mapping, Eval, Search, NetEval, Space, Explorer
    arch = Arch(data_path("models/arch/eyeriss.yaml"))
    net = Network(data_path("models/networks/alexnet-cifar.yaml"))
    w = Workloads(net)
    ne = NetEval(net, w, arch).run()
    ne.workloads()                              # a list of dicts, one per workload
    ne.workloads().frame()                      # the same as a DataFrame
    with Explorer(net, w, Space(data_path("models/arch/spaces/default.yaml"))) as ex:
        ex.set_goal("edp"); ex.run()
        print([ex.point(i)["name"] for i in ex.ranking()], ex.pareto())

    from libtrim import Constraints
    s = Search(w, ("conv1", "FW"), arch)
    s.set_constraints(Constraints(preset="row-stationary"))
    print(s.distinct, s.run().best().dump())

Modules covered: networks and workloads (trim/workload.h), architectures
(arch.h), energy / area tables (energy.h), architecture spaces (space.h),
sparsity (sparsity.h), inter-layer fusion (fusion.h), mappings (mapping.h),
evaluation of one mapping (eval.h), the mapping search (search.h), dataflow
constraints (constraints.h), whole networks (neteval.h) and the explorer
(explore.h). Each class wraps one opaque handle and calls the C functions of
the same name; the library copies what it needs, so a handle may outlive the
objects it was made from. Lists of results (``Workloads.all()``,
``Arch.levels()``, ``NetEval.workloads()``, ``Explorer.points()``) are
:class:`Rows`: plain lists of dicts with ``.frame()`` for pandas and an HTML
table in Jupyter.
"""
from ._core import (ACTIONS, DIMS, FORMATS, MODES, PHASES, TRIM_EINVAL, TRIM_ENOTFOUND, TRIM_ERANGE, Network,
                    TrimError, Workloads, data_path, find_library, lib, version)
from ._rows import Rows, frame, html_table
from .hardware import (FPGA_RESOURCES, FUSION_LAYER_METRICS, FUSION_TIMES, SPARSITY_FIELDS, Arch,
                       Energy, Fusion, FusionPlan, FusionResult, Space, Sparsity, fusion_goals,
                       fusion_metrics, fusion_params, imbalance, resolve_table)
from .mapping import (COUNTS, GOALS, SEARCH_COUNTS, SEARCH_OPTIONS, SLOTS, Constraints, Eval, Mapping,
                      Search, dataflow_presets)
from .network import (EXPLORE_FIELDS, EXPLORE_OPTIONS, NET_FIELDS, NET_OPTIONS, Explorer, NetEval,
                      explore_goals, fused_tiles)

__version__ = "0.1.0"

__all__ = [
    "ACTIONS", "Arch", "COUNTS", "Constraints", "DIMS", "EXPLORE_FIELDS", "EXPLORE_OPTIONS", "Energy", "Eval",
    "Explorer", "FORMATS", "FPGA_RESOURCES", "FUSION_LAYER_METRICS", "FUSION_TIMES", "Fusion",
    "FusionPlan", "FusionResult", "GOALS", "MODES", "Mapping", "NET_FIELDS", "NET_OPTIONS",
    "NetEval", "Network", "PHASES", "Rows", "SEARCH_COUNTS", "SEARCH_OPTIONS", "SLOTS",
    "SPARSITY_FIELDS", "Search", "Space", "Sparsity", "TRIM_EINVAL", "TRIM_ENOTFOUND",
    "TRIM_ERANGE", "TrimError", "Workloads", "data_path",
    "dataflow_presets", "explore_goals", "find_library", "frame", "fusion_goals",
    "fusion_metrics", "fusion_params", "fused_tiles", "html_table", "imbalance", "lib", "resolve_table",
    "version",
]
