"""The Python package libtrim (python/), installed, against the built shared library.

Run by `make check` with /usr/bin/python3 (Debian's: pip, setuptools, pandas,
matplotlib) and TRIM_LIBRARY pointing at the library under test. The package
is installed first (pip --target, offline, from a copy of python/) and that
installation, not the tree, is imported.
"""
import atexit
import csv
import io
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

_TREE_PYTHON = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python")


def _install_package():
    """pip install --target a temporary directory; that directory goes first on sys.path."""
    tmp = tempfile.mkdtemp(prefix="libtrim-python-")
    atexit.register(shutil.rmtree, tmp, True)
    src = os.path.join(tmp, "src")
    shutil.copytree(_TREE_PYTHON, src, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    target = os.path.join(tmp, "site")
    r = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-build-isolation", "--no-index",
                        "--no-deps", "--no-compile", "--root-user-action=ignore", "--target", target, src],
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("cannot install python/ with %s -m pip: %s" % (sys.executable, r.stderr))
    sys.path.insert(0, target)
    return target


INSTALLED = _install_package()
import libtrim as trim  # noqa: E402

assert os.path.realpath(trim.__file__).startswith(os.path.realpath(INSTALLED)), trim.__file__


class BindingTest(unittest.TestCase):
    def test_network_and_workloads(self):
        with trim.Network("models/networks/alexnet.yaml") as net:
            self.assertEqual(net.name, "alexnet")
            self.assertEqual(net.macs, 724406816)
            self.assertEqual(len(net.layers()), len([l for l in net.layers()]))
            w = trim.Workloads(net, mode="training")
            self.assertEqual(len(w), 29)
            i = w.find("conv2", "BW")
            self.assertEqual(w.intra(i)["phase"], "BW")
            self.assertEqual(w.totals()["intra_count"], 29)
            w.close()
            w.close()  # closing twice is harmless

    def test_errors_carry_the_message(self):
        with self.assertRaises(trim.TrimError) as cm:
            trim.Network("test/data/bad/unknown_key.yaml")
        self.assertIn("unknown_key.yaml:4:", cm.exception.message)
        self.assertIn("layers[1].stride", str(cm.exception))
        self.assertLess(cm.exception.code, 0)
        with trim.Network(text="network: {name: x, input: [4, 4, 1]}\nlayers:\n  - {type: flatten}\n") as net:
            w = trim.Workloads(net)
            with self.assertRaises(trim.TrimError):
                w.find("nothing", "FW")

    def test_closed_handle(self):
        net = trim.Network("models/networks/trim-fig2.yaml")
        net.close()
        with self.assertRaises(trim.TrimError):
            net.name


# c0 (ReLU, 40% zeros) -> c1 (linear) -> bn -> r1 (ReLU, 60%) -> p (maxpool 2x2)
# -> c2 (ReLU, 50% / gradient 45%) -> flatten -> fc   (as test/check_sparsity.c)
SPARSE_NET = """\
network: {name: s, input: [8, 8, 2], batch: 2, mode: training}
layers:
  - {name: c0, type: conv2d, filters: 4, kernel: 3, padding: same, activation: relu, sparsity: 0.4}
  - {name: c1, type: conv2d, filters: 4, kernel: 3, padding: same, use_bias: false}
  - {name: bn, type: batchnorm}
  - {name: r1, type: activation, activation: relu, sparsity: 0.6}
  - {name: p, type: maxpool2d, pool: 2}
  - {name: c2, type: conv2d, filters: 4, kernel: 3, padding: same, activation: relu,
     sparsity: {activation: 0.5, gradient: 0.45}}
  - {type: flatten}
  - {name: fc, type: dense, units: 3}
"""

VGG_CHAIN = ["conv1_1", "conv1_2", "pool1", "conv2_1", "conv2_2", "pool2", "conv3_1"]


class ArchTest(unittest.TestCase):
    def test_eyeriss(self):
        with trim.Arch("models/arch/eyeriss.yaml") as a:
            self.assertEqual(a.name, "eyeriss")
            self.assertEqual(a.technology, "65nm")
            self.assertEqual(a.file, "models/arch/eyeriss.yaml")
            self.assertEqual(a.clock_mhz, 200)
            self.assertEqual(a.word_bits, 16)
            self.assertEqual(a.total_pes, 168)
            self.assertEqual([l["name"] for l in a.levels()], ["DRAM", "GLB", "PE array", "RF", "MAC"])
            self.assertEqual([l["type"] for l in a.levels()],
                             ["storage", "storage", "spatial", "storage", "compute"])
            glb = a.level("GLB")
            self.assertEqual((glb["class"], glb["capacity"], glb["instances"]), ("sram", 108 * 1024, 1))
            self.assertEqual(a.find("PE array"), 2)
            self.assertEqual(a.level(2)["fanout"], (14, 12))
            self.assertEqual(a.level("RF")["instances"], 168)
            self.assertEqual(a.level("DRAM")["capacity"], 0)  # unbounded
            with self.assertRaises(IndexError):
                a.level(len(a))
            with self.assertRaises(trim.TrimError) as cm:
                a.find("L3")
            self.assertEqual(cm.exception.code, trim.TRIM_ENOTFOUND)

    def test_clone_outlives_original(self):
        a = trim.Arch("models/arch/eyeriss.yaml")
        b = a.clone()
        a.close()
        self.assertEqual(b.name, "eyeriss")
        self.assertEqual(b.total_pes, 168)
        self.assertIsNot(b.handle, None)
        b.close()

    def test_report(self):
        with trim.Arch("models/arch/eyeriss.yaml") as a:
            r = a.report_json()
            self.assertEqual(r["total_pes"], 168)
            self.assertEqual(r["table"], "65nm")
            self.assertEqual([l["name"] for l in r["levels"]], [l["name"] for l in a.levels()])
            text = a.report("table")
            self.assertIn("eyeriss", text)
            self.assertIn("GLB", text)
            with trim.Energy("energy_tables/45nm.yaml") as t45:
                self.assertEqual(a.report_json(t45)["table"], "45nm")
                self.assertEqual(t45.report(a, "json"), a.report("json", t45))
            with self.assertRaises(ValueError):
                a.report("xml")

    def test_roofline_and_warnings(self):
        """The hand-worked roofline of test/data/arch/roofline.yaml and the
        traffic bound of one FC layer on it (test/check_arch.c, check_report.c)."""
        with trim.Arch("test/data/arch/roofline.yaml") as a:
            roof = a.report_json()["roofline"]
            self.assertEqual((roof["peak_macs_per_cycle"], roof["binds_first"]), (32, "DRAM"))
            link = [l for l in roof["levels"] if l["name"] == "Array"][0]
            self.assertEqual((link["link_words_per_cycle"]["input"], link["macs_per_word"]), (2, 16))
            self.assertEqual(a.warnings(), [])
            with trim.Network("test/data/networks/fc64.yaml") as net, trim.Workloads(net) as w:
                found = {x["level"]: x for x in a.warnings(w)}
                self.assertEqual(found["DRAM"]["kind"], "traffic_bound")
                self.assertAlmostEqual(found["DRAM"]["utilization_bound"], 64 / 1024, places=15)
                self.assertAlmostEqual(found["Array"]["utilization_bound"], 64 / 1040, places=15)
                self.assertEqual(a.warnings(w, 0), a.warnings(w))
                with self.assertRaises(trim.TrimError):
                    a.warnings(w, 1)

    def test_from_text(self):
        text = read("models/arch/eyeriss.yaml").replace("name: eyeriss", "name: copy")
        with trim.Arch(text=text, name="copy.yaml") as a:
            self.assertEqual((a.name, a.file, a.total_pes), ("copy", "copy.yaml", 168))


class EnergyTest(unittest.TestCase):
    def test_glb_read_costs_more_than_rf_read(self):
        with trim.Arch("models/arch/eyeriss.yaml") as a, trim.Energy.for_arch(a) as t:
            self.assertEqual(t.name, "65nm")
            self.assertFalse(t.is_fpga)
            glb, rf = a.level("GLB"), a.level("RF")
            e_glb = t.action("sram", "read", glb["capacity"], glb["word_bits"])
            e_rf = t.action("regfile", "read", rf["capacity"], rf["word_bits"])
            self.assertGreater(e_rf, 0)
            self.assertGreater(e_glb, e_rf)
            # the same figures the architecture report gives
            levels = {l["name"]: l for l in a.report_json(t)["levels"]}
            self.assertAlmostEqual(levels["GLB"]["read_pj"], e_glb, places=12)
            self.assertAlmostEqual(t.arch_area(a), a.report_json(t)["area_mm2"], places=9)
            self.assertGreater(t.area("sram", glb["capacity"], 16), t.area("regfile", 512, 16))
            self.assertEqual(t.action("dram.ddr3", "read", 0, 16), 320)

    def test_strict_and_clamped_lookup(self):
        with trim.Energy("energy_tables/65nm.yaml") as t:
            with self.assertRaises(trim.TrimError) as cm:
                t.action("sram", "read", 16 * 1048576, 16)
            self.assertEqual(cm.exception.code, -9)  # TRIM_ERANGE
            edge = t.action("sram", "read", 8 * 1048576, 16)
            v, clamped = t.lookup("sram", "read", 16 * 1048576, 16, clamp=True)
            self.assertEqual((v, clamped), (edge, 1))
            self.assertEqual(t.lookup("sram", "read", 4096, 16)[1], 0)
            with self.assertRaises(trim.TrimError) as cm:
                t.action("flash", "read", 1, 16)
            self.assertEqual(cm.exception.code, trim.TRIM_ENOTFOUND)

    def test_fpga_resources(self):
        with trim.Arch("models/arch/fpga-4.yaml") as a, trim.Energy.for_arch(a) as t:
            self.assertTrue(t.is_fpga)
            r = t.resources(a)
            self.assertEqual(r["used"]["dsp"], 320)
            self.assertEqual(r["available"]["dsp"], 220)
            self.assertFalse(r["fits"])
            with self.assertRaises(trim.TrimError) as cm:
                t.area("sram", 4096, 16)  # no area in an FPGA table
            self.assertEqual(cm.exception.code, trim.TRIM_ENOTFOUND)
        with trim.Arch("models/arch/fpga-1.yaml") as a, trim.Energy.for_arch(a) as t:
            self.assertTrue(t.resources(a)["fits"])
            with trim.Energy("energy_tables/65nm.yaml") as asic:
                with self.assertRaises(trim.TrimError) as cm:
                    asic.resources(a)
                self.assertEqual(cm.exception.code, trim.TRIM_EINVAL)

    def test_accelergy_and_resolve(self):
        d = "energy_tables/accelergy-example/"
        with trim.Energy.accelergy(d + "ERT.yaml", d + "ART.yaml") as t:
            self.assertFalse(t.is_fpga)
            self.assertTrue(t.name)
        with trim.Energy.accelergy(d + "ERT.yaml") as t:
            self.assertTrue(t.file)
        path = trim.resolve_table("45nm", "models/arch/eyeriss.yaml")
        self.assertTrue(path.endswith("energy_tables/45nm.yaml"), path)
        with self.assertRaises(trim.TrimError) as cm:
            trim.resolve_table("3nm", "models/arch/eyeriss.yaml")
        self.assertEqual(cm.exception.code, trim.TRIM_ENOTFOUND)


