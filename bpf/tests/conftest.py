"""Shared helpers for the offwake tests: the tool's path, its package on sys.path, and how to run it."""
import os
import subprocess
import sys

import pytest


BPF_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# offwake.py's package, offwake_lib, sits beside it.
sys.path.insert(0, BPF_DIR)
TOOL = os.path.join(BPF_DIR, "offwake.py")
EXAMPLE = os.path.join(BPF_DIR, "offwake_example.txt")
# Debian's interpreter has bcc; the tool's own shebang names it too.
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable


def ci_skip(reason):
    """A case that cannot run on the machine at hand: skipped, saying why (pytest -rs lists it), and
    failed under CI=true (which .ci/run sets, as root, after bpf/setup.sh), where a skip would hide a
    broken machine, never a test. The Java tests' CiSkip is the same; docs/tests.md lists every skip."""
    if os.environ.get("CI") == "true":
        pytest.fail("CI=true, and this test cannot run: %s (under CI it must run, not skip: docs/tests.md,"
                    " \"Skips\")" % reason, pytrace=False)
    try:
        # The test's own location in `pytest -rs`'s list, not this line's (pytest 7+; older: this line).
        raise pytest.skip.Exception(reason, _use_item_location=True)
    except TypeError:
        pytest.skip(reason)


def run_tool(*args, python_flags=(), user_prefix=(), timeout=60, tool=TOOL, cwd=None):
    """Runs offwake.py with a fixed terminal width (argparse wraps help text to it)."""
    env = dict(os.environ, COLUMNS="80")
    return subprocess.run([*user_prefix, PYTHON, *python_flags, tool, *args],
                          capture_output=True, text=True, timeout=timeout, env=env, cwd=cwd)
