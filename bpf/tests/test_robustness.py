"""offwake.py for real, as root, where things go wrong: the tracer killed outright, two tracers on one
process, and records lost at a high switch rate. (A target that exits mid-trace:
test_integration.py's test_target_exit_ends_tracing.)"""
import glob
import os
import re
import shutil
import signal
import subprocess
import time

import pytest

from conftest import PYTHON, TOOL
from test_integration import bpf_ready, hopwake, read_events, start_hopwake  # noqa: F401


def tracer_prog_ids(pid):
    """The ids of the BPF programs process pid holds a file descriptor of."""
    ids = set()
    for info in glob.glob("/proc/%d/fdinfo/*" % pid):
        try:
            with open(info) as f:
                for line in f:
                    if line.startswith("prog_id:"):
                        ids.add(int(line.split()[1]))
        except OSError:
            pass  # a descriptor closed while we looked
    return ids


def loaded_prog_ids():
    """The ids of every BPF program loaded: from bpftool where it is installed, else those any
    process holds a descriptor of (a tracepoint's program is held only through its perf event's fd,
    so a program no process holds is unloaded)."""
    if shutil.which("bpftool"):
        out = subprocess.run(["bpftool", "prog", "show"], capture_output=True, text=True,
                             timeout=60, check=True).stdout
        return {int(m.group(1)) for m in re.finditer(r"^(\d+): ", out, re.M)}
    ids = set()
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            ids |= tracer_prog_ids(int(pid))
    return ids


def start_tracer(pid, events, *extra):
    """offwake.py on pid, returned once its start line says it traces (lines before it returned too)."""
    tracer = subprocess.Popen([PYTHON, TOOL, "-p", str(pid), "--events", str(events), *extra],
                              stderr=subprocess.PIPE, text=True)
    before = []
    while True:
        line = tracer.stderr.readline()
        assert line, "tracer ended before tracing: %s" % "".join(before)
        if "Ctrl-C to end." in line:
            return tracer, before
        before.append(line)


def test_sigkill_leaves_no_program_attached(hopwake, tmp_path):
    events = tmp_path / "off.jsonl"
    tracer, _ = start_tracer(hopwake, events)
    try:
        ours = tracer_prog_ids(tracer.pid)
        # One program per tracepoint: the sched_switch, sched_waking, sched_wakeup,
        # sched_process_exit and two futex syscall programs.
        assert len(ours) >= 6, ours
        assert ours <= loaded_prog_ids()
        time.sleep(0.5)
        tracer.kill()
        tracer.wait(timeout=30)
    finally:
        if tracer.poll() is None:
            tracer.kill()
            tracer.wait()
    # The kernel frees the programs once the last descriptor of each goes, after an RCU grace
    # period: wait for it rather than for a fixed time.
    deadline = time.monotonic() + 30
    while ours & loaded_prog_ids() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not ours & loaded_prog_ids(), "still loaded after SIGKILL: %s" % sorted(ours & loaded_prog_ids())
    # The records' temporary file had no name: nothing is left beside the outputs.
    assert os.listdir(tmp_path) == ["off.jsonl"]
    # The output, created at the start, is empty: no summary line tells a cut file from a whole one.
    assert events.read_text() == ""

    # A new tracer starts at once and works.
    again = tmp_path / "again.jsonl"
    result = subprocess.run([PYTHON, TOOL, "-p", str(hopwake), "--events", str(again),
                             "--duration", "1.5"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    records, summary = read_events(again)
    assert any(r["comm"] == "hop-waiter" for r in records), result.stderr
    assert summary["lost_records"] == 0


def test_two_tracers_on_one_process_each_get_every_interval(hopwake, tmp_path):
    # Each tracer loads its own programs and maps (nothing is pinned or shared), so both trace in
    # full; the target pays for both.
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    a, _ = start_tracer(hopwake, first)
    b, _ = start_tracer(hopwake, second)
    try:
        time.sleep(2)
        for t in (a, b):
            t.send_signal(signal.SIGTERM)
        errs = [t.communicate(timeout=120)[1] for t in (a, b)]
    finally:
        for t in (a, b):
            if t.poll() is None:
                t.kill()
                t.wait()
    assert a.returncode == 0, errs[0]
    assert b.returncode == 0, errs[1]
    woken = []
    for path, err in zip((first, second), errs):
        assert "lost 0 events" in err, err
        records, summary = read_events(path)
        assert summary["lost_records"] == summary["lost_intervals"] == 0
        # hop-waiter's 20 ms waits, told by length alone: a waker is left out by a rare race
        # between CPUs, which need not go the same way for both tracers' programs.
        woken.append(sorted((r["off_ns"], r["on_ns"]) for r in records
                            if r["comm"] == "hop-waiter" and r["offcpu_ns"] >= 10_000_000))
    assert woken[0] and woken[1], errs
    # While both traced, each saw the same waits. Each program reads the clock itself, so the two
    # records of one wait differ by a little; the waits are 20 ms apart. The window where both were
    # attached is cut by 50 ms at each end, clear of the attaching and detaching.
    start = max(w[0][0] for w in woken) + 50_000_000
    end = min(w[-1][1] for w in woken) - 50_000_000
    common = [[w for w in ws if start <= w[0] and w[1] <= end] for ws in woken]
    assert len(common[0]) >= 10, (len(woken[0]), len(woken[1]), errs)
    assert len(common[0]) == len(common[1]), (len(common[0]), len(common[1]))
    for x, y in zip(*common):
        assert abs(x[0] - y[0]) < 1_000_000 and abs(x[1] - y[1]) < 1_000_000, (x, y)


def test_lost_records_are_counted_and_marked_in_the_file(bpf_ready, tmp_path):
    # A ping-pong: HopWake with no delay hands a future back and forth as fast as its threads can
    # switch. A ring buffer of one page cannot hold a batch (19.5 KB), so every full batch is lost
    # however fast the tracer drains: only what is left in each CPU's batch at the end arrives.
    proc, pid = start_hopwake(0, delay_ms=0)
    events = tmp_path / "off.jsonl"
    try:
        result = subprocess.run([PYTHON, TOOL, "-p", str(pid), "--events", str(events),
                                 "--duration", "2", "--buffer-pages", "1", "--stacks", "none"],
                                capture_output=True, text=True, timeout=120)
    finally:
        proc.kill()
        proc.wait()
    assert result.returncode == 0, result.stderr
    assert "warning: --buffer-pages 1 holds no batch" in result.stderr, result.stderr
    m = re.search(r"lost (\d+) events \(ring buffer reservation failed\)", result.stderr)
    assert m, result.stderr
    lost = int(m.group(1))
    assert lost >= 128, result.stderr  # a whole batch at least
    assert "warning: events were lost; the outputs are incomplete" in result.stderr
    records, summary = read_events(events)
    assert summary["lost_records"] == lost
    # At most one batch per CPU reaches the file.
    assert len(records) <= 128 * os.cpu_count()
