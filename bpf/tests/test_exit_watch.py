"""How the tracer notices its target's exit between two drains of the ring buffer."""
import os
import subprocess
import time

import pytest
from offwake_lib import exitwatch


@pytest.mark.parametrize("pidfd", [True, False], ids=["pidfd", "proc"])
def test_exit_watch_waits_until_the_process_exits(monkeypatch, pidfd):
    if not pidfd:
        # As where pidfd_open is missing (Linux before 5.3): /proc/PID/stat after each wait.
        monkeypatch.delattr(os, "pidfd_open", raising=False)
    child = subprocess.Popen(["sleep", "30"])
    watch = exitwatch.ExitWatch(child.pid)
    try:
        assert (watch.poll is not None) == pidfd
        started = time.monotonic()
        assert watch.wait(0.2) is True
        assert time.monotonic() - started >= 0.15
        child.kill()
        child.wait()
        started = time.monotonic()
        if pidfd:
            # Seen at once, not at the end of the wait.
            assert watch.wait(5) is False
            assert time.monotonic() - started < 2.5
        else:
            assert watch.wait(0.1) is False
    finally:
        watch.close()
        if child.poll() is None:
            child.kill()
            child.wait()


def test_exit_watch_counts_a_zombie_as_exited():
    # A target whose parent has not reaped it yet has exited all the same.
    child = subprocess.Popen(["true"])
    watch = exitwatch.ExitWatch(child.pid)
    try:
        deadline = time.monotonic() + 10
        while watch.wait(0.05) and time.monotonic() < deadline:
            pass
        with open("/proc/%d/stat" % child.pid) as f:
            assert f.read().rsplit(")", 1)[1].split()[0] == "Z"
        assert watch.wait(0.05) is False
    finally:
        watch.close()
        child.wait()