class SpaceTest(unittest.TestCase):
    def test_fpga_space(self):
        with trim.Space("models/arch/spaces/fpga.yaml") as s:
            self.assertEqual(s.name, "fpga")
            self.assertEqual(s.grid_size, 5)
            self.assertEqual(len(s), 3)  # FPGA-4 and FPGA-5 do not fit the XC7Z020
            self.assertEqual(s.names(), ["FPGA-1", "FPGA-2", "FPGA-3"])
            self.assertEqual(s.find("FPGA-3"), 2)
            self.assertEqual(s.point_grid_index(2), 2)
            with self.assertRaises(trim.TrimError) as cm:
                s.find("FPGA-4")
            self.assertEqual(cm.exception.code, trim.TRIM_ENOTFOUND)
            self.assertTrue(math.isnan(s.point_area(0)))  # FPGA table: no area
            with self.assertRaises(IndexError):
                s.point_arch(3)
            r = s.report_json()
            self.assertEqual((r["grid_size"], r["count"]), (5, 3))
            self.assertEqual([p["name"] for p in r["rejected"]], ["FPGA-4", "FPGA-5"])
            self.assertIn("FPGA-5", s.report())
            a = s.point_arch("FPGA-3")
        # the point's architecture is the caller's: it outlives the space
        self.assertIsInstance(a, trim.Arch)
        with a, trim.Energy.for_arch(a) as t:
            self.assertEqual(t.resources(a)["used"]["dsp"], 160)
            self.assertEqual(a.level("Cache")["capacity"], 32 * 1024)

    def test_asic_space_area(self):
        with trim.Space("models/arch/spaces/case-study-2.yaml") as s:
            self.assertGreater(len(s), 0)
            self.assertLessEqual(len(s), s.grid_size)
            for i in (0, len(s) - 1):
                with s.point_arch(i) as a, trim.Energy.for_arch(a) as t:
                    self.assertAlmostEqual(s.point_area(i), t.arch_area(a), places=9)


class SparsityTest(unittest.TestCase):
    def setUp(self):
        self.net = trim.Network(text=SPARSE_NET, name="s.yaml")
        self.w = trim.Workloads(self.net)
        self.sp = trim.Sparsity(self.net, self.w)

    def tearDown(self):
        self.sp.close()
        self.w.close()
        self.net.close()

    def fields(self, layer, phase):
        return self.sp.workload(self.w.find(layer, phase))

    def test_relu_rules(self):
        v = self.fields("c2", "FW")
        self.assertAlmostEqual(v["operand0"], 0.6 ** 4, places=12)  # maxpool 2x2 of 60% zeros
        self.assertEqual(v["operand1"], 0)
        v = self.fields("c2", "BW")
        self.assertAlmostEqual(v["operand0"], 0.45, places=12)
        self.assertAlmostEqual(v["output"], 0.6 ** 4, places=12)
        self.assertAlmostEqual(v["factor"], (1 - 0.45) * (1 - 0.6 ** 4), places=12)
        v = self.fields("c1", "BW")  # BatchNorm: dense gradient, outputs masked by c0's ReLU
        self.assertEqual(v["operand0"], 0)
        self.assertAlmostEqual(v["output"], 0.4, places=12)
        self.assertAlmostEqual(self.sp.layer("p"), 0.6 ** 4, places=12)
        self.assertEqual(self.sp.layer("bn"), 0)
        with self.assertRaises(trim.TrimError) as cm:
            self.sp.layer("nope")
        self.assertEqual(cm.exception.code, trim.TRIM_ENOTFOUND)
        # the library copied what it needs: the network may go first
        self.net.close()
        self.assertAlmostEqual(self.fields("c1", "FW")["operand0"], 0.4, places=12)

    def test_trace(self):
        self.sp.load_trace("test/data/sparsity/trace.csv")
        v = self.fields("c1", "BW")
        self.assertAlmostEqual(v["output"], 0.3, places=12)
        self.assertAlmostEqual(v["spread"], 0.25, places=12)
        with self.assertRaises(trim.TrimError) as cm:
            self.sp.load_trace("test/data/sparsity/unknown_layer.csv")
        self.assertIn("unknown_layer.csv:2:0: layer: no layer 'c9'", cm.exception.message)
        with self.assertRaises(trim.TrimError) as cm:
            self.sp.load_trace("test/data/sparsity/bad_column.csv")
        self.assertIn("unknown column 'sparsity'", str(cm.exception))
        with self.assertRaises(trim.TrimError) as cm:
            self.sp.load_trace("test/data/sparsity/none.csv")
        self.assertEqual(cm.exception.code, -3)  # TRIM_EIO
        self.assertAlmostEqual(self.fields("c1", "BW")["output"], 0.3, places=12)  # unchanged

    def test_imbalance(self):
        self.assertAlmostEqual(trim.imbalance(1, 0.5, 2), 1.5, places=12)
        self.assertAlmostEqual(trim.Sparsity.imbalance(2, 0.5, 2), 1.375, places=12)
        self.assertEqual(trim.imbalance(1000, 0.3, 1), 1)
        self.assertAlmostEqual(trim.imbalance(64, 0.4, 256, 0, 0.3), 1.3, places=12)
        self.assertGreater(trim.imbalance(64, 0.4, 256, 0.5), trim.imbalance(64, 0.4, 256))
        with self.assertRaises(trim.TrimError) as cm:
            trim.imbalance(10, 1.5, 2)
        self.assertEqual(cm.exception.code, trim.TRIM_EINVAL)
        self.assertIn("imbalance", cm.exception.message)


class FusionTest(unittest.TestCase):
    def setUp(self):
        with trim.Network("models/networks/vgg16.yaml") as net:
            self.f = trim.Fusion(net, "conv1_1", "conv3_1")
        with trim.Arch("models/arch/virtex7-690t.yaml") as a:
            self.f.set_hardware(a)

    def tearDown(self):
        self.f.close()

    def test_chain_and_hardware(self):
        f = self.f
        self.assertEqual(f.layers(), VGG_CHAIN)
        self.assertEqual(f.find("pool1"), 2)
        self.assertEqual(f.hardware_name, "virtex7-690t")
        self.assertEqual(f.get_param("clock_mhz"), 120)
        self.assertEqual(f.params()["word_bits"], 32)
        self.assertEqual(f.get_param("budget_dsp"), 3600)
        self.assertIn("offchip_bytes", trim.fusion_metrics())
        self.assertIn("offchip", trim.fusion_goals())
        m = f.layer_metrics("conv1_1")
        self.assertEqual(m["parallelism"], 3)  # full depth by default
        self.assertEqual(m["macs_parallel"], 3 * 3 * 3)
        self.assertEqual(m["line_buffer_words"], (3 - 1) * 226 * 3)  # (K_r-1) x padded width x depth
        self.assertEqual(m["window_words"], 3 * 3 * 3)
        self.assertEqual(m["weight_words"], 3 * 3 * 3 * 64 + 64)
        self.assertEqual(m["fill_slots"], 2 * 226 + 3)
        self.assertEqual((m["out_pixels"], m["macs"]), (224 * 224, 224 * 224 * 64 * 27))
        m = f.layer_metrics("pool1")
        self.assertEqual(m["pool_buffer_words"], 1 * 112 * 64)  # ceil(K/U) x output width x depth
        self.assertEqual((m["line_buffer_words"], m["macs"]), (0, 0))
        self.assertEqual((m["in_pixels"], m["out_pixels"]), (224 * 224, 112 * 112))
        f.set_parallelism("conv2_2", 64)
        self.assertEqual(f.layer_metrics("conv2_2")["parallelism"], 64)
        self.assertEqual(f.layer_metrics("conv2_2")["passes"], 2)
        f.set_param("clock_mhz", 200)
        self.assertEqual(f.get_param(0), 200)
        with self.assertRaises(trim.TrimError) as cm:
            f.set_param("clock_mhz", -1)
        self.assertEqual(cm.exception.code, -9)  # TRIM_ERANGE
        with self.assertRaises(ValueError):
            f.set_param("colour", 1)
        g = f.clone()
        f.set_max_parallelism(16)
        self.assertEqual(g.layer_metrics("conv2_2")["parallelism"], 64)  # the copy is unchanged
        self.assertEqual(f.layer_metrics("conv2_2")["parallelism"], 16)
        g.close()

    def test_plans(self):
        self.f.set_parallelism("conv2_2", 64)
        fused = self.f.evaluate(",".join(VGG_CHAIN))
        self.assertEqual(len(fused), 1)
        self.assertEqual(fused.cuts, 0)
        self.assertEqual(fused.groups(), [VGG_CHAIN])
        m = fused.metrics()
        self.assertEqual(m["dsp"], 2907)  # DeCoILFNet Table IV
        self.assertEqual(m["offchip_fmap_bytes"], (150528 + 802816) * 4)
        self.assertEqual(m["group_count"], 1)
        lbl = self.f.evaluate([[name] for name in VGG_CHAIN])
        self.assertEqual(lbl.cuts, 2 ** (len(VGG_CHAIN) - 1) - 1)
        self.assertEqual(len(lbl), len(VGG_CHAIN))
        self.assertEqual(lbl.group(2), (2, 2))
        self.assertEqual(lbl.group_metrics(0)["group_count"], 1)
        self.assertLess(m["offchip_bytes"], lbl.metrics()["offchip_bytes"])
        same = self.f.evaluate(0b100000)  # a cut mask: conv3_1 on its own
        self.assertEqual(same.groups(), [VGG_CHAIN[:-1], ["conv3_1"]])
        self.assertAlmostEqual(same.metrics()["offchip_fmap_bytes"] / 1048576, 6.699, places=3)
        t = fused.layer_times(6)
        self.assertGreater(t["last_output"], t["first_output"])
        self.assertIn("conv3_1", fused.report())
        self.assertEqual(json.loads(fused.report("json"))["offchip_bytes"], m["offchip_bytes"])
        # plans copy what they need: they outlive the fusion
        self.f.close()
        self.assertEqual(fused.metrics()["dsp"], 2907)
        for p in (fused, lbl, same):
            p.close()

    def test_bad_plans(self):
        for plan, what in (("conv1_1,conv1_2", "pool1"), ("conv1_1|nope", "nope"),
                           ("conv1_2,conv1_1," + ",".join(VGG_CHAIN[2:]), "conv1")):
            with self.assertRaises(trim.TrimError) as cm:
                self.f.evaluate(plan)
            self.assertEqual(cm.exception.code, -5, plan)  # TRIM_ESCHEMA
            self.assertIn(what, cm.exception.message)
        with self.assertRaises(trim.TrimError):
            self.f.evaluate(1 << 6)  # a cut after the last layer
        with trim.Network("models/networks/vgg16.yaml") as net:
            with self.assertRaises(trim.TrimError) as cm:
                trim.Fusion(net, "conv1_1", "fc6")
            self.assertEqual(cm.exception.code, -6)  # TRIM_ESHAPE
            self.assertIn("fc6", cm.exception.message)

    def test_explore_all_fused_beats_layer_by_layer(self):
        with self.f.explore("offchip") as r:
            self.assertFalse(r.used_dp)
            self.assertEqual(r.considered, 64)
            self.assertEqual(len(r), 64)
            best = r.best
            self.assertEqual(r.plan_cuts(best), 0)  # all fused: one group
            lbl = r.layer_by_layer
            self.assertIsNotNone(lbl)
            self.assertEqual(r.plan_cuts(lbl), 63)
            fused, sep = r.plan_metrics(best), r.plan_metrics(lbl)
            self.assertEqual(fused["group_count"], 1)
            self.assertEqual(sep["group_count"], 7)
            self.assertLess(fused["offchip_bytes"], sep["offchip_bytes"])
            self.assertEqual(fused["offchip_weight_bytes"], sep["offchip_weight_bytes"])
            pareto = r.pareto()
            self.assertIn(best, pareto)
            self.assertTrue(all(0 <= k < len(r) for k in pareto))
            j = r.report_json()
            self.assertEqual(j["best"]["cuts"], 0)
            self.assertEqual(j["layer_by_layer"]["offchip_bytes"], sep["offchip_bytes"])
            self.assertIn("layer by layer", r.report())
            with self.assertRaises(IndexError):
                r.plan_metrics(len(r))
        with self.f.explore("cycles") as r:
            cycles = [r.plan_metrics(i)["cycles"] for i in range(len(r))]
            self.assertEqual(r.plan_metrics(r.best)["cycles"], min(cycles))
        with self.assertRaises(trim.TrimError):
            self.f.explore("beauty")

    def test_dynamic_programme(self):
        self.f.set_param("enum_max_layers", 2)  # the 7-layer chain now goes to the Pareto DP
        with self.f.explore("offchip") as r:
            self.assertTrue(r.used_dp)
            self.assertEqual(len(r), len(r.pareto()))  # only the Pareto set is kept
            self.assertLess(len(r), 64)
            self.assertEqual(r.plan_cuts(r.best), 0)  # the same best plan as enumeration
            # layer by layer is dominated (fusing conv1_1,conv1_2,pool1 costs no
            # more MACs or on-chip memory and moves fewer bytes): not kept
            self.assertIsNone(r.layer_by_layer)

    def test_dsp_budget_leaves_plans_out(self):
        self.f.set_param("budget_dsp", 10)  # below any CONV layer's 27 multipliers
        with self.assertRaises(trim.TrimError) as cm:
            self.f.explore()
        self.assertEqual(cm.exception.code, -8)  # TRIM_ENOFIT


