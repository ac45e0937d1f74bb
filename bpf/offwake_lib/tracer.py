"""Loads the BPF program, copies its records to a file while tracing, and writes the outputs after."""
import ctypes as ct
import json
import mmap
import os
import signal
import sys
import tempfile
import time

from . import PROG, ToolError, layout, program
from .exitwatch import ExitWatch
from .folded import FoldedTotals
from .kernel import BTF_VMLINUX, THREAD_ARRAY_MAX, task_stack_offset, thread_array_slots
from .layout import BATCH, LOST_TIDS, Batch, Event
from .order import in_arrival_order
from .records import complete_futex, decode_comm, interval_record
from .symbols import PerfMap, is_jvm, request_perf_map

POLL_S = 0.1  # how often user space drains the ring buffer at least
# The tracer's nice value while it drains the ring buffer. The drain needs little CPU (about 5% of a
# CPU at 600,000 records/s) but needs it soon: at nice 0 on a machine with 25 runnable tasks to a
# CPU it got its share too late, and the futex ping-pong lost a third of its records whatever the
# wakeups. Decoding at the end, which needs much CPU and no haste, runs at the nice it started with.
DRAIN_NICE = -10


class Tracer:
    """Loads the BPF program, collects its records and writes the outputs."""

    def __init__(self, args):
        self.args = args
        self.spill = None        # the ring buffer's records, as copied, back to back
        self.spill_dir = None
        self.spill_error = None  # a failed write to the spill file, raised by check_spill()
        self.losses = []         # the --events loss records, one per lost run of a CPU's batches
        self.stop = False

    def on_event(self, ctx, data, size):
        # Only a copy here, into a file: decoding waits for the end so that the tracer's own CPU
        # use while the target runs stays small (this machine class has two cores to share with
        # the target), and its memory does not grow with the trace.
        try:
            self.spill.write(ct.string_at(data, size))
        except OSError as e:
            # An exception cannot leave bcc's C callback (ctypes prints and drops it, and the
            # record with it): keep it for check_spill(), and a negative return stops the drain.
            self.spill_error = e
            return -1
        return 0

    def check_spill(self):
        if self.spill_error is not None:
            e = self.spill_error
            raise ToolError("cannot copy the ring buffer's records to a file in %s: %s"
                            % (self.spill_dir, (e.strerror or str(e)).lower()))

    def events(self):
        """The spilled records decoded, as dicts (see Event), in arrival order; the losses the
        batches carry go to self.losses as they are read."""
        try:
            self.spill.flush()
        except OSError as e:
            self.spill_error = e
        self.check_spill()
        size = self.spill.seek(0, os.SEEK_END)
        if size == 0:
            return
        names = [name for name, _ in Event._fields_]
        batch_size = ct.sizeof(Batch)
        record_size = ct.sizeof(Event)
        first = Batch.ev.offset
        with mmap.mmap(self.spill.fileno(), size, access=mmap.ACCESS_READ) as m:
            for offset in range(0, size - batch_size + 1, batch_size):
                count = min(ct.c_uint32.from_buffer_copy(m, offset).value, BATCH)
                lost = ct.c_uint32.from_buffer_copy(m, offset + Batch.lost.offset).value
                if lost:
                    window = (ct.c_uint64 * 2).from_buffer_copy(m, offset + Batch.lost_from_ns.offset)
                    threads = ct.c_uint32.from_buffer_copy(m, offset + Batch.lost_threads.offset).value
                    tids = None
                    if threads <= LOST_TIDS:
                        tids = list((ct.c_uint32 * threads).from_buffer_copy(
                            m, offset + Batch.lost_tids.offset))
                    self.losses.append(loss_record(lost, window[0], window[1], tids))
                for i in range(count):
                    ev = Event.from_buffer_copy(m, offset + first + i * record_size)
                    yield {name: getattr(ev, name) for name in names}

    def set_recording(self, on):
        self.bpf["control"][ct.c_int(0)] = ct.c_uint32(1 if on else 0)

    def finish_batches(self):
        """Stops the programs recording, drains the ring buffer, detaches the programs and spills
        what each CPU's batch holds."""
        # Detaching takes tens of ms a program under load: records then would find the ring full.
        self.set_recording(False)
        self.drain()
        # Each detach waits for the kernel to finish with the program (tens of ms): programs that
        # make a thread's map entries go first, sched_process_exit, which removes them, last, or
        # threads exiting meanwhile would leave entries behind and fill a hash map.
        order = (b"syscalls:sys_enter_futex", b"sched:sched_switch", b"sched:sched_waking",
                 b"sched:sched_wakeup", b"syscalls:sys_exit_futex", b"sched:sched_process_exit")
        attached = list(self.bpf.tracepoint_fds)
        for tp in sorted(attached, key=lambda t: order.index(t) if t in order else len(order)):
            self.bpf.detach_tracepoint(tp)
        # A program that started before its detach may still be finishing on another CPU.
        time.sleep(0.05)
        self.drain()
        batches = self.bpf["batches"]
        for batch in batches.getvalue(batches.Key(0)):
            # A batch with no records may still carry its CPU's losses since its last one got through.
            if batch.count or batch.lost:
                self.on_event(None, ct.addressof(batch), ct.sizeof(batch))
        self.check_spill()

    def run(self):
        from bcc import BPF
        args = self.args
        text, self.task_stack_offset = program_for_this_kernel(args)
        # Java frames are named from the JVM's perf map; only user stacks hold them, so without user
        # stacks the JVM is not asked to write one (each jcmd is a JVM start of its own).
        java_frames = program.user_stacks(args) and is_jvm(args.pid)
        if java_frames:
            request_perf_map(args.pid, "start")
        try:
            # -w: the distribution headers may be newer or older than the
            # running kernel; their warnings say nothing about this program.
            self.bpf = BPF(text=text, cflags=["-w"])
        except Exception as e:  # bcc raises plain Exception on compile/load errors
            raise ToolError("BPF unavailable: could not compile or load the program: %s" % e)
        # Next to the outputs: the records of a long trace take 160 bytes each.
        output = args.events or args.folded
        self.spill_dir = os.path.dirname(os.path.abspath(output))
        self.spill = tempfile.TemporaryFile(prefix="offwake-", suffix=".records", dir=self.spill_dir)
        self.bpf["events"].open_ring_buffer(self.on_event)

        if args.buffer_pages * mmap.PAGESIZE < ct.sizeof(Batch):
            # Allowed, as the way a test makes every full batch count as lost.
            print("%s: warning: --buffer-pages %d holds no batch (%d bytes): every full batch "
                  "will be lost" % (PROG, args.buffer_pages, ct.sizeof(Batch)), file=sys.stderr)
        signal.signal(signal.SIGTERM, self._on_signal)
        signal.signal(signal.SIGINT, self._on_signal)
        # The programs record from here (see recording() in offwake.bpf.c): the drain starts at once.
        self.set_recording(True)
        # Before the start line: from it on, the drain runs at DRAIN_NICE.
        nice = os.getpriority(os.PRIO_PROCESS, 0)
        try:
            os.setpriority(os.PRIO_PROCESS, 0, min(nice, DRAIN_NICE))
        except OSError:
            pass  # not allowed (no CAP_SYS_NICE): drains at the nice it has
        print("Tracing off-CPU time and wakeups of PID %d%s... Ctrl-C to end."
              % (args.pid, " for %g s" % args.duration if args.duration else ""),
              file=sys.stderr)
        started = time.monotonic()
        target_gone = False
        watch = ExitWatch(args.pid)
        try:
            while not self.stop:
                # Records come in batches, and a CPU wakes this poll only at one batch in
                # WAKE_EVERY (see batch_commit()): a wakeup per record would cost the target a
                # context switch of ours per event. What a poll that timed out left is drained too.
                self.bpf.ring_buffer_poll(int(POLL_S * 1000))
                self.drain()
                alive = watch.wait(0)
                if args.duration and time.monotonic() - started >= args.duration:
                    break
                if not alive:
                    target_gone = True
                    break
        finally:
            watch.close()
        self.finish_batches()
        try:
            os.setpriority(os.PRIO_PROCESS, 0, nice)
        except OSError:
            pass
        if target_gone:
            print("%s: process %d exited" % (PROG, args.pid), file=sys.stderr)
        else:
            # Checked again: the target may have exec'd a JVM after the start.
            java_frames = program.user_stacks(args) and is_jvm(args.pid)
            if java_frames:
                request_perf_map(args.pid, "end")
        self.write_outputs(java_frames, target_gone)

    def drain(self):
        self.bpf.ring_buffer_consume()
        self.check_spill()

    def bpf_run_stats(self):
        """[(program, run_time_ns, run_count)] when the kernel keeps BPF run statistics, else []."""
        try:
            with open("/proc/sys/kernel/bpf_stats_enabled") as f:
                if f.read().strip() != "1":
                    return []
        except OSError:
            return []
        stats = []
        for name, fn in sorted(self.bpf.funcs.items()):
            figures = read_fdinfo(fn.fd)
            if figures:
                label = name.decode() if isinstance(name, bytes) else name
                stats.append((label.replace("tracepoint__", ""), figures[0], figures[1]))
        return stats

    def _on_signal(self, signum, frame):
        self.stop = True

    def stacks_resolver(self, java_frames):
        b = self.bpf
        table = b["stack_traces"]
        perf_map = None
        map_path = "/tmp/perf-%d.map" % self.args.pid
        if java_frames and os.path.exists(map_path):
            perf_map = PerfMap.load(map_path)
        cache = {}

        def symbol(addr, tgid, user):
            if not user:
                return b.ksym(addr).decode("utf-8", "replace")
            if perf_map is not None and tgid == self.args.pid:
                name = perf_map.lookup(addr)
                if name is not None:
                    return name
            return b.sym(addr, tgid).decode("utf-8", "replace")

        def stacks(stack_id, tgid, user):
            if stack_id == program.NO_STACK:
                # No stack to read (a kernel thread's user stack): empty, not missing.
                return []
            if stack_id < 0:
                self.missing_stacks += 1
                return None
            key = (stack_id, tgid if user else 0, user)
            if key not in cache:
                try:
                    cache[key] = [symbol(a, tgid, user) for a in table.walk(stack_id)]
                except KeyError:
                    cache[key] = None
            return cache[key]
        return stacks

    def write_outputs(self, java_frames, target_exited=False):
        self.missing_stacks = 0
        stacks = self.stacks_resolver(java_frames)
        intervals = 0
        futex_waits = 0
        sampled = 0  # intervals whose stacks were walked for the sample (weight --stack-every)
        stack_every = program.stack_every(self.args)
        totals = FoldedTotals() if self.args.folded else None
        out = open(self.args.events, "w") if self.args.events else None
        try:
            # One interval at a time from the spill file: what this holds is the stack symbols and
            # the folded totals, not the trace.
            for r in interval_records(self.events(), stacks):
                if r["futex"]:
                    futex_waits += 1
                intervals += 1
                if r["stack_weight"] == stack_every:
                    sampled += 1
                if out:
                    out.write(json_line(r))
                if totals is not None:
                    totals.add(r)
            n = layout.counter_totals(self.bpf["counters"])
            lost, lost_threads, lost_futex = (n["CNT_LOST_RECORDS"], n["CNT_LOST_INTERVALS"],
                                              n["CNT_LOST_FUTEX_CALLS"])
            if out:
                # After the intervals, before the summary: when records were lost, so that a
                # reader can tell the requests that may miss some from those that cannot.
                for r in self.losses:
                    out.write(json_line(r))
                # The last line, told from an interval by its one key: what a reader of the file
                # alone (hopscope report --bpf) needs to know that intervals are missing from it.
                out.write(json_line(summary_record(
                    intervals=intervals, futex_waits=futex_waits,
                    missed_stacks=self.missing_stacks, lost_records=lost,
                    lost_intervals=lost_threads, lost_futex_calls=lost_futex,
                    target_exited=target_exited, stack_every=stack_every,
                    sampled_intervals=sampled)))
        finally:
            if out:
                out.close()
            self.spill.close()
        if totals is not None:
            with open(self.args.folded, "w") as f:
                for line in totals.lines():
                    f.write(line + "\n")
        reused, checked, differed = (n["CNT_KSTACKS_REUSED"], n["CNT_KSTACKS_CHECKED"],
                                     n["CNT_KSTACKS_DIFFERED"])
        ureused, uchecked, udiffered = (n["CNT_USTACKS_REUSED"], n["CNT_USTACKS_CHECKED"],
                                        n["CNT_USTACKS_DIFFERED"])
        page_changed, stack_offset_wrong = n["CNT_PAGE_CHANGED"], n["CNT_STACK_OFFSET_WRONG"]
        print("%s: %d off-CPU intervals, %d futex waits, %d missed stacks; "
              "lost %d events (ring buffer reservation failed), %d intervals (thread map full), "
              "%d futex calls (thread map full)"
              % (PROG, intervals, futex_waits, self.missing_stacks, lost, lost_threads, lost_futex),
              file=sys.stderr)
        if stack_every > 1:
            print("%s: stacks of 1 interval in %d (--stack-every): %d of %d sampled, their time "
                  "counted %d times in --folded; --stack-every 1 walks every interval's"
                  % (PROG, stack_every, sampled, intervals, stack_every), file=sys.stderr)
        if reused or checked:
            print("%s: kernel stacks reused %d times; %d walked again to check, %d differed"
                  % (PROG, reused, checked, differed), file=sys.stderr)
        if ureused or uchecked:
            print("%s: user stacks of one frame reused %d times; %d walked again to check, "
                  "%d differed" % (PROG, ureused, uchecked, udiffered), file=sys.stderr)
        if differed or udiffered:
            print("%s: warning: %d reused stacks differed from a fresh walk (those ways of "
                  "sleeping are walked every time since; intervals before may show the older "
                  "stack); --no-stack-reuse walks every one" % (PROG, differed + udiffered),
                  file=sys.stderr)
        if page_changed:
            print("%s: warning: %d futex calls ended on another kernel stack page than they "
                  "began on; waker contexts and waker futex calls may be wrong"
                  % (PROG, page_changed), file=sys.stderr)
        if stack_offset_wrong:
            print("%s: warning: %d futex calls ran on another kernel stack page than "
                  "task_struct.stack (offset %d, from %s) names; waker contexts may be wrong"
                  % (PROG, stack_offset_wrong, self.task_stack_offset, BTF_VMLINUX), file=sys.stderr)
        stats = self.bpf_run_stats()
        if stats:
            print("%s: BPF run time (kernel.bpf_stats_enabled=1): %s" % (PROG, ", ".join(
                "%s %.1f ms / %d runs" % (name, ns / 1e6, runs) for name, ns, runs in stats)),
                file=sys.stderr)
        if lost + lost_threads + lost_futex:
            print("%s: warning: events were lost; the outputs are incomplete "
                  "(raise --buffer-pages or --max-threads)" % PROG, file=sys.stderr)


