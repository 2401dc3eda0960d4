# -*- Python -*-
# The search benchmark: whole searches of the workloads (examples/linalg at
# b=1 and b=8, other shapes), each checked for the µGraph it must find.
# They take 10 s to 2 min each, too long for the test run (test/), which
# tests the same mechanisms on small programs. The tools, substitutions and
# features are the test suite's.
import os

lit_config.load_config(
    config, os.path.join(os.path.dirname(__file__), "..", "..", "test", "lit.cfg.py"))
config.name = "TILEOPT-SEARCH"
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tileopt_obj_root, "bench", "search")
