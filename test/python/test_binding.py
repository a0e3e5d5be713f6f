"""The ctypes binding (examples/python/trim.py) against the built shared library.

Run by `make check` with TRIM_LIBRARY pointing at build/lib/libtrim.so.
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "examples", "python"))
import trim  # noqa: E402


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


if __name__ == "__main__":
    unittest.main(verbosity=1)