def read(path):
    with open(path) as f:
        return f.read()


class ErrorsAndLifetimeTest(unittest.TestCase):
    def test_file_line_col(self):
        with self.assertRaises(trim.TrimError) as cm:
            trim.Arch(text="schema_version: 1\nfoo: 1\n", name="bad.yaml")
        self.assertIn("bad.yaml:2:1", cm.exception.message)
        self.assertIn("foo", cm.exception.message)
        self.assertEqual(cm.exception.code, -5)  # TRIM_ESCHEMA
        with self.assertRaises(trim.TrimError) as cm:
            trim.Arch("models/arch/none.yaml")
        self.assertEqual(cm.exception.code, -3)  # TRIM_EIO
        self.assertIn("none.yaml", str(cm.exception))
        with self.assertRaises(trim.TrimError) as cm:
            trim.Energy(text="schema_version: 1\nname: t\nflash: {}\n", name="t.yaml")
        self.assertRegex(cm.exception.message, r"t\.yaml:3:\d+")
        self.assertIn("flash", cm.exception.message)
        text = read("models/arch/eyeriss.yaml").replace("fanout: [14, 12]", "fanout: [14, -12]")
        with self.assertRaises(trim.TrimError) as cm:
            trim.Arch(text=text, name="neg.yaml")
        self.assertRegex(cm.exception.message, r"neg\.yaml:\d+:\d+")
        self.assertIn("levels[2].fanout", cm.exception.message)

    def test_use_after_close(self):
        objs = []
        a = trim.Arch("models/arch/eyeriss.yaml")
        objs.append((a, lambda: a.total_pes))
        t = trim.Energy("energy_tables/65nm.yaml")
        objs.append((t, lambda: t.action("sram", "read", 4096, 16)))
        s = trim.Space("models/arch/spaces/fpga.yaml")
        objs.append((s, lambda: s.point_arch(0)))
        net = trim.Network(text=SPARSE_NET)
        w = trim.Workloads(net)
        sp = trim.Sparsity(net, w)
        objs.append((sp, lambda: sp.workload(0)))
        with trim.Network("models/networks/vgg16.yaml") as vgg:
            f = trim.Fusion(vgg, "conv1_1", "pool1")
        p = f.evaluate("conv1_1,conv1_2,pool1")
        r = f.explore()
        objs += [(f, lambda: f.layers()), (p, lambda: p.metrics()), (r, lambda: r.best)]
        for obj, use in objs:
            use()  # works while open
            obj.close()
            with self.assertRaises(trim.TrimError) as cm:
                use()
            self.assertEqual(cm.exception.code, trim.TRIM_EINVAL)
            obj.close()  # twice is harmless
        # a closed object cannot be passed to another one either
        with self.assertRaises(trim.TrimError):
            trim.Energy.for_arch(a)
        net.close()
        with self.assertRaises(trim.TrimError):
            trim.Sparsity(net, w)
        w.close()


# ---- mapping.h, eval.h, search.h, neteval.h, explore.h -------------------------

TINY_NET = "test/data/neteval/tiny.yaml"
TINY_ARCH = "test/data/neteval/tiny-arch.yaml"
TINY_SPACE = "test/data/neteval/tiny-space-1pe.yaml"
EYERISS_CONV1 = "test/data/mapping/eyeriss-conv1.yaml"
EYERISS_CONV1_TL = "test/data/mapping/eyeriss-conv1-timeloop.yaml"
LIBRARY = os.environ.get("TRIM_LIBRARY") or os.path.join("build", "lib", "libtrim.so")


def cli_path():
    """The CLI built next to the library under test (TRIM_CLI overrides)."""
    return os.environ.get("TRIM_CLI") or os.path.join(os.path.dirname(os.path.dirname(
        os.path.abspath(LIBRARY))), "bin", "trim")


class MappingEvalTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.arch = trim.Arch("models/arch/eyeriss.yaml")
        cls.net = trim.Network("models/networks/alexnet-cifar.yaml")
        cls.w = trim.Workloads(cls.net)
        cls.conv1 = cls.w.find("conv1", "FW")

    @classmethod
    def tearDownClass(cls):
        for h in (cls.w, cls.net, cls.arch):
            h.close()

    def test_matches_the_cli(self):
        cli = cli_path()
        if not os.access(cli, os.X_OK):
            self.skipTest("no CLI at %s (set TRIM_CLI)" % cli)
        out = subprocess.run([cli, "eval", "models/networks/alexnet-cifar.yaml", "models/arch/eyeriss.yaml",
                              "--layer", "conv1", "--phase", "FW", "--mapping", EYERISS_CONV1,
                              "--format", "json"], check=True, capture_output=True, text=True).stdout
        ref = json.loads(out)
        with trim.Mapping(self.arch, EYERISS_CONV1) as m, \
                trim.Eval(self.w, self.conv1, self.arch, m) as e:
            self.assertEqual(e.cycles, ref["cycles"])
            self.assertEqual(e.energy_pj, ref["energy_pj"])
            self.assertEqual(e.edp, ref["edp"])
            self.assertEqual(e.pe_utilization, ref["pe_utilization"])
            self.assertEqual((e.macs, e.zero_macs), (ref["macs"], ref["zero_macs"]))
            self.assertEqual(e.bottleneck, ref["bottleneck"])
            self.assertEqual(e.macs, self.w.intra(self.conv1)["macs"])
            self.assertEqual(e.report_json(), ref)
            self.assertIn(ref["bottleneck"], e.report())
            # a perfect factorisation pads nothing
            self.assertEqual((e.padded_macs, e.pe_utilization_real), (e.macs, e.pe_utilization))

    def test_imperfect_factorisation(self):
        # AlexNet conv1's E = 55 as 4 passes of 14 columns, the last ragged
        with trim.Network("models/networks/alexnet.yaml") as net, trim.Workloads(net) as w, \
                trim.Mapping(self.arch, "test/data/mapping/eyeriss-alexnet-conv1-ragged.yaml") as m, \
                trim.Eval(w, ("conv1", "FW"), self.arch, m) as e:
            self.assertEqual((e.macs, e.padded_macs), (105415200, 107331840))
            self.assertEqual(e.pe_utilization, 154 / 168)
            self.assertEqual(e.pe_utilization_real, 105415200 / (696960 * 168))
            ref = e.report_json()
            self.assertEqual((ref["padded_macs"], ref["steps"]), (107331840, 696960))

    def test_timeloop_form_round_trip_and_setters(self):
        m = trim.Mapping(self.arch, EYERISS_CONV1)
        tl = trim.Mapping(self.arch, EYERISS_CONV1_TL)
        self.assertEqual(len(m), len(self.arch))
        for level in range(len(m)):
            self.assertEqual(m.bounds(level), tl.bounds(level), level)
        self.assertEqual(m.bounds("GLB"), dict(zip(DIMS, [1, 1, 1, 3, 2, 16, 1, 1])))
        self.assertEqual(m.bound("PE array", "E"), 8)
        e, etl = trim.Eval(self.w, self.conv1, self.arch, m), trim.Eval(self.w, ("conv1", "FW"), self.arch, tl)
        self.assertEqual((e.cycles, e.energy_pj), (etl.cycles, etl.energy_pj))
        # dump -> load gives the same mapping
        text = m.dump("yaml")
        with trim.Mapping(self.arch, text=text, name="dump.yaml") as back:
            self.assertEqual(back.dump(), text)
        self.assertIn("parallel_for e", m.dump("table"))
        with self.assertRaises(ValueError):
            m.dump("json")
        # the same mapping built with the setters, from all ones
        b = trim.Mapping(self.arch)
        with self.assertRaises(trim.TrimError) as cm:
            b.check(self.w, self.conv1, self.arch)  # every bound 1: the factors do not cover conv1
        self.assertEqual(cm.exception.code, -6)  # TRIM_ESHAPE
        with self.assertRaises(trim.TrimError):
            trim.Eval(self.w, self.conv1, self.arch, b)
        b.set_temporal("DRAM", "M", 4)
        b.set_order(0, "M")
        for d, n in (("C", 3), ("E", 2), ("F", 16)):
            b.set_temporal("GLB", d, n)
        b.set_order("GLB", "EFC")
        b.set_spatial("PE array", "E", 8, 1)
        b.set_spatial("PE array", "R", 1, 3)
        b.set_spatial("PE array", trim.DIMS.index("M"), 1, 4)
        b.set_temporal("RF", "M", 4)
        b.set_temporal("RF", "S", 3)
        b.set_order("RF", "MS")
        b.check(self.w, self.conv1, self.arch)
        self.assertEqual(b.dump(), text)
        c = b.clone()
        b.set_keep("GLB", "weight", False)  # the copy is unchanged
        self.assertNotEqual(b.dump(), c.dump())
        self.assertEqual(c.dump(), text)
        self.assertIn("keep: [input, output]", b.dump())
        self.assertEqual(trim.Eval(self.w, self.conv1, self.arch, c).cycles, e.cycles)
        with self.assertRaises(trim.TrimError):
            b.set_temporal("PE array", "M", 2)  # not a storage level
        with self.assertRaises(trim.TrimError) as cm:
            b.set_order("GLB", "Q")
        with self.assertRaises(trim.TrimError) as cm:
            b.set_temporal("L9", "M", 2)
        self.assertEqual(cm.exception.code, trim.TRIM_ENOTFOUND)
        with self.assertRaises(IndexError):
            b.bound(len(b), "M")
        with self.assertRaises(ValueError):
            b.set_temporal("GLB", "Z", 2)
        # capacity: all of conv1 in the RFs does not fit
        big = trim.Mapping(self.arch)
        for d, n in self.w.intra(self.conv1)["bounds"].items():
            big.set_temporal("RF", d, n)
        with self.assertRaises(trim.TrimError) as cm:
            big.check(self.w, self.conv1, self.arch)
        self.assertEqual(cm.exception.code, -8)  # TRIM_ENOFIT
        for h in (m, tl, e, etl, b, c, big):
            h.close()
        # the mapping copies what it needs from the arch
        a = self.arch.clone()
        m = trim.Mapping(a, EYERISS_CONV1)
        a.close()
        self.assertEqual(m.dump(), text)


DIMS = "NGMCEFRS"


class SearchTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.net = trim.Network(TINY_NET)
        cls.w = trim.Workloads(cls.net, mode="inference")
        cls.arch = trim.Arch(TINY_ARCH)
        cls.fc = cls.w.find("fc", "FW")

    @classmethod
    def tearDownClass(cls):
        for h in (cls.w, cls.net, cls.arch):
            h.close()

    def search(self, **options):
        s = trim.Search(self.w, self.fc, self.arch)
        for k, v in options.items():
            s.set(k, v)
        return s.run()

    def test_imperfect(self):
        conv = self.w.find("conv", "FW")
        with trim.Search(self.w, conv, self.arch) as s:
            s.set_goal("delay")
            n0 = s.size
            c0 = s.run().top(0)[0]
            s.set_imperfect(True)  # R = S = 3 over a fan-out that 3 does not divide: ragged rows
            self.assertGreater(s.size, n0)
            self.assertLessEqual(s.run().top(0)[0], c0)  # a larger space
            with self.assertRaises(trim.TrimError):
                s.set("imperfect", 2)
            s.set_imperfect(False)
            self.assertEqual(s.size, n0)

    def test_count_timeloop(self):
        """Timeloop's counting rules (docs/mapping.md): the search's best
        evaluates under them to its reported cost, cheaper than libtrim's
        (drains and idle instances not charged); a bad name is refused."""
        conv = self.w.find("conv", "FW")
        costs = {}
        for count in trim.COUNTS:
            with trim.Search(self.w, conv, self.arch) as s:
                s.set("count", count)
                cost = s.run().top(0)[0]
                with s.best() as m, trim.Eval(self.w, conv, self.arch, m, count=count) as e:
                    self.assertEqual(e.energy_pj, cost)
                costs[count] = cost
        self.assertLess(costs["timeloop"], costs["libtrim"])
        with trim.Search(self.w, conv, self.arch) as s, self.assertRaises(ValueError):
            s.set("count", "timeloops")
        with trim.NetEval(self.net, self.w, self.arch) as ne:
            ne.set("count", "timeloop")
            with self.assertRaises(trim.TrimError):
                ne.set("count", 2)

    def test_best_evaluates_to_the_reported_cost(self):
        costs = {}
        for goal, field in (("energy", "energy_pj"), ("delay", "cycles"), ("edp", "edp")):
            with self.search(goal=goal, top_k=4) as s:
                cost, index = s.top(0)
                self.assertEqual(index, s.best_index)
                with s.best() as m, trim.Eval(self.w, self.fc, self.arch, m) as e:
                    self.assertEqual(getattr(e, field), cost, goal)
                    self.assertEqual(s.report_json()["best"][field], cost)
                    self.assertEqual(s.top_mapping(0).dump(), m.dump())
                    costs[goal] = (e.energy_pj, e.cycles, e.edp)
                top = [s.top(k) for k in range(s.top_count())]
                self.assertEqual(len(top), 4)
                # (cost, second figure, index): a tie on the goal breaks on the
                # other figure (energy: cycles; delay and EDP: energy), then the index
                second = "cycles" if goal == "energy" else "energy_pj"
                ranked = []
                for k, (c, i) in enumerate(top):
                    with s.top_mapping(k) as mk, trim.Eval(self.w, self.fc, self.arch, mk) as ek:
                        ranked.append((c, getattr(ek, second), i))
                self.assertEqual(ranked, sorted(ranked))
                with trim.Eval(self.w, self.fc, self.arch, s.top_mapping(3)) as e3:
                    self.assertEqual(getattr(e3, field), top[3][0])
                with self.assertRaises(trim.TrimError):
                    s.top(4)
        # each goal's best is the best for that goal
        self.assertLessEqual(costs["energy"][0], costs["delay"][0])
        self.assertLessEqual(costs["delay"][1], costs["energy"][1])
        self.assertLessEqual(costs["edp"][2], min(costs["energy"][2], costs["delay"][2]))

    def test_index_wider_than_64_bits(self):
        # batch 64: AlexNet-CIFAR conv2 on Eyeriss has more than 2**64 raw mappings
        with trim.Network("models/networks/alexnet-cifar.yaml") as net, \
                trim.Workloads(net, mode="training", batch=64) as w, \
                trim.Arch("models/arch/eyeriss.yaml") as a, \
                trim.Constraints("models/constraints/timeloop-eyeriss-rs.yaml") as c:
            s = trim.Search(w, w.find("conv2", "FW"), a)
            s.set_constraints(c)
            s.run()
            self.assertEqual(s.best_index, 18668166881672851944)
            self.assertGreater(s.best_index, 2**64)
            self.assertEqual(s.top(0)[1], s.best_index)
            self.assertEqual(s.report_json()["best"]["index"], s.best_index)
            s.close()

    def test_counts_size_threads_and_factors(self):
        s = trim.Search(self.w, self.fc, self.arch)
        distinct, size = s.distinct, s.size
        self.assertGreater(size, distinct)
        self.assertEqual(s.progress, 0.0)
        s.run()
        self.assertEqual(s.progress, 1.0)
        c = s.counts()
        self.assertEqual(c["generated"], distinct)
        self.assertGreaterEqual(c["generated"], c["valid"])
        self.assertGreaterEqual(c["valid"], c["evaluated"] + c["unsupported"] + c["pruned"])
        self.assertGreater(c["evaluated"], 0)
        self.assertEqual(s.report_json()["counts"]["generated"], c["generated"])
        two = self.search(threads=2)
        self.assertEqual((two.best_index, two.counts()), (s.best_index, c))  # any thread count
        with self.search(min_pe_util=1.0) as p:
            self.assertLessEqual(p.counts()["evaluated"], c["evaluated"])
            self.assertEqual(p.best().bound("NoC", "M"), 2)  # both PEs busy
        f = trim.Search(self.w, self.fc, self.arch)
        f.set_factor("RF", "C", 4)
        f.run()
        self.assertEqual(f.best().bound("RF", "C"), 4)
        self.assertLess(f.counts()["generated"], c["generated"])
        with self.assertRaises(trim.TrimError) as cm:
            f.set_factor("RF", "C", 3)  # 3 does not divide C = 8
        self.assertEqual(cm.exception.code, -8)  # TRIM_ENOFIT
        with self.assertRaises(trim.TrimError) as cm:
            s.set_threads(0)
        self.assertEqual(cm.exception.code, -9)  # TRIM_ERANGE
        with self.assertRaises(ValueError):
            s.set("colour", 1)
        with self.assertRaises(ValueError):
            s.set_goal("beauty")
        for h in (s, two, f):
            h.close()


class ReportTest(unittest.TestCase):
    """Breakdowns, temporal utilisation, warnings and the HTML report."""

    @classmethod
    def setUpClass(cls):
        cls.net = trim.Network(TINY_NET)
        cls.w = trim.Workloads(cls.net)
        cls.arch = trim.Arch(TINY_ARCH)
        cls.ne = trim.NetEval(cls.net, cls.w, cls.arch)
        cls.ne.run()

    @classmethod
    def tearDownClass(cls):
        for h in (cls.ne, cls.w, cls.net, cls.arch):
            h.close()

    def test_breakdowns_add_up(self):
        total = 0.0
        for i in range(len(self.ne)):
            rows = self.ne.breakdown(i)
            s = sum(r["energy_pj"] for r in rows)
            self.assertAlmostEqual(s, self.ne.workload(i)["energy_pj"], delta=1e-12 * s)
            self.assertEqual(set(rows[0]), {"level", "tensor", "action", "count", "energy_pj"})
            self.assertTrue({r["action"] for r in rows} <= set(trim.ACTIONS))
            total += s
        total += sum(self.ne.inter(j)["energy_pj"] for j in range(self.w.totals()["inter_count"]))
        self.assertAlmostEqual(total, self.ne.energy_pj, delta=1e-12 * total)
        macs = [r for r in self.ne.breakdown(("conv", "FW")) if r["action"] == "macs"]
        self.assertEqual([(r["level"], r["tensor"], r["count"]) for r in macs], [("MAC", "all", 288.0)])
        every = self.ne.breakdowns()
        self.assertEqual(len({(r["layer"], r["phase"]) for r in every}), len(self.ne))

    def test_eval_and_explorer_agree(self):
        m = self.ne.mapping(0)
        e = trim.Eval(self.w, 0, self.arch, m)
        self.assertEqual(e.breakdown(), self.ne.breakdown(0))
        self.assertEqual(e.temporal_utilization, self.ne.workload(0)["temporal_utilization"])
        self.assertEqual(e.warnings(), [])
        self.assertEqual(self.ne.warnings()[0]["kind"], "idle_compute")
        self.assertGreater(self.ne.temporal_utilization, 0)
        space = trim.Space(TINY_SPACE)
        ex = trim.Explorer(self.net, self.w, space)
        ex.run()
        self.assertEqual(len(ex.workloads(0)), len(self.w))
        self.assertTrue(math.isnan(ex.workload(0, 0)["evaluated"]))
        self.assertIsInstance(ex.warnings(0), list)
        self.assertEqual(ex.breakdown(0, 0)[0]["level"], "DRAM")
        with tempfile.TemporaryDirectory() as d:
            ex.write_html(os.path.join(d, "x.html"))
            self.ne.write_html(os.path.join(d, "n.html"))
            with open(os.path.join(d, "n.html")) as f:
                self.assertIn("data-trim-rendered", f.read())
        ex.close()
        space.close()
        e.close()
        m.close()


class NetEvalTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.net = trim.Network(TINY_NET)
        cls.w = trim.Workloads(cls.net, mode="inference")
        cls.arch = trim.Arch(TINY_ARCH)
        cls.ne = trim.NetEval(cls.net, cls.w, cls.arch)
        cls.ne.set_threads(2)
        cls.ne.set_goal("energy")
        cls.progress = [(cls.ne.done, len(cls.ne))]
        while not cls.ne.step():
            cls.progress.append((cls.ne.done, len(cls.ne)))
        cls.progress.append((cls.ne.done, len(cls.ne)))

    @classmethod
    def tearDownClass(cls):
        for h in (cls.ne, cls.w, cls.net, cls.arch):
            h.close()

    def test_progress(self):
        n = len(self.w)
        self.assertEqual(self.progress, [(k, n) for k in range(n + 1)])
        self.assertTrue(self.ne.step())  # stepping when done is harmless

    def test_totals_cover_the_workloads(self):
        ne = self.ne
        wl = ne.workloads()
        self.assertEqual([(x["layer"], x["phase"]) for x in wl],
                         [(self.w.intra(i)["layer"], self.w.intra(i)["phase"]) for i in range(len(self.w))])
        self.assertGreaterEqual(ne.cycles, sum(x["cycles"] for x in wl))
        self.assertGreaterEqual(ne.energy_pj, sum(x["energy_pj"] for x in wl))
        self.assertGreaterEqual(ne.dense_energy_pj, ne.energy_pj)  # the MACs gate zeros
        self.assertGreater(ne.static_pj, 0)
        self.assertAlmostEqual(ne.seconds, ne.cycles / (self.arch.clock_mhz * 1e6), places=15)
        levels = ne.level_energy()
        self.assertEqual(list(levels), [l["name"] for l in self.arch.levels()])
        self.assertAlmostEqual(sum(levels.values()), ne.energy_pj, delta=1e-9 * ne.energy_pj)
        r = ne.report_json()
        self.assertEqual([x["layer"] for x in r["workloads"]], [x["layer"] for x in wl])
        self.assertEqual(r["workloads"][0]["best"]["energy_pj"], wl[0]["energy_pj"])
        self.assertIn("total", ne.report())
        self.assertEqual(len(ne.report("csv").strip().splitlines()), 1 + len(wl))
        self.assertEqual(ne.totals()["cycles"], ne.cycles)
        with self.assertRaises(trim.TrimError):
            ne.workload(len(wl))

    def test_level_columns_match_the_cli(self):
        # the frame's "<level>_pj" columns are trim network's CSV columns, value for value
        cli = cli_path()
        if not os.access(cli, os.X_OK):
            self.skipTest("no CLI at %s (set TRIM_CLI)" % cli)
        out = subprocess.run([cli, "network", TINY_NET, TINY_ARCH, "--mode", "inference", "--goal", "energy",
                              "--quiet", "--format", "csv"], check=True, capture_output=True, text=True).stdout
        rows = list(csv.DictReader(io.StringIO(out)))
        levels = [l["name"] + "_pj" for l in self.arch.levels()]
        self.assertEqual([c for c in rows[0] if c.endswith("_pj") and c[:-3] in
                          [l["name"] for l in self.arch.levels()]], levels)
        wl = self.ne.workloads()
        self.assertEqual(len(rows), len(wl))
        for r, x in zip(rows, wl):
            self.assertEqual((r["layer"], r["phase"]), (x["layer"], x["phase"]))
            for c in levels:
                self.assertEqual(x[c], float(r[c]), (x["layer"], c))
            self.assertAlmostEqual(sum(x[c] for c in levels), x["energy_pj"], delta=1e-9 * x["energy_pj"])
        try:
            import pandas  # noqa: F401
        except ImportError:
            self.skipTest("pandas (python3-pandas) is not installed: no frame to check")
        fr = wl.frame()
        for c in levels:
            self.assertEqual(list(fr[c]), [float(r[c]) for r in rows])

    def test_mappings_evaluate_to_the_dense_figures(self):
        for i in range(len(self.ne)):
            x = self.ne.workload(i)
            self.assertEqual(x["macs"], self.w.intra(i)["macs"])
            with self.ne.mapping(i) as m, trim.Eval(self.w, i, self.arch, m) as e:
                self.assertEqual(e.cycles, x["dense_cycles"])
                self.assertEqual(e.energy_pj, x["dense_energy_pj"])
        # the same best as a search of that workload alone
        fc = self.w.find("fc", "FW")
        with trim.Search(self.w, fc, self.arch) as s:
            s.run()
            self.assertEqual(s.top(0)[0], self.ne.workload(("fc", "FW"))["dense_energy_pj"])
            self.assertEqual(s.counts()["evaluated"], self.ne.workload(fc)["evaluated"])

    def test_options_and_trace(self):
        with trim.NetEval(self.net, self.w, self.arch) as ne:
            with self.assertRaises(trim.TrimError) as cm:
                ne.level_energy()  # not evaluated yet
            self.assertIn("not evaluated", cm.exception.message)
            with self.assertRaises(trim.TrimError) as cm:
                ne.load_trace("test/data/sparsity/unknown_layer.csv")
            self.assertRegex(cm.exception.message, r"unknown_layer\.csv:\d+:\d+: ")
            ne.set_max_mappings(100)  # conv and pool have more
            with self.assertRaises(trim.TrimError) as cm:
                ne.run()
            self.assertIn("conv", cm.exception.message)
            with self.assertRaises(ValueError):
                ne.set("goal", "beauty")
        with trim.NetEval(self.net, self.w, self.arch) as ne:  # a double option
            ne.set_min_pe_util(1.0)
            ne.run()
            self.assertEqual(ne.mapping(("fc", "FW")).bound("NoC", "M"), 2)  # both PEs busy
            with self.assertRaises(trim.TrimError):
                ne.set_min_pe_util(1.5)

    def test_imperfect(self):
        # every dim 3 on 2 PEs: a ragged pass over both beats one PE
        net = trim.Network("test/data/neteval/ragged.yaml")
        w = trim.Workloads(net)
        cycles = []
        for imperfect in (0, 1):
            with trim.NetEval(net, w, self.arch) as ne:
                ne.set("goal", "delay")
                ne.set("imperfect", imperfect)
                ne.run()
                cycles.append(ne.cycles)
        self.assertLess(cycles[1], cycles[0])
        w.close()
        net.close()


class ConstraintsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.net = trim.Network(TINY_NET)
        cls.w = trim.Workloads(cls.net, mode="inference")
        cls.arch = trim.Arch(TINY_ARCH)
        cls.conv = cls.w.find("conv", "FW")

    @classmethod
    def tearDownClass(cls):
        for h in (cls.w, cls.net, cls.arch):
            h.close()

    def test_presets_and_search(self):
        presets = trim.dataflow_presets()
        self.assertEqual(list(presets), ["weight-stationary", "output-stationary", "input-stationary",
                                         "row-stationary"])
        self.assertIn("Chen", presets["row-stationary"])
        free = trim.Search(self.w, self.conv, self.arch)
        c = trim.Constraints(preset="output-stationary")
        self.assertEqual((len(c), c.preset_count), (0, 1))
        with trim.Search(self.w, self.conv, self.arch) as s:
            s.set_constraints(c)
            self.assertLess(s.distinct, free.distinct)
            s.run()
            with s.best() as m:
                for d in "NGMEF":  # output-stationary: the RF loops on C R S only
                    self.assertEqual(m.bound("RF", d), 1)
                for d in "CRS":  # and the NoC spreads N G M E F only
                    self.assertEqual(m.bound("NoC", d), 1)
            s.set_constraints(None)
            self.assertEqual(s.distinct, free.distinct)
        free.close()
        c.close()

    def test_forms_errors_and_dump(self):
        tl = trim.Constraints(text="mapspace_constraints:\n  - target: RF\n    type: temporal\n"
                                   "    factors: K=1 P=1\n    permutation: SR\n", name="tl.yaml")
        tl.check(self.arch)
        text = tl.dump()
        self.assertIn("factors: M=1 E=1", text)
        again = trim.Constraints(text=text)
        self.assertEqual(again.dump(), text)
        self.assertIn("only: [C, R, S]", trim.Constraints(preset="output-stationary").dump(self.arch))
        with self.assertRaises(trim.TrimError) as cm:
            trim.Constraints(text="targets:\n  - {target: RF, type: temporal, factors: X=2}\n", name="c.yaml")
        self.assertEqual(cm.exception.code, -5)  # TRIM_ESCHEMA
        self.assertIn("c.yaml:2:43: targets[0].factors: unknown dimension 'X'", cm.exception.message)
        bad = trim.Constraints(text="targets: [{target: PE array, type: spatial, only: [M]}]\n", name="c.yaml")
        with self.assertRaises(trim.TrimError) as cm:
            bad.check(self.arch)
        self.assertEqual(cm.exception.code, -7)  # TRIM_ENOTFOUND
        self.assertIn("c.yaml:1:20: targets[0].target: unknown level 'PE array'", cm.exception.message)
        with self.assertRaises(trim.TrimError):
            trim.Constraints(preset="diagonal-stationary")
        merged = trim.Constraints(preset="row-stationary").merge(tl)
        self.assertEqual((len(merged), merged.preset_count), (1, 1))
        with self.assertRaises(trim.TrimError):  # row-stationary's RF permutation is S F, not S R
            merged.check(self.arch)
        for h in (tl, again, bad, merged):
            h.close()

    def test_network_and_explorer(self):
        c = trim.Constraints("test/data/constraints/tiny-glb.yaml")
        with trim.NetEval(self.net, self.w, self.arch) as ne:
            ne.set_constraints(c)
            ne.run()
            for i in range(len(ne)):
                with ne.mapping(i) as m:
                    self.assertEqual([d for d in trim.DIMS if m.bound("GLB", d) > 1 and d != "M"], [])
        with trim.Space("test/data/constraints/tiny-space.yaml") as sp:
            sc = sp.constraints()
            self.assertEqual(len(sc), 2)
            sc.close()
            with trim.Explorer(self.net, self.w, sp) as ex:
                ex.set_constraints(trim.Constraints(preset="weight-stationary"))
                ex.run()
                self.assertEqual(len(ex.ranking()), len(ex))
        with trim.Space(TINY_SPACE) as sp:
            self.assertIsNone(sp.constraints())
        c.close()


class ExplorerTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.net = trim.Network(TINY_NET)
        cls.w = trim.Workloads(cls.net, mode="inference")
        cls.space = trim.Space(TINY_SPACE)
        cls.ex = trim.Explorer(cls.net, cls.w, cls.space)
        cls.ex.set_goal("edp")
        cls.ex.set_threads(2)
        cls.ex.set_out_dir(os.path.join(cls.tmp.name, "points"))
        cls.ex.run()

    @classmethod
    def tearDownClass(cls):
        for h in (cls.ex, cls.w, cls.net, cls.space):
            h.close()
        cls.tmp.cleanup()

    def test_ranking_and_pareto(self):
        ex = self.ex
        self.assertEqual((len(ex), ex.done, ex.resumed), (3, 3, 0))
        pts = ex.points()
        self.assertEqual([p["name"] for p in pts], self.space.names())
        self.assertEqual(ex.names(), self.space.names())
        self.assertTrue(all(p["valid"] and p["fits"] for p in pts))
        ranking = ex.ranking()
        self.assertEqual(sorted(ranking), [0, 1, 2])
        self.assertEqual([pts[i]["rank"] for i in ranking], [1, 2, 3])
        self.assertEqual(ex.ranked(1), ranking[0])
        self.assertEqual(pts[ranking[0]]["edp"], min(p["edp"] for p in pts))
        edps = [pts[i]["edp"] for i in ranking]
        self.assertEqual(edps, sorted(edps))
        for p in pts:
            self.assertAlmostEqual(p["edp"], p["energy_pj"] * p["cycles"], delta=1e-9 * p["edp"])
            self.assertAlmostEqual(p["area_mm2"], self.space.point_area(p["index"]), places=12)
        pareto = ex.pareto()
        self.assertTrue(pareto)
        self.assertLessEqual(set(pareto), set(ex.names()))
        self.assertIn(pts[ranking[0]]["name"], pareto)  # the best EDP is not dominated
        r = ex.report_json()
        self.assertEqual(r["goal"], "edp")
        self.assertEqual(r["pareto"], pareto)
        self.assertEqual([p["rank"] for p in r["points"]], [p["rank"] for p in pts])
        with self.assertRaises(trim.TrimError) as cm:
            ex.ranked(4)
        self.assertEqual(cm.exception.code, trim.TRIM_ENOTFOUND)
        with self.assertRaises(IndexError):
            ex.point(3)
        self.assertIn(pts[ranking[0]]["name"], ex.report())
        self.assertEqual(len(ex.report("csv").strip().splitlines()), 4)

    def test_how_sure(self):
        # an exact sweep: every point exact, gap 0, its bound its figure, its order proven
        for p in self.ex.points():
            self.assertIs(p["exact"], True)
            self.assertEqual((p["gap"], p["lower_bound"]), (0.0, p["edp"]))
            self.assertEqual((p["rank_best"], p["rank_worst"]), (p["rank"], p["rank"]))
            self.assertIs(p["pareto_proven"], True)  # every point exact: its place on the front too
        self.assertEqual([p["pareto_proven"] for p in self.ex.report_json()["points"]], [True] * 3)
        try:
            import pandas  # noqa: F401
        except ImportError:
            self.skipTest("pandas (python3-pandas) is not installed: no frame to check")
        fr = self.ex.points().frame()
        for c in ("exact", "lower_bound", "gap", "rank_best", "rank_worst"):
            self.assertIn(c, fr.columns)
        self.assertEqual(list(fr["exact"]), [True] * 3)
        self.assertEqual(list(fr["gap"]), [0.0] * 3)
        # a time limit: whatever it stopped, the figures agree with the bounds
        with trim.Explorer(self.net, self.w, self.space) as ex:
            ex.set_goal("edp")
            ex.set_sparsity(False)  # dense figures: what the searches bound
            ex.set("time_limit", 1e-6)
            ex.run()
            for p in ex.points():
                if not p["valid"]:
                    continue
                if p["exact"]:
                    self.assertEqual((p["gap"], p["lower_bound"]), (0.0, p["edp"]))
                else:
                    self.assertLessEqual(p["lower_bound"], p["edp"])
                    self.assertAlmostEqual(p["gap"], (p["edp"] - p["lower_bound"]) / p["edp"], delta=1e-15)
                self.assertLessEqual(p["rank_best"], p["rank"])
                self.assertLessEqual(p["rank"], p["rank_worst"])
            fr = ex.points().frame()
            self.assertEqual(list(fr["exact"]), [p["exact"] for p in ex.points()])

    def test_write(self):
        out = os.path.join(self.tmp.name, "results")
        self.ex.write(out)
        with open(os.path.join(out, "results.json")) as f:
            self.assertEqual(json.load(f)["pareto"], self.ex.pareto())
        with open(os.path.join(out, "points.csv")) as f:
            lines = f.read().strip().splitlines()
            self.assertEqual(len(lines), 4)
            self.assertTrue(lines[0].endswith(",exact,lower_bound,gap,rank_best,rank_worst,pareto_proven"), lines[0])
        with open(os.path.join(out, "workloads.csv")) as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(len(rows), 3 * len(self.w))
        # Explorer.workloads(i)'s "<level>_pj" are workloads.csv's columns
        for i, name in enumerate(self.ex.names()):
            mine = [r for r in rows if r["point"] == name]
            wl = self.ex.workloads(i)
            self.assertEqual(len(mine), len(wl))
            for r, x in zip(mine, wl):
                for c in ("DRAM_pj", "GLB_pj", "NoC_pj", "RF_pj", "MAC_pj"):
                    self.assertEqual(x[c], float(r[c]), (name, r["layer"], c))

    def resumed(self, **options):
        ex = trim.Explorer(self.net, self.w, self.space)
        ex.set_goal("edp")  # the points' mappings were searched for EDP (setUpClass)
        for k, v in options.items():
            getattr(ex, "set_" + k)(*v) if isinstance(v, tuple) else getattr(ex, "set_" + k)(v)
        ex.set_out_dir(os.path.join(self.tmp.name, "points"))
        steps = 1
        while not ex.step():
            steps += 1
        self.assertEqual((ex.resumed, steps), (3, 1))  # every point was in the directory
        return ex

    def test_budget_and_goals_resumed(self):
        pts = self.ex.points()
        areas = sorted(p["area_mm2"] for p in pts)
        with self.resumed(area_budget=(areas[0] + areas[1]) / 2) as ex:
            self.assertEqual(ex.points()[0]["edp"], pts[0]["edp"])  # loaded, not re-evaluated
            ranked = [p for p in ex.points() if p["rank"]]
            self.assertEqual([p["area_mm2"] for p in ranked], areas[:1])
            self.assertEqual(len(ex.ranking()), 1)
        with self.resumed(goal="weighted", weights=(0, 0, 1)) as ex:  # area alone
            self.assertEqual([ex.point(i)["area_mm2"] for i in ex.ranking()], areas)
            self.assertEqual(ex.report_json()["goal"], "weighted")
        with self.resumed(goal=3) as ex:  # TRIM_EXPLORE_AREA
            self.assertEqual(ex.report_json()["goal"], "area")
        with self.assertRaises(ValueError):
            self.ex.set_goal("beauty")
        with self.assertRaises(trim.TrimError):
            self.ex.set_threads(0)
        self.assertEqual(trim.explore_goals(), ["energy", "delay", "edp", "area", "weighted"])


