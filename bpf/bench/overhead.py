#!/usr/bin/python3
#
# overhead  Throughput of a workload with and without offwake.py attached, interleaved.
#
# Runs the workload (default: the pipeline sample, netty sync-over-async, 8 callers) ROUNDS times
# without and ROUNDS times with the tracer, alternating which goes first in each round so drift on a
# shared machine falls on both sides, and prints each run's ops/s, the traced/untraced ratio of the
# means, and the tracer's lost-event counts. Target: ratio >= 0.95 with zero lost events.
#
# The tracer must see the whole measured run, so each workload starts as a shell that waits on its
# stdin: offwake attaches to that pid, and once it prints its start line the shell execs java (the
# pid, and so the tracer's filter, stay the same).
#
# With --concurrent, each round instead runs two copies at the same time, one of them traced, and
# compares the two: the machine's other load then slows both alike.
#
# USAGE: sudo /usr/bin/python3 bpf/bench/overhead.py [--jar JAR] [--rounds N] [--concurrent]
#            [--tracer-args "OFFWAKE OPTIONS"] [-- WORKLOAD ARGS...]

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

STATS = "/proc/sys/kernel/bpf_stats_enabled"

BPF_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.path.join(BPF_DIR, "offwake.py")
REPO = os.path.dirname(BPF_DIR)
TRACER_ARGS = []  # extra offwake options (--tracer-args)
DEFAULT_WORKLOAD = ["pipeline", "--mode", "sync-over-async", "--http-client", "netty",
                    "--parallel", "8", "--warmup", "2", "--duration", "10"]


def fail(message):
    print("overhead: %s" % message, file=sys.stderr)
    sys.exit(2)


