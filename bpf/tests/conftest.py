"""Shared helpers for the offwake tests: the tool's path, its module, and how to run it."""
import importlib.util
import os
import subprocess
import sys

import pytest

BPF_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.path.join(BPF_DIR, "offwake.py")
EXAMPLE = os.path.join(BPF_DIR, "offwake_example.txt")
# Debian's interpreter has bcc; the tool's own shebang names it too.
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable


def load_tool():
    spec = importlib.util.spec_from_file_location("offwake", TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def offwake():
    return load_tool()


def run_tool(*args, python_flags=(), user_prefix=(), timeout=60, tool=TOOL, cwd=None):
    """Runs offwake.py with a fixed terminal width (argparse wraps help text to it)."""
    env = dict(os.environ, COLUMNS="80")
    return subprocess.run([*user_prefix, PYTHON, *python_flags, tool, *args],
                          capture_output=True, text=True, timeout=timeout, env=env, cwd=cwd)