class NewHandlesLifetimeTest(unittest.TestCase):
    def test_mapping_errors_file_line_col(self):
        with trim.Arch(TINY_ARCH) as a:
            with self.assertRaises(trim.TrimError) as cm:
                trim.Mapping(a, text="schema_version: 1\nmapping:\n  - level: GLB\n    temporal: {Q: 2}\n",
                             name="bad.yaml")
            self.assertIn("bad.yaml:4:16: mapping[0].temporal.Q", cm.exception.message)
            with self.assertRaises(trim.TrimError) as cm:
                trim.Mapping(a, text="mapping:\n  - target: GLB\n    type: temporal\n    factors: K=2 Z=3\n",
                             name="tl.yaml")
            self.assertIn("tl.yaml:4:14: mapping[0].factors", cm.exception.message)
            self.assertEqual(cm.exception.code, -5)  # TRIM_ESCHEMA
            with self.assertRaises(trim.TrimError) as cm:
                trim.Mapping(a, "test/data/mapping/none.yaml")
            self.assertEqual(cm.exception.code, -3)  # TRIM_EIO
            with self.assertRaises(trim.TrimError) as cm:
                trim.Mapping(a, EYERISS_CONV1)  # eyeriss level names on the tiny arch
            self.assertRegex(cm.exception.message, r"eyeriss-conv1\.yaml:\d+:\d+: ")

    def test_use_after_close(self):
        net = trim.Network(TINY_NET)
        w = trim.Workloads(net, mode="inference")
        a = trim.Arch(TINY_ARCH)
        space = trim.Space(TINY_SPACE)
        fc = w.find("fc", "FW")
        s = trim.Search(w, fc, a).run()
        m = s.best()
        e = trim.Eval(w, fc, a, m)
        ne = trim.NetEval(net, w, a)
        ex = trim.Explorer(net, w, space)
        objs = [(m, lambda: m.dump()), (e, lambda: e.cycles), (s, lambda: s.counts()),
                (ne, lambda: ne.done), (ex, lambda: ex.names())]
        for obj, use in objs:
            use()
            obj.close()
            with self.assertRaises(trim.TrimError) as cm:
                use()
            self.assertEqual(cm.exception.code, trim.TRIM_EINVAL)
            obj.close()
        with self.assertRaises(trim.TrimError):
            trim.Eval(w, fc, a, m)  # a closed mapping cannot be passed on
        # an explorer refers to its network, workloads and space: it refuses to
        # run once one of them is closed (instead of reading freed memory)
        ex = trim.Explorer(net, w, space)
        ex2 = trim.Explorer(net, w, space)
        space.close()
        with self.assertRaises(trim.TrimError) as cm:
            ex.step()
        self.assertIn("Space is closed", cm.exception.message)
        net.close()
        with self.assertRaises(trim.TrimError):
            ex2.run()
        for h in (ex, ex2, w, a):
            h.close()


PLOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "python",
                    "explore_plot.py")
SYSTEM_PYTHON = "/usr/bin/python3"


HANDLE_CLASSES = ("Network", "Workloads", "Arch", "Energy", "Space", "Sparsity", "Fusion", "FusionPlan",
                  "FusionResult", "Mapping", "Eval", "Search", "Constraints", "NetEval", "Explorer")

# Every argument of the package that takes a handle: (where, parameter, class expected,
# call(objects, value) with that argument replaced by value and the others valid).
HANDLE_ARGUMENTS = [
    ("Workloads()", "network", "Network", lambda o, v: trim.Workloads(v)),
    ("Sparsity()", "network", "Network", lambda o, v: trim.Sparsity(v, o["Workloads"])),
    ("Sparsity()", "workloads", "Workloads", lambda o, v: trim.Sparsity(o["Network"], v)),
    ("Fusion()", "network", "Network", lambda o, v: trim.Fusion(v, "conv", "pool")),
    ("Fusion.set_hardware()", "arch", "Arch", lambda o, v: o["Fusion"].set_hardware(v)),
    ("Fusion.set_hardware()", "table", "Energy", lambda o, v: o["Fusion"].set_hardware(o["Arch"], v)),
    ("Arch.report()", "table", "Energy", lambda o, v: o["Arch"].report("table", v)),
    ("Arch.warnings()", "workloads", "Workloads", lambda o, v: o["Arch"].warnings(v)),
    ("Energy.for_arch()", "arch", "Arch", lambda o, v: trim.Energy.for_arch(v)),
    ("Energy.resources()", "arch", "Arch", lambda o, v: o["Energy"].resources(v)),
    ("Energy.arch_area()", "arch", "Arch", lambda o, v: o["Energy"].arch_area(v)),
    ("Energy.report()", "arch", "Arch", lambda o, v: o["Energy"].report(v)),
    ("Mapping()", "arch", "Arch", lambda o, v: trim.Mapping(v)),
    ("Mapping.check()", "workloads", "Workloads", lambda o, v: o["Mapping"].check(v, ("conv", "FW"), o["Arch"])),
    ("Mapping.check()", "arch", "Arch", lambda o, v: o["Mapping"].check(o["Workloads"], 0, v)),
    ("Eval()", "workloads", "Workloads", lambda o, v: trim.Eval(v, ("conv", "FW"), o["Arch"], o["Mapping"])),
    ("Eval()", "arch", "Arch", lambda o, v: trim.Eval(o["Workloads"], 0, v, o["Mapping"])),
    ("Eval()", "mapping", "Mapping", lambda o, v: trim.Eval(o["Workloads"], 0, o["Arch"], v)),
    ("Eval()", "table", "Energy", lambda o, v: trim.Eval(o["Workloads"], 0, o["Arch"], o["Mapping"], v)),
    ("Search()", "workloads", "Workloads", lambda o, v: trim.Search(v, 0, o["Arch"])),
    ("Search()", "arch", "Arch", lambda o, v: trim.Search(o["Workloads"], 0, v)),
    ("Search()", "table", "Energy", lambda o, v: trim.Search(o["Workloads"], 0, o["Arch"], v)),
    ("Search.set_constraints()", "constraints", "Constraints", lambda o, v: o["Search"].set_constraints(v)),
    ("Constraints.merge()", "other", "Constraints", lambda o, v: o["Constraints"].merge(v)),
    ("Constraints.check()", "arch", "Arch", lambda o, v: o["Constraints"].check(v)),
    ("Constraints.dump()", "arch", "Arch", lambda o, v: o["Constraints"].dump(v)),
    ("fused_tiles()", "network", "Network", lambda o, v: trim.fused_tiles(v, o["Workloads"], o["Arch"])),
    ("fused_tiles()", "workloads", "Workloads", lambda o, v: trim.fused_tiles(o["Network"], v, o["Arch"])),
    ("fused_tiles()", "arch", "Arch", lambda o, v: trim.fused_tiles(o["Network"], o["Workloads"], v)),
    ("fused_tiles()", "table", "Energy",
     lambda o, v: trim.fused_tiles(o["Network"], o["Workloads"], o["Arch"], v)),
    ("NetEval()", "network", "Network", lambda o, v: trim.NetEval(v, o["Workloads"], o["Arch"])),
    ("NetEval()", "workloads", "Workloads", lambda o, v: trim.NetEval(o["Network"], v, o["Arch"])),
    ("NetEval()", "arch", "Arch", lambda o, v: trim.NetEval(o["Network"], o["Workloads"], v)),
    ("NetEval()", "table", "Energy", lambda o, v: trim.NetEval(o["Network"], o["Workloads"], o["Arch"], v)),
    ("NetEval.set_constraints()", "constraints", "Constraints", lambda o, v: o["NetEval"].set_constraints(v)),
    ("Explorer()", "network", "Network", lambda o, v: trim.Explorer(v, o["Workloads"], o["Space"])),
    ("Explorer()", "workloads", "Workloads", lambda o, v: trim.Explorer(o["Network"], v, o["Space"])),
    ("Explorer()", "space", "Space", lambda o, v: trim.Explorer(o["Network"], o["Workloads"], v)),
    ("Explorer.set_constraints()", "constraints", "Constraints", lambda o, v: o["Explorer"].set_constraints(v)),
]
OPTIONAL_HANDLES = {"table", "constraints"} | {("Constraints.dump()", "arch"), ("Arch.warnings()", "workloads")}


