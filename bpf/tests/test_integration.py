"""offwake.py for real, as root, against a JVM whose thread hop-waiter parks in CompletableFuture.get()
until hop-waker completes the future 20 ms later (HopWake.java)."""
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import time

import pytest

from conftest import PYTHON, TOOL, ci_skip
from offwake_lib.program import STACK_EVERY
from offwake_lib.symbols import PerfMap

HERE = os.path.dirname(os.path.abspath(__file__))
DELAY_MS = 20


def bpf_unavailable_reason():
    if os.geteuid() != 0:
        return "not root: loading BPF programs needs root"
    if shutil.which("java") is None:
        return None  # not a BPF problem: the test fails below and says so
    probe = subprocess.run(
        [PYTHON, "-c", "from bcc import BPF\n"
                       "BPF(text='TRACEPOINT_PROBE(sched, sched_switch) { return 0; }',"
                       " cflags=['-w']).cleanup()"],
        capture_output=True, text=True, timeout=120)
    if probe.returncode != 0:
        lines = probe.stderr.strip().splitlines()
        return "BPF unavailable (run bpf/setup.sh): %s" % (lines[-1] if lines else "bcc failed")
    return None


@pytest.fixture(scope="module")
def bpf_ready():
    reason = bpf_unavailable_reason()
    if reason:
        ci_skip(reason)