def start_workload(jar, workload):
    """A shell that execs the workload once a line arrives on its stdin."""
    command = 'read -r _ && exec java -jar "$0" "$@"'
    return subprocess.Popen(["bash", "-c", command, jar, *workload], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def ops_per_s(output):
    m = re.search(r"^ops_per_s: ([0-9.]+)$", output, re.M)
    if not m:
        fail("no 'ops_per_s:' line in the workload's output:\n" + output[-2000:])
    return float(m.group(1))


def process_cpu_s(pid):
    """User plus system CPU seconds of a running process so far, from /proc/PID/stat."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_attached(tracer, workloads):
    """Returns once the tracer says it is attached; else ends it and the workloads, and fails."""
    first = tracer.stderr.readline()
    if "Ctrl-C to end." not in first:
        # The tracer may still run, waiting for a workload's exit, and the workloads' shells for
        # this process to reap them: end all before reading what the tracer said.
        for proc in workloads:
            proc.kill()
            proc.wait()
        tracer.kill()
        fail("offwake did not start: " + first + tracer.stderr.read())


def run(jar, workload, traced, tmpdir, index):
    proc = start_workload(jar, workload)
    tracer = None
    if traced:
        tracer = subprocess.Popen([sys.executable, TOOL, *TRACER_ARGS, "-p", str(proc.pid),
                                   "--events", os.path.join(tmpdir, "run%d.jsonl" % index),
                                   "--folded", os.path.join(tmpdir, "run%d.folded" % index)],
                                  stderr=subprocess.PIPE, text=True)
        wait_attached(tracer, [proc])
    started = time.monotonic()
    tracer_cpu_before = process_cpu_s(tracer.pid) if tracer else None
    proc.stdin.write("go\n")
    proc.stdin.close()
    output = proc.stdout.read()
    elapsed_s = time.monotonic() - started
    # The tracer's own CPU while the workload ran (its compile before and decode after excluded):
    # on a machine of two cores it competes with the workload for them.
    tracer_cpu_s = process_cpu_s(tracer.pid) - tracer_cpu_before if tracer else None
    # wait4 gives the JVM's own CPU time, which includes the BPF programs run in its threads'
    # context (their switches and wakeups), and not the tracer's compile and decode.
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    jvm_cpu_s = usage.ru_utime + usage.ru_stime
    if proc.returncode != 0:
        fail("workload failed (exit %d):\n%s" % (proc.returncode, output[-2000:]))
    figures = {"ops_per_s": ops_per_s(output)}
    m = re.search(r"^ops: ([0-9]+)$", output, re.M)
    ops = int(m.group(1)) if m else 0
    if tracer:
        err = tracer.communicate(timeout=600)[1]
        if tracer.returncode != 0:
            fail("offwake failed: " + err)
        m = re.search(r"(\d+) off-CPU intervals, .*lost (\d+) events \(ring buffer reservation failed\), "
                      r"(\d+) intervals \(thread map full\), (\d+) futex calls", err)
        if not m:
            fail("no summary line from offwake: " + err)
        figures["intervals"] = int(m.group(1))
        figures["lost"] = int(m.group(2)) + int(m.group(3)) + int(m.group(4))
        # The tracer saw the JVM's whole run, warm-up included: that is what its intervals cover.
        figures["traced_s"] = elapsed_s
        # The kernel's own accounting of the BPF programs' run time, over the JVM's whole life.
        m = re.search(r"BPF run time \(kernel.bpf_stats_enabled=1\): (.*)", err)
        bpf_ms = sum(float(x) for x in re.findall(r" ([0-9.]+) ms /", m.group(1))) if m else None
        figures["bpf_cpu_share"] = bpf_ms / 1000 / elapsed_s if bpf_ms is not None else None
        figures["tracer_cpu_share"] = tracer_cpu_s / elapsed_s
    # The JVM's CPU time per measured request: less exposed than throughput to other tenants of the
    # machine, which take CPUs away but do not add to this figure. The sample's own figure covers the
    # measured window only (its process CPU time, BPF programs run in its threads' context included);
    # without it, the JVM's whole life, start and warmup included.
    m = re.search(r"^cpu_us_per_op: ([0-9.]+)$", output, re.M)
    if m:
        figures["cpu_ms_per_op"] = float(m.group(1)) / 1000
    else:
        figures["cpu_ms_per_op"] = 1000 * jvm_cpu_s / ops if ops else None
    return figures


def run_pair(jar, workload, tmpdir, index):
    """Two copies of the workload at once, one traced: neighbours on the machine slow both alike."""
    plain = start_workload(jar, workload)
    traced = start_workload(jar, workload)
    tracer = subprocess.Popen([sys.executable, TOOL, *TRACER_ARGS, "-p", str(traced.pid),
                               "--events", os.path.join(tmpdir, "pair%d.jsonl" % index)],
                              stderr=subprocess.PIPE, text=True)
    wait_attached(tracer, [plain, traced])
    for proc in (plain, traced):
        proc.stdin.write("go\n")
        proc.stdin.close()
    outputs = [proc.stdout.read() for proc in (plain, traced)]
    for proc, output in zip((plain, traced), outputs):
        if proc.wait() != 0:
            fail("workload failed (exit %d):\n%s" % (proc.returncode, output[-2000:]))
    err = tracer.communicate(timeout=600)[1]
    m = re.search(r"(\d+) off-CPU intervals, .*lost (\d+) events \(ring buffer reservation failed\), "
                  r"(\d+) intervals \(thread map full\), (\d+) futex calls", err)
    if tracer.returncode != 0 or not m:
        fail("offwake failed: " + err)
    return (ops_per_s(outputs[0]), ops_per_s(outputs[1]), int(m.group(1)),
            int(m.group(2)) + int(m.group(3)) + int(m.group(4)))


def main_concurrent(jar, workload, rounds):
    ratios, lost = [], 0
    with tempfile.TemporaryDirectory(prefix="offwake-bench-") as tmpdir:
        for i in range(rounds):
            plain, traced, intervals, lost_now = run_pair(jar, workload, tmpdir, i)
            lost += lost_now
            ratios.append(traced / plain)
            print("round %d  untraced %8.1f ops/s  traced %8.1f ops/s  ratio %.3f  (%d intervals, "
                  "%d lost)" % (i + 1, plain, traced, traced / plain, intervals, lost_now))
            sys.stdout.flush()
    print("ratio traced/untraced, concurrent pairs: median %.3f, mean %.3f (target >= 0.95)"
          % (statistics.median(ratios), statistics.mean(ratios)))
    print("lost events: %d (target 0)" % lost)


def main():
    global TOOL
    parser = argparse.ArgumentParser(
        description="Throughput of a workload with and without offwake.py, interleaved.",
        epilog="example: sudo /usr/bin/python3 bpf/bench/overhead.py --rounds 3")
    parser.add_argument("--jar", default=os.path.join(REPO, "samples/target/hopscope-samples.jar"),
                        help="the samples jar (default: samples/target/hopscope-samples.jar)")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each kind (default 3)")
    parser.add_argument("--tracer-args", default="",
                        help="extra offwake options, one string (e.g. \"--min-us 100\")")
    parser.add_argument("--tool", default=TOOL,
                        help="the offwake.py to run (default: this tree's; e.g. an older one "
                             "from git, to compare)")
    parser.add_argument("--bpf-stats", action="store_true",
                        help="turn on the kernel's BPF run statistics and print the programs' "
                             "run time (not free: they made offwake cost 2,260 instead of 1,940 "
                             "ns per interval in bench/switchcost.py)")
    parser.add_argument("--concurrent", action="store_true",
                        help="run each round's two copies at the same time, one traced, and "
                             "compare them (robust to a shared machine's changing load)")
    parser.add_argument("workload", nargs="*", help="workload arguments (default: %s)"
                        % " ".join(DEFAULT_WORKLOAD))
    args = parser.parse_args()
    if os.geteuid() != 0:
        fail("must run as root (offwake loads BPF programs)")
    if not os.path.exists(args.jar):
        fail("no %s: build it with: mvn -B -ntp -q -pl samples package -DskipTests" % args.jar)
    if args.rounds < 1:
        fail("--rounds must be >= 1")
    workload = args.workload or DEFAULT_WORKLOAD
    TRACER_ARGS.extend(args.tracer_args.split())
    TOOL = os.path.abspath(args.tool)
    if not os.path.exists(TOOL):
        fail("no tool %s" % args.tool)
    print("workload: java -jar %s %s" % (args.jar, " ".join(workload)))
    print("tracer: %s %s-p PID --events FILE%s" % (
        os.path.relpath(os.path.abspath(args.tool)), args.tracer_args + " " if args.tracer_args else "",
        "" if args.concurrent else " --folded FILE"))
    if args.concurrent:
        main_concurrent(args.jar, workload, args.rounds)
        return 0
    # Kernel accounting of BPF run time, on only with --bpf-stats (it is not free: see its help).
    with open(STATS) as f:
        stats_before = f.read().strip()
    with open(STATS, "w") as f:
        f.write("1" if args.bpf_stats else "0")
    try:
        base, traced, lost, intervals, bpf_shares, tracer_shares, base_cpu, traced_cpu = run_rounds(
            args.jar, workload, args.rounds)
    finally:
        with open(STATS, "w") as f:
            f.write(stats_before)
    ratio = statistics.mean(traced) / statistics.mean(base)
    # Each round's two runs are next to each other in time: their ratio is less exposed to drift
    # in the machine's load than the ratio of the means.
    paired = statistics.median(t / b for t, b in zip(traced, base))
    print("untraced mean %.1f ops/s, traced mean %.1f ops/s" % (statistics.mean(base),
                                                                statistics.mean(traced)))
    print("ratio traced/untraced: %.3f of the means, %.3f median of the rounds' ratios "
          "(target >= 0.95)" % (ratio, paired))
    print("CPU per request: untraced mean %.3f ms, traced mean %.3f ms, ratio untraced/traced "
          "%.3f (the JVM's CPU time per measured request, BPF in its threads included)"
          % (statistics.mean(base_cpu), statistics.mean(traced_cpu),
             statistics.mean(base_cpu) / statistics.mean(traced_cpu)))
    print("lost events: %d (target 0), intervals recorded: %d" % (lost, intervals))
    if bpf_shares:
        print("BPF programs' run time: mean %.1f%% of one CPU while the traced JVM ran"
              % (100 * statistics.mean(bpf_shares)))
    print("offwake.py's own CPU (user space) while the workload ran: mean %.1f%% of one CPU"
          % (100 * statistics.mean(tracer_shares)))
    return 0


def run_rounds(jar, workload, rounds):
    base, traced, lost, intervals, bpf_shares, tracer_shares = [], [], 0, 0, [], []
    base_cpu, traced_cpu = [], []
    with tempfile.TemporaryDirectory(prefix="offwake-bench-") as tmpdir:
        for i in range(rounds):
            order = (False, True) if i % 2 == 0 else (True, False)
            for with_tracer in order:
                # The machine's other load when the run starts: ratios from a loaded machine are noise.
                load = os.getloadavg()[0]
                f = run(jar, workload, with_tracer, tmpdir, i)
                if with_tracer:
                    traced.append(f["ops_per_s"])
                    lost += f["lost"]
                    intervals += f["intervals"]
                    rate = f["intervals"] / f["traced_s"]
                    if f["bpf_cpu_share"] is not None:
                        bpf_shares.append(f["bpf_cpu_share"])
                    traced_cpu.append(f["cpu_ms_per_op"])
                    tracer_shares.append(f["tracer_cpu_share"])
                    print("round %d  traced    %8.1f ops/s  %6.3f CPU ms/op  (%d intervals, ~%.0f/s "
                          "over the whole run, %d lost, BPF programs %s of one CPU, "
                          "offwake.py %.1f%%; load %.1f)"
                          % (i + 1, f["ops_per_s"], f["cpu_ms_per_op"], f["intervals"], rate,
                             f["lost"],
                             "%.1f%%" % (100 * f["bpf_cpu_share"])
                             if f["bpf_cpu_share"] is not None else "n/a",
                             100 * f["tracer_cpu_share"], load))
                else:
                    base.append(f["ops_per_s"])
                    base_cpu.append(f["cpu_ms_per_op"])
                    print("round %d  untraced  %8.1f ops/s  %6.3f CPU ms/op  (load %.1f)"
                          % (i + 1, f["ops_per_s"], f["cpu_ms_per_op"], load))
                sys.stdout.flush()
    return base, traced, lost, intervals, bpf_shares, tracer_shares, base_cpu, traced_cpu


if __name__ == "__main__":
    sys.exit(main())