class FusedTilesTest(unittest.TestCase):
    """trim.fused_tiles: the chains of test/data/networks/mlp-chain.yaml fused
    at the GLB of test/data/arch/fused-glb.yaml (test/check_fusedtiles.c has
    the hand count: 64 DRAM bytes fused, 144 layer by layer)."""

    def test_report(self):
        with trim.Network("test/data/networks/mlp-chain.yaml") as net, \
                trim.Workloads(net, mode="inference") as w, trim.Arch("test/data/arch/fused-glb.yaml") as arch:
            r = trim.fused_tiles(net, w, arch)
            self.assertEqual(r["buffer_level"], "GLB")
            self.assertEqual([c["layers"] for c in r["chains"]], [["fc1", "fc2", "fc3"]])
            self.assertEqual(r["totals"]["dram_bytes"], 64)
            self.assertEqual(r["totals"]["layer_by_layer"]["dram_bytes"], 144)
            self.assertTrue(r["totals"]["exact"])
            g = r["chains"][0]["groups"]
            self.assertEqual([(x["first"], x["last"], x["fused"]) for x in g], [("fc1", "fc3", True)])
            r = trim.fused_tiles(net, w, arch, fuse="fc2:fc3", level="GLB", goal="energy", threads=2)
            self.assertEqual(r["totals"]["dram_bytes"], 112)
            self.assertIn("chain 1: fc1..fc3", trim.fused_tiles(net, w, arch, fmt="table"))
            with self.assertRaises(trim.TrimError) as cm:
                trim.fused_tiles(net, w, arch, fuse="fc1:fcx")
            self.assertEqual(cm.exception.code, trim.TRIM_ENOTFOUND)
            with self.assertRaises(ValueError):
                trim.fused_tiles(net, w, arch, goal="fastest")
            # a time limit: a plan no worse than layer by layer, its gap proven
            r = trim.fused_tiles(net, w, arch, time_limit=5)
            self.assertLessEqual(r["totals"]["cost"], r["totals"]["layer_by_layer"]["cost"])
            self.assertGreaterEqual(r["totals"]["gap"], 0)
            self.assertEqual(r["totals"]["dram_bytes"], 64)
            with self.assertRaises(trim.TrimError) as cm:
                trim.fused_tiles(net, w, arch, time_limit=-1)
            self.assertEqual(cm.exception.code, trim.TRIM_EINVAL)

    def test_explorer_fuse(self):
        # trim explore --fuse: mlp-wide over a 1 KB and an 8 KB GLB
        # (test/check_explore_fuse.c): fusion fits the 8 KB point only, and
        # its figures are trim.fused_tiles()'s on the point's architecture
        with trim.Network("test/data/networks/mlp-wide.yaml") as net, \
                trim.Workloads(net, mode="inference") as w, \
                trim.Space("test/data/arch/fused-glb-space.yaml") as space:
            ex = trim.Explorer(net, w, space)
            ex.set_fuse("all")
            ex.run()
            best = ex.point(ex.ranked(1))
            self.assertEqual(best["name"], "glb=8KB")
            z = ex.fused(ex.ranked(1))
            self.assertTrue(z["planned"] and z["exact"])
            self.assertEqual(z["fused_groups"], 1)
            self.assertGreater(z["dram_saved"], 0)
            self.assertLess(best["energy_pj"], z["lbl_energy_pj"])
            with space.point_arch(ex.ranked(1)) as arch:
                r = trim.fused_tiles(net, w, arch)
            self.assertEqual(z["cost"], r["totals"]["cost"])
            self.assertEqual(z["dram_bytes"], r["totals"]["dram_bytes"])
            other = ex.fused(ex.ranked(2))
            self.assertEqual(other["fused_groups"], 0)
            self.assertEqual(other["dram_saved"], 0)
            ex.close()
            ex = trim.Explorer(net, w, space)
            with self.assertRaises(trim.TrimError) as cm:
                ex.set_fuse("fc1:fcx")
            self.assertEqual(cm.exception.code, trim.TRIM_ENOTFOUND)
            ex.close()

    def test_attention(self):
        # scores -> softmax -> context of test/data/networks/attn-tiny.yaml
        # (test/check_fusedtiles_attn.c has the hand count: Q, K, V and the
        # context once fused, 128 bytes; the scores three times more, 384)
        with trim.Network("test/data/networks/attn-tiny.yaml") as net, \
                trim.Workloads(net, mode="inference") as w, trim.Arch("test/data/arch/fused-glb.yaml") as arch:
            r = trim.fused_tiles(net, w, arch, threads=2)
            self.assertEqual([c["layers"] for c in r["chains"]], [["scores", "context"]])
            self.assertEqual(r["totals"]["dram_bytes"], 128)
            self.assertEqual(r["totals"]["layer_by_layer"]["dram_bytes"], 384)
            self.assertEqual(r["totals"]["fused_groups"], 1)
            self.assertTrue(r["totals"]["exact"])
            self.assertEqual(r["chains"][0]["softmax_after"], ["scores"])
            self.assertIn("softmax after scores: in the buffer, per tile", trim.fused_tiles(net, w, arch, fmt="table"))
            # fused nowhere: the softmax's 64 words in DRAM go with context's group (128 + 256 bytes)
            r = trim.fused_tiles(net, w, arch, fuse="q:v")
            self.assertEqual([g["dram_bytes"] for g in r["chains"][0]["groups"]], [128, 256])
            self.assertIn("softmax   after scores: in DRAM", trim.fused_tiles(net, w, arch, fuse="q:v", fmt="table"))


class TypedHandlesTest(unittest.TestCase):
    """A handle of one class given where another is expected is refused with
    TypeError (parameter, class expected, class given) before any C call:
    NetEval and Sparsity with swapped arguments crashed the interpreter, an
    Arch was taken as a Network, a Mapping given a Network read garbage. The
    C library refuses them too (test/check_handle.c); workloads of another
    network are refused by what takes both."""

    @classmethod
    def setUpClass(cls):
        net = trim.Network(TINY_NET)
        w = trim.Workloads(net, mode="inference")
        arch = trim.Arch(TINY_ARCH)
        energy = trim.Energy.for_arch(arch)
        fusion = trim.Fusion(net, "conv", "pool")
        search = trim.Search(w, 0, arch, energy)
        search.run()
        mapping = search.best()
        cls.o = {"Network": net, "Workloads": w, "Arch": arch, "Energy": energy, "Space": trim.Space(TINY_SPACE),
                 "Sparsity": trim.Sparsity(net, w), "Fusion": fusion, "FusionPlan": fusion.evaluate(0),
                 "FusionResult": fusion.explore("offchip"), "Mapping": mapping,
                 "Eval": trim.Eval(w, 0, arch, mapping, energy), "Search": search,
                 "Constraints": trim.Constraints(), "NetEval": trim.NetEval(net, w, arch)}
        cls.o["Explorer"] = trim.Explorer(net, w, cls.o["Space"])
        assert sorted(cls.o) == sorted(HANDLE_CLASSES), sorted(cls.o)

    @classmethod
    def tearDownClass(cls):
        for h in cls.o.values():
            h.close()

    def test_every_argument_refuses_every_other_class(self):
        checked = 0
        for where, param, expected, call in HANDLE_ARGUMENTS:
            optional = param in OPTIONAL_HANDLES or (where, param) in OPTIONAL_HANDLES
            wrong = [(self.o[c], "libtrim." + c) for c in HANDLE_CLASSES if c != expected]
            wrong += [("eyeriss.yaml", "str"), (3, "int")] + ([] if optional else [(None, "NoneType")])
            for value, given in wrong:
                with self.subTest(where=where, param=param, given=given):
                    with self.assertRaises(TypeError) as cm:
                        call(self.o, value)
                    self.assertEqual(str(cm.exception), "%s: %s must be a libtrim.%s%s, not %s" % (
                        where, param, expected, " or None" if optional else "", given))
                    checked += 1
        required = sum(1 for w, p, _, _ in HANDLE_ARGUMENTS if p not in OPTIONAL_HANDLES and
                       (w, p) not in OPTIONAL_HANDLES)
        self.assertEqual(checked, len(HANDLE_ARGUMENTS) * (len(HANDLE_CLASSES) - 1 + 2) + required)
        # the objects were not touched: each still answers
        self.assertEqual(self.o["Network"].name, "tiny")
        self.assertEqual(len(self.o["Workloads"]), 3)
        self.assertEqual(len(self.o["Explorer"]), 3)

    def test_the_right_class_passes(self):
        """The right class reaches C (which may still refuse the call: an ASIC
        table has no FPGA resources)."""
        for where, param, expected, call in HANDLE_ARGUMENTS:
            with self.subTest(where=where, param=param):
                try:
                    r = call(self.o, self.o[expected])
                except trim.TrimError:
                    continue
                if isinstance(r, trim._core._Handle) and all(r is not x for x in self.o.values()):
                    r.close()

    def test_the_table_covers_the_package(self):
        """Every handle argument the package checks is in HANDLE_ARGUMENTS, and no
        wrapper passes another object's .handle without the check."""
        import re
        src = ""
        for f in ("_core.py", "hardware.py", "mapping.py", "network.py"):
            with open(os.path.join(os.path.dirname(trim.__file__), f)) as fh:
                src += fh.read()
        checked = set(re.findall(r'_handle\(\w+, (\w+), "(\w+)", "([^"]+)"', src))
        checked = {(where, param, cls) for cls, param, where in checked}
        checked |= {(where, "constraints", "Constraints") for where in re.findall(r'_cons\(\w+, "([^"]+)"\)', src)}
        self.assertEqual(checked, {(w, p, c) for w, p, c, _ in HANDLE_ARGUMENTS})
        self.assertEqual(re.findall(r"\b(?!self\b)(\w+)\.handle\b", src), ["obj"])  # _handle's own obj.handle

    def test_workloads_of_another_network(self):
        with trim.Network("models/networks/trim-fig2.yaml") as fig2, \
                trim.Network("models/networks/alexnet-cifar.yaml") as alex, \
                trim.Network("models/networks/trim-fig2.yaml") as again:
            w_alex = trim.Workloads(alex)
            w_fig2 = trim.Workloads(fig2)
            a, space = self.o["Arch"], self.o["Space"]
            for name, make in (("trim_neteval_create", lambda n, w: trim.NetEval(n, w, a)),
                               ("trim_explorer_create", lambda n, w: trim.Explorer(n, w, space)),
                               ("trim_sparsity_create", lambda n, w: trim.Sparsity(n, w))):
                with self.subTest(name=name):
                    with self.assertRaises(trim.TrimError) as cm:
                        make(fig2, w_alex)
                    self.assertEqual(cm.exception.code, trim.TRIM_EINVAL)
                    self.assertTrue(cm.exception.message.startswith(
                        "%s: the workloads were made from network 'alexnet-cifar', not from 'trim-fig2'" % name),
                        cm.exception.message)
                    make(again, w_fig2).close()  # another load of the same description is fine


def system_matplotlib():
    """None if /usr/bin/python3 can import matplotlib, else the reason."""
    if not os.access(SYSTEM_PYTHON, os.X_OK):
        return "%s not found" % SYSTEM_PYTHON
    r = subprocess.run([SYSTEM_PYTHON, "-c", "import matplotlib"], capture_output=True, text=True)
    return None if r.returncode == 0 else "%s has no matplotlib (apt-get install python3-matplotlib): %s" % (
        SYSTEM_PYTHON, r.stderr.strip().splitlines()[-1] if r.stderr.strip() else r.returncode)


class AnytimeTest(unittest.TestCase):
    """The anytime search and the network's search proof and resume, from Python."""

    def test_search_gap_and_time_limit(self):
        with trim.Network("test/data/neteval/repeat.yaml") as net, trim.Workloads(net) as w, \
                trim.Arch("test/data/neteval/tiny-arch.yaml") as a:
            exact = trim.Search(w, 0, a).run()
            self.assertIs(exact.exact, True)
            self.assertTrue(math.isfinite(exact.lower_bound) and exact.lower_bound > 0)
            self.assertEqual(exact.gap, 0)
            s = trim.Search(w, 0, a)
            s.set("time_limit", 1e-9)
            s.run()
            self.assertIs(s.exact, False)
            self.assertLessEqual(s.lower_bound, exact.lower_bound)
            with self.assertRaises(trim.TrimError):
                s.set("gap", 1.5)

    def test_why_empty(self):
        with trim.Network("test/data/neteval/repeat.yaml") as net, trim.Workloads(net) as w, \
                trim.Arch("test/data/neteval/tiny-arch.yaml") as a:
            fc = [i for i in range(len(w)) if w.intra(i)["layer"] == "fc"][0]
            s = trim.Search(w, fc, a).run()
            self.assertIsNone(s.why_empty)
            s = trim.Search(w, fc, a)
            s.set("min_rf_util", 1.0)  # the fc's tiles fill at most 0.09766 of the RF
            s.run()
            self.assertEqual(s.why_empty, "every mapping that fits (7488) has an RF utilization below the "
                             "minimum 1 (--min-rf-util): the highest is 0.09766")
            with self.assertRaisesRegex(trim.TrimError, "no mapping fits: every mapping"):
                s.best()

    def test_network_proof_and_resume(self):
        d = tempfile.mkdtemp()
        try:
            runs = []
            for _ in range(2):
                with trim.Network("test/data/neteval/repeat.yaml") as net, trim.Workloads(net) as w, \
                        trim.Arch("test/data/neteval/tiny-arch.yaml") as a, trim.NetEval(net, w, a) as ne:
                    ne.set("threads", 2)
                    ne.set_out_dir(d)
                    ne.run()
                    runs.append((ne.search_proof(), ne.energy_pj, ne.progress))
            self.assertEqual(runs[0][0]["resumed"], 0)
            self.assertEqual(runs[1][0]["resumed"], 4)  # every distinct search read back
            self.assertIs(runs[1][0]["exact"], True)
            self.assertEqual(runs[0][1], runs[1][1])
            self.assertEqual(runs[1][2], 1.0)
        finally:
            shutil.rmtree(d)