def start_hopwake(seconds, delay_ms=DELAY_MS):
    """HopWake for SECONDS, or with 0 until its stdin (a pipe held by the caller) closes."""
    assert shutil.which("java"), "java not found on PATH (JDK 17+ needed)"
    proc = subprocess.Popen(["java", os.path.join(HERE, "HopWake.java"), str(delay_ms), str(seconds)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    assert line.startswith("ready "), "HopWake did not start: %r" % line
    return proc, int(line.split()[1])


@pytest.fixture(scope="module")
def hopwake(bpf_ready):
    proc, pid = start_hopwake(0)  # runs until the module's tests are done, however slow
    time.sleep(0.5)  # let both threads reach their steady loop
    yield pid
    proc.kill()
    proc.wait()


def read_events(path):
    """The intervals of an --events file and its summary, checking that every line is one JSON object,
    that the summary is the last line, and the only one, and that loss records (read_losses) come
    between the intervals and it."""
    lines = path.read_text().splitlines()
    assert lines, "%s is empty: no summary line" % path
    rows = [json.loads(line) for line in lines]
    assert all(isinstance(r, dict) for r in rows)
    assert list(rows[-1]) == ["summary"], rows[-1]
    rows, summary = rows[:-1], rows[-1]["summary"]
    losses = [i for i, r in enumerate(rows) if list(r) == ["lost"]]
    assert losses == list(range(len(rows) - len(losses), len(rows))), "loss records not last"
    records = rows[:len(rows) - len(losses)]
    assert not any("summary" in r or "lost" in r for r in records)
    assert summary["intervals"] == len(records)
    return records, summary


def read_losses(path):
    """The loss records of an --events file: [{"records", "from_ns", "to_ns"}]."""
    return [r["lost"] for r in map(json.loads, path.read_text().splitlines()) if list(r) == ["lost"]]


def run_offwake(pid, tmp_path, *extra):
    events = tmp_path / "off.jsonl"
    folded = tmp_path / "off.folded"
    before_ns = time.monotonic_ns()
    # A roomy stack map: a bucket collision would leave a stack this test looks at missing.
    result = subprocess.run([PYTHON, TOOL, "-p", str(pid), "--events", str(events),
                             "--folded", str(folded), "--stack-storage", "65536", *extra],
                            capture_output=True, text=True, timeout=120)
    after_ns = time.monotonic_ns()
    assert result.returncode == 0, result.stderr
    records, _ = read_events(events)
    return result, records, folded.read_text().splitlines(), before_ns, after_ns


def test_waiter_woken_by_waker(hopwake, tmp_path):
    # --stack-every 1: a stack for every interval (the default samples them, see
    # test_default_samples_stacks_and_weighs_them).
    result, records, folded, before_ns, after_ns = run_offwake(hopwake, tmp_path, "--duration", "3",
                                                               "--stack-every", "1")
    assert "Tracing" in result.stderr and "Ctrl-C to end." in result.stderr
    assert re.search(r"lost 0 events \(ring buffer reservation failed\)", result.stderr), result.stderr

    # Timestamps are CLOCK_MONOTONIC (Python's time.monotonic_ns reads the same clock).
    assert records
    for r in records:
        assert before_ns < r["off_ns"] < r["on_ns"] < after_ns
        assert r["offcpu_ns"] == r["on_ns"] - r["off_ns"]
        assert r["pid"] == hopwake
        if r["state"] in ("R", "R+"):
            assert r["runq_ns"] == r["offcpu_ns"] and r["waker"] is None
        if r["runq_ns"] is not None:
            assert 0 <= r["runq_ns"] <= r["offcpu_ns"]

    woken = [r for r in records
             if r["comm"] == "hop-waiter" and r["waker"] and r["waker"]["comm"] == "hop-waker"]
    # ~3 s / ~20 ms round trips; a loaded machine slows them, so ask for a third.
    assert len(woken) >= 45, "only %d hop-waiter intervals woken by hop-waker" % len(woken)
    median_ms = statistics.median(r["offcpu_ns"] for r in woken) / 1e6
    assert DELAY_MS - 1 <= median_ms <= DELAY_MS + 15, median_ms
    for r in woken:
        assert r["waker"]["pid"] == hopwake
        assert r["waker"]["context"] == "task"
        assert r["wakeup_ns"] is not None and r["waking_ns"] <= r["wakeup_ns"] <= r["on_ns"]
    futex_woken = [r for r in woken if r["futex"] and r["waker_futex"]]
    assert len(futex_woken) >= 0.9 * len(woken)
    for r in futex_woken:
        assert "WAIT" in r["futex"]["cmd"] and "WAKE" in r["waker_futex"]["cmd"]
        # The waker's FUTEX_WAKE names the futex the waiter slept on.
        assert r["futex"]["uaddr"] == r["waker_futex"]["uaddr"]
        assert r["futex"]["enter_ns"] <= r["off_ns"]
        if r["futex"]["exit_ns"] is not None:
            assert r["futex"]["duration_ns"] >= r["offcpu_ns"]
    assert sum(1 for r in futex_woken if r["futex"]["duration_ns"] is not None) >= 0.9 * len(futex_woken)
    assert all(r["stack"]["kernel"] for r in woken), "wakee kernel stacks missing"
    assert any("futex" in f for r in woken for f in r["stack"]["kernel"])
    assert any("try_to_wake_up" in f for r in woken for f in (r["waker_stack"]["kernel"] or []))
    # The futex wait and wake kernel stacks were reused, and a fresh walk never differed from them.
    m = re.search(r"kernel stacks reused (\d+) times; (\d+) walked again to check, (\d+) differed",
                  result.stderr)
    assert m and int(m.group(1)) >= len(futex_woken) and m.group(3) == "0", result.stderr
    # User stacks of one frame (glibc's futex wrapper leaves no frame pointer to follow) are reused
    # by instruction pointer: where that happened, the checks found no difference either.
    m = re.search(r"user stacks of one frame reused (\d+) times; (\d+) walked again to check, (\d+) "
                  r"differed", result.stderr)
    assert m is None or m.group(3) == "0", result.stderr
    assert "warning" not in result.stderr, result.stderr
    assert "--stack-every" not in result.stderr, result.stderr
    assert all(r["stack_weight"] == 1 for r in records)
    waits = {tuple(r["stack"]["kernel"]) for r in futex_woken if r["state"] == "S"}
    assert len(waits) == 1 and "futex_wait" in waits.pop(), "one futex wait path expected"
    # Preempted intervals carry no stacks unless --preempted-stacks asks for them.
    for r in records:
        if r["state"] in ("R", "R+"):
            assert r["stack"] == {"kernel": [], "user": []}, r
    # Wakes of a thread not in a futex wait (a JVM's background threads have some, not always in 3 s)
    # carry no waker user stack unless --all-waker-stacks asks for it.
    others = [r for r in records if r["waker"] and not (r["futex"] and "WAIT" in r["futex"]["cmd"])]
    for r in others:
        assert r["waker_stack"]["user"] == [], r
        assert r["waker"]["context"] in ("task", "irq", "hardirq", "softirq", "nmi", None), r

    # The perf map the tool had the JVM write is there (its Java frames: test_java_frames_*).
    assert PerfMap.load("/tmp/perf-%d.map" % hopwake).entries

    # Folded output: "frames count" lines, wakee and waker split by "--", totals in microseconds.
    assert folded
    total_us = 0
    for line in folded:
        m = re.fullmatch(r"(.+) (\d+)", line)
        assert m, line
        assert ";--;" in m.group(1) or m.group(1).endswith(";--"), line
        total_us += int(m.group(2))
    pair = [line for line in folded if line.startswith("hop-waiter;") and re.search(r";hop-waker \d+$", line)]
    assert pair
    pair_us = sum(int(line.rsplit(" ", 1)[1]) for line in pair)
    assert abs(pair_us - sum(r["offcpu_ns"] for r in woken) / 1000) <= len(pair)
    assert abs(total_us - sum(r["offcpu_ns"] for r in records) / 1000) <= len(folded)


def test_java_frames_are_symbolised_from_the_perf_map(bpf_ready, tmp_path):
    # A parked thread's user stack ends in glibc's futex wrappers (frame-pointer walks stop there),
    # so a Java frame shows only where a thread left the CPU in JIT code: spinning threads, more of
    # them than CPUs, are preempted there, and --preempted-stacks records those stacks. At the lowest
    # priority: they still preempt each other, and offwake's compile of its program is not starved.
    proc = subprocess.Popen(["nice", "-n", "19", "java", os.path.join(HERE, "Spin.java"), str(os.cpu_count() + 1)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("ready "), "Spin did not start: %r" % line
        pid = int(line.split()[1])
        result, records, _, _, _ = run_offwake(pid, tmp_path, "--duration", "1.5", "--preempted-stacks",
                                               "--stack-every", "1")
    finally:
        proc.kill()
        proc.wait()
    perf_map = PerfMap.load("/tmp/perf-%d.map" % pid)
    names = {e[2] for e in perf_map.entries}
    preempted = [r for r in records if r["comm"].startswith("spin-") and r["state"] in ("R", "R+")]
    assert preempted, "no spinner was preempted: %s" % result.stderr
    first_frames = {r["stack"]["user"][0] for r in preempted if r["stack"]["user"]}
    assert first_frames & names, "no preempted spinner's frame named from /tmp/perf-%d.map: %s" % (
        pid, sorted(first_frames)[:10])
    assert any("Spin" in f for f in first_frames & names), sorted(first_frames & names)[:10]


def test_min_us_and_kernel_stacks_only(hopwake, tmp_path):
    perf_map = "/tmp/perf-%d.map" % hopwake
    map_before = os.stat(perf_map).st_mtime_ns if os.path.exists(perf_map) else None
    result, records, folded, _, _ = run_offwake(hopwake, tmp_path, "--duration", "1.5",
                                                "--min-us", "10000", "--stacks", "kernel",
                                                "--no-stack-reuse", "--preempted-stacks",
                                                "--all-waker-stacks", "--thread-maps", "hash",
                                                "--stack-every", "1")
    assert records
    assert all(r["offcpu_ns"] >= 10_000_000 for r in records)
    assert all(r["stack"]["user"] == [] for r in records)
    assert all(r["stack"]["kernel"] for r in records if r["comm"] == "hop-waiter")
    # Every waker's kernel stack is recorded (or missed, null): hop-waker's sleep timer is named as
    # the interrupt it is.
    woken = [r for r in records if r["waker"]]
    assert woken and all(r["waker_stack"]["kernel"] != [] for r in woken)
    assert any(r["comm"] == "hop-waker" and r["waker"]["context"] == "hardirq" for r in woken)
    assert "reused" not in result.stderr, result.stderr
    assert folded
    # No user stacks, no Java frames to name: the JVM was not asked for its perf map.
    map_after = os.stat(perf_map).st_mtime_ns if os.path.exists(perf_map) else None
    assert map_after == map_before, "jcmd Compiler.perfmap ran for --stacks kernel"


def test_default_samples_stacks_and_weighs_them(bpf_ready, tmp_path):
    # A round trip a millisecond: over a thousand intervals of each thread in 2 s, so the share that
    # has stacks is 1/STACK_EVERY to within a few percent of itself, far inside the bounds below.
    proc, pid = start_hopwake(0, delay_ms=1)
    try:
        result, records, folded, _, _ = run_offwake(pid, tmp_path, "--duration", "2")
    finally:
        proc.kill()
        proc.wait()
    n = STACK_EVERY
    assert n > 1
    summary = json.loads((tmp_path / "off.jsonl").read_text().splitlines()[-1])["summary"]
    assert summary["stack_every"] == n
    sampled = [r for r in records if r["stack_weight"] == n]
    assert summary["sampled_intervals"] == len(sampled)
    assert re.search(r"stacks of 1 interval in %d \(--stack-every\): %d of %d sampled"
                     % (n, len(sampled), len(records)), result.stderr), result.stderr
    # Preempted intervals have no stacks to sample and stand for themselves; the others are drawn.
    for r in records:
        assert r["stack_weight"] in ((1,) if r["state"] in ("R", "R+") else (0, n)), r
    for comm in ("hop-waiter", "hop-waker"):
        mine = [r for r in records if r["comm"] == comm and r["state"] not in ("R", "R+")]
        assert len(mine) >= 400, "only %d intervals of %s" % (len(mine), comm)
        share = sum(1 for r in mine if r["stack_weight"] == n) / len(mine)
        assert 0.4 / n <= share <= 1.6 / n, "%s: %.3f of its intervals sampled, not about 1/%d" % (
            comm, share, n)
    # Every interval keeps its times, waker and futex call; only sampled ones have stacks.
    woken = [r for r in records
             if r["comm"] == "hop-waiter" and r["waker"] and r["waker"]["comm"] == "hop-waker"]
    assert len(woken) >= 400
    for r in woken:
        assert r["waker"]["context"] == "task" and r["waking_ns"] and r["runq_ns"] is not None
        if r["stack_weight"] == n:
            assert r["stack"]["kernel"], r
            # The waker's stacks come with wakes of a futex wait (not one whose call began before
            # tracing: offwake did not see it start).
            if r["futex"] and "WAIT" in r["futex"]["cmd"]:
                assert r["waker_stack"]["kernel"] or r["waker_stack"]["kernel"] is None, r
        else:
            assert r["stack"] == {"kernel": [], "user": []}, r
            assert r["waker_stack"] == {"kernel": [], "user": []}, r
    assert sum(1 for r in woken if r["futex"] and r["waker_futex"]) >= 0.9 * len(woken)
    # --folded weighs each sampled interval n times and leaves the others out.
    total_us = sum(int(line.rsplit(" ", 1)[1]) for line in folded)
    expected_us = sum(r["offcpu_ns"] * r["stack_weight"] for r in records) / 1000
    assert abs(total_us - expected_us) <= len(folded)
    pair_us = sum(int(line.rsplit(" ", 1)[1]) for line in folded
                  if line.startswith("hop-waiter;") and re.search(r";hop-waker \d+$", line))
    assert abs(pair_us - sum(r["offcpu_ns"] * r["stack_weight"] for r in woken) / 1000) <= len(folded)
    assert "lost 0 events" in result.stderr, result.stderr


def test_sigterm_ends_cleanly(hopwake, tmp_path):
    events = tmp_path / "off.jsonl"
    proc = subprocess.Popen([PYTHON, TOOL, "-p", str(hopwake), "--events", str(events)],
                            stderr=subprocess.PIPE, text=True)
    # Wait for the start line, then a little tracing.
    assert "Ctrl-C to end." in proc.stderr.readline()
    # It drains at nice -10 from its start line on (the field after the parenthesised name: 17th).
    with open("/proc/%d/stat" % proc.pid) as f:
        assert int(f.read().rsplit(")", 1)[1].split()[16]) == -10
    time.sleep(1)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "lost 0 events" in err
    records, summary = read_events(events)
    assert any(r["comm"] == "hop-waiter" for r in records)
    assert summary["target_exited"] is False and summary["lost_records"] == 0


def test_target_exit_ends_tracing(bpf_ready, tmp_path):
    proc, pid = start_hopwake(0)
    events = tmp_path / "off.jsonl"
    tracer = subprocess.Popen([PYTHON, TOOL, "-p", str(pid), "--events", str(events)],
                              stderr=subprocess.PIPE, text=True)
    try:
        assert "Ctrl-C to end." in tracer.stderr.readline()
        time.sleep(1)
        closed_ns = time.monotonic_ns()
        proc.stdin.close()  # HopWake finishes its round trip and exits
        assert proc.wait(timeout=30) == 0
        _, err = tracer.communicate(timeout=60)
        assert tracer.returncode == 0, err
        # One line says so, and the file is whole: every line an object, the summary last.
        assert [line for line in err.splitlines() if "exited" in line] == \
            ["offwake: process %d exited" % pid], err
        records, summary = read_events(events)
        assert summary["target_exited"] is True
        assert summary["lost_records"] == summary["lost_intervals"] == 0
        assert any(r["comm"] == "hop-waiter" for r in records)
        # Intervals up to the exit are there: hop-waiter's last wait ends as its HopWake finishes.
        assert max(r["on_ns"] for r in records) > closed_ns
    finally:
        for p in (proc, tracer):
            if p.poll() is None:
                p.kill()
                p.wait()


def test_exited_threads_do_not_fill_the_thread_map(bpf_ready, tmp_path):
    # Over a thousand threads start, sleep once and exit while the hash maps have 64 thread slots
    # (the JVM's own threads take about 20): an exited thread's state must go with it, also while
    # the programs are being detached, or the slots fill and intervals are lost.
    proc = subprocess.Popen(["java", os.path.join(HERE, "Churn.java")],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("ready "), "Churn did not start: %r" % line
        pid = int(line.split()[1])
        result, records, _, _, _ = run_offwake(pid, tmp_path, "--duration", "2",
                                               "--thread-maps", "hash", "--max-threads", "64")
    finally:
        proc.kill()
        proc.wait()
    churned = {r["tid"] for r in records if r["comm"].startswith("churn-")}
    assert len(churned) >= 200, "only %d churn threads recorded: %s" % (len(churned), result.stderr)
    assert "lost 0 events (ring buffer reservation failed), 0 intervals (thread map full), " \
           "0 futex calls (thread map full)" in result.stderr, result.stderr