def interval_records(events, stacks):
    """The --events records of decoded events (Tracer.events()), in arrival order, each interval
    in a futex call completed with that call's end when it arrived."""
    for ev, end in in_arrival_order(events):
        r = interval_record(ev, stacks, decode_comm)
        if r["futex"] and end:
            complete_futex(r, *end)
        yield r


def summary_record(intervals, futex_waits, missed_stacks, lost_records, lost_intervals,
                   lost_futex_calls, target_exited, stack_every, sampled_intervals):
    """The --events file's last line: what a reader of the file alone needs to know."""
    return {"summary": {
        "intervals": intervals, "futex_waits": futex_waits, "missed_stacks": missed_stacks,
        "lost_records": lost_records, "lost_intervals": lost_intervals,
        "lost_futex_calls": lost_futex_calls, "target_exited": target_exited,
        "stack_every": stack_every, "sampled_intervals": sampled_intervals}}


def json_line(record):
    """One line of --events: compact JSON."""
    return json.dumps(record, separators=(",", ":")) + "\n"


def program_for_this_kernel(args):
    """The BPF program's text for these options and the running kernel (its pid_max and
    task_struct.stack's offset), and that offset; what run() loads and --ebpf prints."""
    thread_slots = thread_array_slots() if args.thread_maps != "hash" else 0
    if args.thread_maps == "array" and not thread_slots:
        raise ToolError("--thread-maps array: the kernel's pid_max (/proc/sys/kernel/pid_max) "
                        "is above %d; use --thread-maps hash" % THREAD_ARRAY_MAX)
    offset = task_stack_offset()
    return program.program_text(args, thread_slots, offset), offset


def loss_record(records, from_ns, to_ns, tids=None):
    """The --events record of records lost on one CPU: every lost interval lies within
    [from_ns, to_ns], and so does every lost futex call's end (see batch_lost()); all of them are
    of the threads tids (sorted), or of any thread when tids is None (more than LOST_TIDS)."""
    return {"lost": {"records": records, "from_ns": from_ns, "to_ns": to_ns,
                     "tids": sorted(tids) if tids is not None else None}}


def read_fdinfo(fd):
    """run_time_ns and run_cnt of a BPF program fd (present when kernel.bpf_stats_enabled=1)."""
    fields = {}
    try:
        with open("/proc/self/fdinfo/%d" % fd) as f:
            for line in f:
                key, _, value = line.partition(":")
                fields[key.strip()] = value.strip()
        return int(fields["run_time_ns"]), int(fields["run_cnt"])
    except (OSError, KeyError, ValueError):
        return None