class PackageTest(unittest.TestCase):
    """The package itself: where it loads from, checked arguments, rows, reprs."""

    def test_installed_package_and_library(self):
        self.assertTrue(os.path.realpath(trim.__file__).startswith(os.path.realpath(INSTALLED)))
        self.assertEqual(trim.find_library(), os.environ["TRIM_LIBRARY"])  # TRIM_LIBRARY overrides
        self.assertEqual(trim.version(), trim.__version__)
        self.assertIn(os.path.realpath(trim.lib()._path), os.path.realpath(os.environ["TRIM_LIBRARY"]))

    def test_pip_install_into_a_venv(self):
        """pip install ./python into a fresh venv, as a user does after make: the
        package carries the library it was built with and the data, and imports
        and evaluates without TRIM_LIBRARY (python/setup.py)."""
        tree = os.path.realpath(os.path.join(_TREE_PYTHON, ".."))
        built = os.path.realpath(LIBRARY)
        with tempfile.TemporaryDirectory() as tmp:
            venv = os.path.join(tmp, "venv")
            r = subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", venv],
                               capture_output=True, text=True)
            if r.returncode != 0:
                self.skipTest("%s -m venv is not available: %s" % (sys.executable, r.stderr.strip()[-300:]))
            py = os.path.join(venv, "bin", "python")
            env = {k: v for k, v in os.environ.items() if k not in ("TRIM_LIBRARY", "TRIM_DATA_DIR", "PYTHONPATH")}
            # the library under test is what the package bundles (build/ unless a sanitizer build)
            env["TRIM_BUILD_DIR"] = os.path.dirname(os.path.dirname(built))
            r = subprocess.run([py, "-m", "pip", "install", "-q", "--no-build-isolation", "--no-deps", "--no-index",
                                "--root-user-action=ignore", "./python"], cwd=tree, env=env,
                               capture_output=True, text=True)
            if r.returncode != 0 and "No module named pip" in r.stderr:
                self.skipTest("no pip in the venv (Debian: python3-pip): %s" % r.stderr.strip()[-300:])
            self.assertEqual(r.returncode, 0, r.stderr)
            del env["TRIM_BUILD_DIR"]
            script = (
                "import json, libtrim\n"
                "net = libtrim.Network(libtrim.data_path('models/networks/trim-fig2.yaml'))\n"
                "arch = libtrim.Arch(libtrim.data_path('models/arch/eyeriss.yaml'))\n"
                "ne = libtrim.NetEval(net, libtrim.Workloads(net, mode='inference'), arch).run()\n"
                "print(json.dumps({'package': libtrim.__file__, 'library': libtrim.find_library(),\n"
                "                  'network': libtrim.data_path('models/networks/trim-fig2.yaml'),\n"
                "                  'table': libtrim.Energy.for_arch(arch).file,\n"
                "                  'energy_pj': ne.energy_pj, 'cycles': ne.cycles}))\n")
            r = subprocess.run([py, "-c", script], cwd=tmp, env=env, capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            got = json.loads(r.stdout)
            site = os.path.realpath(venv)
            for k in ("package", "library", "network", "table"):
                self.assertTrue(os.path.realpath(got[k]).startswith(site + os.sep), (k, got[k]))
            with open(got["library"], "rb") as a, open(built, "rb") as b:
                self.assertTrue(a.read() == b.read(), "the bundled library is not the built one")
        with trim.Network("models/networks/trim-fig2.yaml") as net, trim.Arch("models/arch/eyeriss.yaml") as arch, \
                trim.Workloads(net, mode="inference") as w, trim.NetEval(net, w, arch) as ne:
            ne.run()
            self.assertEqual((got["energy_pj"], got["cycles"]), (ne.energy_pj, ne.cycles))

    def test_integers_are_not_wrapped(self):
        with trim.Network("models/networks/alexnet-cifar.yaml") as net:
            for batch in (2 ** 64 + 4, 2 ** 63, -2 ** 63 - 1):
                with self.assertRaises(OverflowError) as cm:
                    trim.Workloads(net, batch=batch)
                self.assertIn(str(batch), str(cm.exception))
            with self.assertRaises(OverflowError):
                trim.Workloads(net, word_bits=2 ** 32 + 16)   # an int, not int64
            w = trim.Workloads(net, batch=4)
            self.assertEqual(w.totals()["intra_count"], len(w))
            with self.assertRaises(OverflowError):
                trim.lib().trim_workloads_intra_macs(w.handle, 2 ** 64)   # size_t
            with self.assertRaises(OverflowError):
                trim.lib().trim_workloads_intra_macs(w.handle, -1)

    def test_text_with_a_nul_byte_is_refused(self):
        text = read("models/networks/trim-fig2.yaml")
        with self.assertRaises(ValueError) as cm:
            trim.Network(text=text + "\0garbage")
        self.assertIn("NUL", str(cm.exception))
        with self.assertRaises(ValueError):
            trim.Network("models/networks/trim-fig2.yaml\0.txt")
        with self.assertRaises(ValueError):
            trim.Arch(text=read("models/arch/eyeriss.yaml"), name="a\0b.yaml")
        with trim.Network(text=text) as net:   # the same text without it loads
            self.assertGreater(net.macs, 0)

    def test_arch_text_finds_its_table_without_a_file_name(self):
        text = read("models/arch/eyeriss.yaml").replace("technology: 65nm", "technology: 45nm")
        cwd = os.getcwd()
        with tempfile.TemporaryDirectory() as tmp:
            os.chdir(tmp)                     # no energy_tables/ here
            try:
                with trim.Arch(text=text) as a, trim.Energy.for_arch(a) as t:
                    self.assertEqual(t.name, "45nm")
                    self.assertTrue(os.path.isfile(t.file), t.file)
                path = trim.data_path("models/networks/alexnet-cifar.yaml")
                self.assertTrue(os.path.isabs(path) and os.path.isfile(path), path)
                with self.assertRaises(trim.TrimError) as cm:
                    trim.data_path("models/none.yaml")
                self.assertEqual(cm.exception.code, trim.TRIM_ENOTFOUND)
            finally:
                os.chdir(cwd)

    def test_rows_frames_and_reprs(self):
        with trim.Arch("models/arch/eyeriss.yaml") as a:
            levels = a.levels()
            self.assertIsInstance(levels, list)
            self.assertEqual([l["name"] for l in levels], ["DRAM", "GLB", "PE array", "RF", "MAC"])
            self.assertEqual(json.loads(json.dumps(levels))[1]["capacity"], levels[1]["capacity"])
            self.assertIn("'eyeriss'", repr(a))
            self.assertIn("5 levels, 168 PEs", repr(a))
            page = a._repr_html_()
            self.assertIn("<table>", page)
            self.assertIn("<td>PE array</td>", page)
            self.assertIn("&lt;libtrim.Arch", page)
        self.assertEqual(repr(a), "<libtrim.Arch (closed)>")
        net = trim.Network(TINY_NET)
        w = trim.Workloads(net)
        self.assertIn("intra-layer", repr(w))
        ne = trim.NetEval(net, w, trim.Arch(TINY_ARCH))
        self.assertIn("0/%d workloads mapped" % len(ne), repr(ne))
        ne.run()
        rows = ne.workloads()
        self.assertEqual(len(rows), len(ne))
        self.assertEqual(sorted(rows[0]), sorted(list(trim.NET_FIELDS) + ["layer", "phase"] +
                                                 [l + "_pj" for l in ne.level_energy()]))
        self.assertIn("cycles", repr(ne))
        self.assertIn("<th>energy_pj</th>", ne._repr_html_())
        try:
            import pandas
        except ImportError:
            with self.assertRaises(ImportError) as cm:
                rows.frame()
            self.assertIn("python3-pandas", str(cm.exception))
            return
        df = rows.frame()
        self.assertIsInstance(df, pandas.DataFrame)
        self.assertEqual(len(df), len(rows))
        self.assertEqual(list(df["layer"]), [r["layer"] for r in rows])
        self.assertAlmostEqual(df["energy_pj"].sum(), sum(r["energy_pj"] for r in rows))
        wf = w.all().frame()                  # nested bounds become bounds.N ... columns
        self.assertIn("bounds.M", wf.columns)
        self.assertEqual(list(wf["macs"]), [w.intra(i)["macs"] for i in range(len(w))])


NOTEBOOK = os.path.join(os.path.dirname(PLOT), "report_notebook.py")


class ReportNotebookTest(unittest.TestCase):
    """examples/python/report_notebook.py runs top to bottom as a script: its
    cells assert what they show (exactness, energy by level with the inter-layer
    work, the roofline) and it writes the HTML report and a roofline PNG."""

    def test_runs(self):
        if not os.access(SYSTEM_PYTHON, os.X_OK):
            self.skipTest("%s not found" % SYSTEM_PYTHON)
        with tempfile.TemporaryDirectory() as tmp:
            env = dict(os.environ, TRIM_LIBRARY=os.path.abspath(LIBRARY))
            r = subprocess.run([SYSTEM_PYTHON, NOTEBOOK, "--out", tmp], env=env, capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("conv  FW exact=True  gap=0.0", r.stdout)
            self.assertEqual(r.stdout.count(" MACs/cycle"), 7)
            with open(os.path.join(tmp, "report.html")) as f:
                self.assertIn("Buffer occupancy per level", f.read())
            if system_matplotlib() is None:
                with open(os.path.join(tmp, "roofline.png"), "rb") as f:
                    self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
            else:
                print("report_notebook.py: " + system_matplotlib() + ": no PNG checked", file=sys.stderr)


class ExplorePlotTest(unittest.TestCase):
    def test_writes_a_png(self):
        reason = system_matplotlib()
        if reason:
            print("skipping explore_plot.py: " + reason, file=sys.stderr)
            self.skipTest(reason)
        with tempfile.TemporaryDirectory() as tmp:
            png = os.path.join(tmp, "front.png")
            env = dict(os.environ, TRIM_LIBRARY=os.path.abspath(LIBRARY))
            r = subprocess.run([SYSTEM_PYTHON, PLOT, "--out", png, "--threads", "2"], env=env,
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn(png, r.stdout)
            with open(png, "rb") as f:
                head = f.read(24)
            self.assertEqual(head[:8], b"\x89PNG\r\n\x1a\n")
            width, height = int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
            self.assertGreater(width, 600)
            self.assertGreater(height, 300)
            # a bad input fails with the library's message, not a traceback
            r = subprocess.run([SYSTEM_PYTHON, PLOT, "--out", png, "--space", "models/arch/none.yaml"],
                               env=env, capture_output=True, text=True)
            self.assertNotEqual(r.returncode, 0)
            self.assertIn("none.yaml", r.stderr)
            self.assertNotIn("Traceback", r.stderr)

    def test_breakdown_panel_and_log_axes(self):
        reason = system_matplotlib()
        if reason:
            self.skipTest(reason)
        code = r"""
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("explore_plot", sys.argv[1])
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
def point(name, s, e, rank):
    return {"name": name, "valid": True, "seconds": s, "energy_pj": e, "area_mm2": 1.0, "pareto": True,
            "rank": rank, "edp": s * e}
rows = [{"point": "a", "layer": l, "phase": "FW", "energy_pj": str(v), "DRAM_pj": str(v * 0.9),
         "MAC_pj": str(v * 0.1), "dense_energy_pj": str(v)} for l, v in (("c1", 1e3), ("c2", 1e6))]
spread = m.plot([point("a", 1e-6, 1e3, 1), point("b", 1e-3, 1e4, 2)], [0, 1], rows, ("n", "s", "edp", {}),
                sys.argv[2])
close = m.plot([point("a", 1e-6, 1e3, 1), point("b", 2e-6, 3e3, 2)], [0, 1], rows[:1], ("n", "s", "edp", {}),
               sys.argv[2], linear=False)
flat = m.plot([point("a", 1e-6, 1e3, 1), point("b", 1e-3, 1e4, 2)], [0, 1], rows, ("n", "s", "edp", {}),
              sys.argv[2], linear=True)
print(json.dumps([spread, close, flat, m.per_level(rows, "a")]))
"""
        with tempfile.TemporaryDirectory() as tmp:
            r = subprocess.run([SYSTEM_PYTHON, "-c", code, PLOT, os.path.join(tmp, "x.png")],
                               env=dict(os.environ, TRIM_LIBRARY=os.path.abspath(LIBRARY)),
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            spread, close, flat, levels = json.loads(r.stdout)
        # delay spans 3 decades, the layers' energies 3: log; energy 1 decade: linear
        self.assertEqual(spread, {"delay": "log", "energy": "linear", "phases": "log", "levels": "log"})
        self.assertEqual(set(close.values()), {"linear"})
        self.assertEqual(set(flat.values()), {"linear"})
        self.assertEqual(levels, [["c1", "c2"], {"DRAM": [900.0, 900000.0], "MAC": [100.0, 100000.0]}])


if __name__ == "__main__":
    unittest.main(verbosity=1)
