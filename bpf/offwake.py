#!/usr/bin/python3
#
# offwake   Off-CPU intervals of one process, with who woke each thread, how long
#           it then waited for a CPU, and the futex it slept on. Tracepoints only.
#
# For every thread of one process (-p PID) this records each off-CPU interval
# (sched:sched_switch out -> back in), the task that woke it (the current task
# at sched:sched_waking, with its kernel and user stacks), the run-queue delay
# (sched:sched_wakeup -> switched in), and, when the thread slept inside a
# futex() call, that call's uaddr, op and duration (syscalls:sys_enter_futex /
# sys_exit_futex) together with the futex call the waker was in, so a
# FUTEX_WAKE can be matched to the waits it ended. Java frames are named from
# the JVM's perf map, which this tool asks the JVM to write (jcmd PID
# Compiler.perfmap, JDK 17+) at start and at end.
#
# It needs no kprobes (bcc's offwaketime needs kprobes on finish_task_switch
# and try_to_wake_up, which kernels built without CONFIG_KPROBES lack); it
# compiles against the nearest kernel headers package (bpf/setup.sh installs
# one), since tracepoint layouts come from the running kernel's tracefs.
#
# USAGE: offwake.py -p PID [--duration S] [--min-us US] [--folded FILE]
#                   [--events FILE] [--stacks {both,kernel,user,none}]
#                   [--all-waker-stacks] [--preempted-stacks]
#                   [--no-stack-reuse]
#                   [--buffer-pages N] [--stack-storage N] [--max-threads N]
#                   [--thread-maps {auto,array,hash}]
#
# Outputs: --folded FILE, the format of bcc's "offwaketime -f" (wakee stack,
# "--", waker stack, total microseconds) for flame graph tools; --events FILE,
# JSON Lines, one record per off-CPU interval (schema in README.md, section
# "eBPF tracers"), timestamps from bpf_ktime_get_ns(), i.e. CLOCK_MONOTONIC,
# the clock of Java's System.nanoTime() on Linux.
#
# Overhead: every context switch and wakeup on the machine runs a short BPF
# program (an array lookup for threads of other processes); a traced thread's
# switch out and its wakeup each take a kernel and a user stack walk, and its
# switch in one record, so the cost grows with the target's
# context-switch rate. Kernel walks cost most (2-7 us each here, a user walk
# about 1 us), so by default: a thread's kernel stack asleep in a futex wait,
# asleep from the same user call site (a poll, an epoll_wait, a socket read),
# and a waker's inside a futex wake, is walked once per thread and way of
# sleeping and then reused (the same code path nearly every time; the 2nd,
# 4th ... 64th reuse and then every 64th is walked again to check, a way of
# sleeping whose check differed is walked every time since, and the summary
# counts differences; a user stack that cannot go past its first frame, the
# frame pointer register holding no address, is reused by instruction
# pointer the same way; --no-stack-reuse walks all); a wake of a thread not in
# a futex wait gets the waker's stacks only as far as needed to tell an
# interrupt from a task (--all-waker-stacks records them); and an interval in
# which the thread was preempted (state R, R+: nothing woke it) gets no stacks
# (--preempted-stacks records them). Records are gathered per CPU in the
# kernel and reach the ring buffer 128 at a time; user space only copies
# them, every 100 ms, into a temporary file beside the outputs, and decodes
# them one at a time once tracing has ended and the programs are detached, so
# its memory does not grow with the trace and the target does not pay for the
# decoding. A thread's state is written in place, in arrays indexed by thread
# id where pid_max allows (--thread-maps), so a traced switch or wakeup makes
# no map update. bpf/bench/switchcost.py measures the cost per off-CPU
# interval, bpf/bench/overhead.py the pipeline sample's throughput; the
# figures are in README.md, section "Performance".
# --min-us drops short intervals in the kernel, before any record is sent.
#
# Records the ring buffer cannot take are counted in the kernel and reported
# at the end; they are never dropped silently.

import argparse
import collections
import ctypes as ct
import errno
import json
import mmap
import os
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
from bisect import bisect_right

PROG = "offwake"

examples = """examples:
    ./offwake.py -p 185 --duration 10 --events off.jsonl
                              # 10 s of off-CPU intervals of process 185
    ./offwake.py -p 185 --folded off.folded
                              # folded wakee--waker stacks until Ctrl-C
    ./offwake.py -p 185 --min-us 1000 --events off.jsonl --folded off.folded
                              # only intervals of 1 ms or more, both outputs
    ./offwake.py -p 185 --stacks kernel --events off.jsonl
                              # kernel stacks only: cheaper at high switch rates
    flamegraph.pl --color=chain --countname=us < off.folded > off.svg
                              # an off-wake flame graph of the folded output
"""

# The BPF program. UPPERCASE words are placeholders filled from the options.
bpf_text = r"""
#include <uapi/linux/ptrace.h>
#include <linux/sched.h>

// One off-CPU interval, or (kind 2) the end of a futex call that blocked.
struct event_t {
    u64 off_ns;             // switched out (kind 2: futex exit time)
    u64 on_ns;              // switched back in
    u64 waking_ns;          // sched_waking of this thread, 0 if none seen
    u64 wakeup_ns;          // sched_wakeup of this thread, 0 if none seen
    u64 state;              // prev_state at the switch out (0 = preempted)
    u64 futex_uaddr;        // futex the thread slept in, if in futex()
    u64 futex_enter_ns;     // when that futex() call started, 0 if none
    u64 waker_futex_uaddr;  // futex the waker was in when it woke us
    s64 futex_ret;          // kind 2: futex() return value
    u32 kind;
    u32 tid;
    u32 tgid;
    u32 waker_tid;
    u32 waker_tgid;
    s32 kstack;
    s32 ustack;
    s32 waker_kstack;
    s32 waker_ustack;
    u32 futex_op;
    u32 waker_futex_op;
    u32 waker_ctx;          // told from the stack it ran on: 1 task, 2 interrupt, 0 unknown
    char comm[TASK_COMM_LEN];
    char waker_comm[TASK_COMM_LEN];
};

// State of a traced thread that is off CPU, keyed by thread id.
struct off_t {
    u64 off_ns;
    u64 waking_ns;
    u64 wakeup_ns;
    u64 state;
    u64 futex_uaddr;
    u64 futex_enter_ns;
    u64 waker_futex_uaddr;
    u32 waker_tid;
    u32 waker_tgid;
    s32 kstack;
    s32 ustack;
    s32 waker_kstack;
    s32 waker_ustack;
    u32 futex_op;
    u32 waker_futex_op;
    u32 waker_ctx;
    char waker_comm[TASK_COMM_LEN];
};

// A thread's kernel stack id for one way of sleeping or waking, reused (see reused_stack()).
// 8 bytes: the programs that read stack_page() must keep their BPF stack small.
struct kval_t {
    s32 id;
    u32 uses;               // KNOWN once id is set, plus UNSTABLE once a check found another
                            // stack (walked since), plus the reuses so far (USES bits)
};

// The futex commands whose kernel stacks are reused (see futex_kernel_stack()): two waits, three wakes.
#define FUTEX_SLOTS 5

// A traced thread's futex() call, keyed by thread id: kept from the thread's
// first call to its exit, enter_ns 0 while it is in none.
struct futex_t {
    u64 uaddr;
    u64 enter_ns;
    u64 stack_page;         // the thread's kernel stack (sp >> 14) in this call
    u32 op;
    u32 blocked;            // an off-CPU interval inside this call was sent
    struct kval_t kstack[FUTEX_SLOTS];  // the thread's kernel stacks in futex waits and wakes
};

// The key of a thread's reused kernel stack for a sleep outside futex() (see kernel_stack()).
// 8 bytes, as kval_t.
struct kkey_t {
    u32 tid;
    u32 ustack;             // the sleep's user stack id: its call site
};

// Per-thread state, keyed by thread id: an array indexed by it when the kernel's pid_max is small
// enough (THREAD_ARRAYS 1; a lookup the verifier inlines, where a hash lookup cost about 50 ns and
// every interval made eight), else hashes of MAX_THREADS entries, whose entries a thread's first
// switch out or futex call makes. offstart: off_ns 0 while the thread is on CPU.
#if THREAD_ARRAYS
BPF_ARRAY(offstart, struct off_t, THREAD_SLOTS);
BPF_ARRAY(inflight, struct futex_t, THREAD_SLOTS);
#else
BPF_HASH(offstart, u32, struct off_t, MAX_THREADS);
BPF_HASH(inflight, u32, struct futex_t, MAX_THREADS);
#endif
#if !THREAD_ARRAYS
// Zeroed values (never written), the first of a thread's hash entries: kept off the BPF stack,
// which must stay small in sys_enter_futex (see stack_page()).
BPF_PERCPU_ARRAY(offblank, struct off_t, 1);
BPF_PERCPU_ARRAY(futexblank, struct futex_t, 1);
#endif
BPF_HASH(kstacks, struct kkey_t, struct kval_t, MAX_THREADS);
BPF_STACK_TRACE(stack_traces, STACK_STORAGE);
BPF_RINGBUF_OUTPUT(events, BUFFER_PAGES);

// Records are gathered per CPU and reach the ring buffer BATCH at a time, as one ring record: user
// space then handles one record per BATCH intervals. One Python call per interval cost 7% of a CPU
// at 50,000 intervals/s, and a tracer that a busy target starved of CPU fell behind and lost a
// third of the records. Only one of these programs runs on a CPU at a time (the kernel skips a
// tracepoint program that would run nested in another on the same CPU), and none can be preempted,
// so a CPU's batch has one writer. A batch goes out when full, or when the record added to it is
// FLUSH_NS younger than its first; user space reads what is left in each CPU's batch at the end,
// after detaching the programs.
struct batch_t {
    u32 count;              // records in ev[]
    u32 pad;
    u64 first_ns;           // when ev[0] was added
    struct event_t ev[BATCH];
};
BPF_PERCPU_ARRAY(batches, struct batch_t, 1);
// 0: records lost to a full ring buffer, 1: intervals lost to a full
// offstart map, 2: futex calls lost to a full inflight map, 3: kernel stacks
// reused, 4: reused stacks walked again to check them, 5: of those, ones that
// differed, 6: futex calls whose kernel stack page changed (the stack check's
// assumption broken), 7: futex calls whose page was not task_struct.stack's
// (its offset from BTF wrong), 8-10: as 3-5, for user stacks of one frame.
// Per CPU, summed at the end: a shared counter's atomic add moved its cache line between CPUs on
// every reused stack.
BPF_PERCPU_ARRAY(counters, u64, 11);

static inline void count_n(int index, u64 n) {
    u64 *c = counters.lookup(&index);
    if (c)
        *c += n;
}

static inline void count(int index) {
    count_n(index, 1);
}

// A thread's entries, made in a hash at its first use and kept, written in place, until it
// exits: a hash update and delete per interval or futex call cost more than the rest of the
// futex programs. 0 when the map is full (or, for arrays, the id is beyond pid_max).
static __always_inline struct off_t *off_entry(u32 tid) {
    struct off_t *o = offstart.lookup(&tid);
#if !THREAD_ARRAYS
    if (o == 0) {
        int zero = 0;
        struct off_t *blank = offblank.lookup(&zero);
        if (blank == 0 || offstart.insert(&tid, blank) != 0)
            return 0;
        o = offstart.lookup(&tid);
    }
#endif
    return o;
}

static __always_inline struct futex_t *futex_entry(u32 tid) {
    struct futex_t *fx = inflight.lookup(&tid);
#if !THREAD_ARRAYS
    if (fx == 0) {
        int zero = 0;
        struct futex_t *blank = futexblank.lookup(&zero);
        if (blank == 0 || inflight.insert(&tid, blank) != 0)
            return 0;
        fx = inflight.lookup(&tid);
    }
#endif
    return fx;
}

// This CPU's batch (or 0); its next record is written in place, at batch_slot().
static __always_inline struct batch_t *batch_get(void) {
    int zero = 0;
    return batches.lookup(&zero);
}

// The free slot of this CPU's batch b, or 0 (no batch, or full: the record is lost). The bound is
// checked here, on the value used as the index, for the verifier.
static __always_inline struct event_t *batch_slot(struct batch_t *b) {
    u32 slot = b ? b->count : BATCH;
    return slot < BATCH ? &b->ev[slot] : 0;
}

// Counts the record just written at ev[count]; sends the batch when it is full or old.
static __always_inline void batch_commit(struct batch_t *b, u64 now) {
    if (b->count == 0)
        b->first_ns = now;
    b->count++;
    if (b->count < BATCH && now - b->first_ns < FLUSH_NS)
        return;
    // No wakeup: user space drains the buffer every POLL_S seconds.
    if (events.ringbuf_output(b, sizeof(*b), BPF_RB_NO_WAKEUP) != 0)
        count_n(0, b->count);
    b->count = 0;
}

// Which kernel stack the program runs on: BPF programs run on the stack of the
// context they were called from, a task's own (16 KiB, THREAD_SIZE-aligned on
// x86-64) or, in a hardirq or softirq, the CPU's interrupt stack. Comparing it
// with the page seen in the same thread's futex() entry tells whether a wakeup
// came from that futex() call or from an interrupt that landed on the thread.
// Linux 6.13+ moves a program whose BPF stack is 64 bytes or more to a per-CPU
// private stack, so the programs that call this keep their locals small; the
// page check in sys_exit_futex counts it if that ever stops holding.
static __always_inline u64 stack_page(void) {
    u64 anchor = 0;
    void *p = &anchor;
    u64 sp = 0;
    // Copied, not cast: the verifier forbids shifting a stack pointer.
    bpf_probe_read_kernel(&sp, sizeof(sp), &p);
    return sp >> 14;
}

// The current task's own kernel stack page, from task_struct.stack at TASK_STACK_OFFSET (read
// from the running kernel's BTF by user space), or 0 when that offset is unknown (-1).
static __always_inline u64 own_stack_page(void) {
#if TASK_STACK_OFFSET >= 0
    u64 stack = 0;
    bpf_probe_read_kernel(&stack, sizeof(stack), (void *)(bpf_get_current_task() + TASK_STACK_OFFSET));
    return stack >> 14;
#else
    return 0;
#endif
}

static __always_inline int futex_wait_cmd(u32 op) {
    u32 cmd = op & 127;
    return cmd == 0 || cmd == 9;            // FUTEX_WAIT, FUTEX_WAIT_BITSET
}

static __always_inline int futex_wake_cmd(u32 op) {
    u32 cmd = op & 127;
    return cmd == 1 || cmd == 5 || cmd == 10; // FUTEX_WAKE, _WAKE_OP, _WAKE_BITSET
}

// A thread asleep in a futex wait, or waking another from a futex wake, is in
// the same kernel code path every time, and so, nearly always, is a thread
// that sleeps again from the same user call site (a poll, an epoll_wait, a
// socket read): its kernel stack is walked once per thread and way of sleeping
// and then reused, which saves a walk (2-5 us here) per switch. The 2nd, 4th,
// ... 64th reuse and then every CHECK_EVERY-th walk it again; a way of sleeping
// whose walk ever differs is walked every time from then on, and the summary
// counts it. c is where that way of sleeping keeps its stack; flags are
// get_stackid()'s (user stacks are reused the same way, see user_stack()).
static __always_inline s32 reused_stack(void *args, struct kval_t *c, u64 flags) {
    // Counters: 3-5 for kernel stacks, 8-10 for user stacks.
    int counted = flags & BPF_F_USER_STACK ? 8 : 3;
    if ((c->uses & (KNOWN | UNSTABLE)) == KNOWN) {
        u32 uses = (c->uses & USES) + 1;
        if (uses > USES)
            uses = CHECK_EVERY;
        c->uses = KNOWN | uses;
        if ((uses & (uses - 1)) != 0 && uses % CHECK_EVERY != 0) {
            count(counted);
            return c->id;
        }
        s32 id = stack_traces.get_stackid(args, flags);
        count(counted + 1);
        if (id >= 0 && id != c->id) {
            count(counted + 2);
            c->uses |= UNSTABLE;
            c->id = id;
        }
        return id;
    }
    s32 id = stack_traces.get_stackid(args, flags);
    if (!(c->uses & KNOWN) && id >= 0) {
        c->id = id;
        c->uses = KNOWN;
    }
    return id;
}

// The reused stack of a futex wait or wake of the thread whose futex entry is fx: kept in the
// entry itself, no map lookup. Other commands are walked every time.
static __always_inline s32 futex_kernel_stack(void *args, struct futex_t *fx, u32 op) {
    u32 cmd = op & 127;
    u32 i = cmd == 0 ? 0 : cmd == 9 ? 1 : cmd == 1 ? 2 : cmd == 5 ? 3 : cmd == 10 ? 4 : FUTEX_SLOTS;
    if (i >= FUTEX_SLOTS)
        return stack_traces.get_stackid(args, 0);
    return reused_stack(args, &fx->kstack[i], 0);
}

// The reused stack of a sleep outside futex() from the user call site ustack.
static __always_inline s32 kernel_stack(void *args, u32 tid, s32 ustack) {
    struct kkey_t k = {};
    k.tid = tid;
    k.ustack = ustack;
    struct kval_t *c = kstacks.lookup(&k);
    if (c)
        return reused_stack(args, c, 0);
    s32 id = stack_traces.get_stackid(args, 0);
    if (id >= 0) {
        struct kval_t v = {};
        v.id = id;
        v.uses = KNOWN;
        kstacks.update(&k, &v);
    }
    return id;
}

// The current task's user stack. A frame-pointer walk starts at the instruction pointer and
// reads the next frame at the frame pointer register; when that holds no address (below 4096,
// where nothing is ever mapped) the walk ends there, its stack is the instruction pointer's frame
// alone, and its id is reused by instruction pointer (a check every so often, as for kernel
// stacks). That is most sleeps of a JVM's threads, inside glibc's futex and poll wrappers, and
// such a walk cost about 1 us (the fault reading that address): the reuse saves it. The
// registers are read through a per-CPU scratch value: sched_waking's BPF stack must stay small.
struct uscratch_t {
    u64 bp;
    u64 ip;
    struct kval_t fresh;
};
BPF_PERCPU_ARRAY(uscratch, struct uscratch_t, 1);
BPF_HASH(ipstacks, u64, struct kval_t, STACK_STORAGE);

static __always_inline s32 user_stack(void *args) {
    int zero = 0;
    struct uscratch_t *u = REUSE_USTACKS ? uscratch.lookup(&zero) : 0;
    if (u == 0)
        return stack_traces.get_stackid(args, BPF_F_USER_STACK);
    struct pt_regs *regs = (struct pt_regs *)bpf_task_pt_regs(bpf_get_current_task_btf());
    if (bpf_probe_read_kernel(&u->bp, sizeof(u->bp), &regs->bp) != 0 || u->bp >= 4096
        || bpf_probe_read_kernel(&u->ip, sizeof(u->ip), &regs->ip) != 0)
        return stack_traces.get_stackid(args, BPF_F_USER_STACK);
    struct kval_t *c = ipstacks.lookup(&u->ip);
    if (c)
        return reused_stack(args, c, BPF_F_USER_STACK);
    s32 id = stack_traces.get_stackid(args, BPF_F_USER_STACK);
    if (id >= 0) {
        u->fresh.id = id;
        u->fresh.uses = KNOWN;
        ipstacks.update(&u->ip, &u->fresh);
    }
    return id;
}

TRACEPOINT_PROBE(sched, sched_switch) {
    // Every switch on the machine runs this: the clock is read only when a
    // traced thread is involved.
    u64 now = 0;
    u64 pid_tgid = bpf_get_current_pid_tgid();
    u32 prev = args->prev_pid;

    // The tracepoint runs on the outgoing task, so current's tgid is prev's. A
    // thread's last switch out (state X or Z) comes after sched_process_exit
    // forgot it, and it never comes back: not recorded.
    if ((pid_tgid >> 32) == TGID && prev != 0
        && !(args->prev_state & (EXIT_DEAD | EXIT_ZOMBIE))) {
        now = bpf_ktime_get_ns();
        struct off_t *o = off_entry(prev);
        if (o == 0) {
            count(1);
            goto incoming;
        }
        __builtin_memset(o, 0, sizeof(*o));
        o->off_ns = now;
        o->state = args->prev_state;
        struct futex_t *fx = inflight.lookup(&prev);
        if (fx && fx->enter_ns == 0)
            fx = 0;
        if (fx) {
            o->futex_uaddr = fx->uaddr;
            o->futex_op = fx->op;
            o->futex_enter_ns = fx->enter_ns;
        }
        if (!PREEMPTED_STACKS && (o->state & 0xff) == 0) {
            // Preempted (R, R+): nothing woke it, the whole interval is
            // run-queue time, and where it was preempted is a CPU profile's
            // question; its two walks would be a third of the cost.
            o->kstack = NO_STACK;
            o->ustack = NO_STACK;
        } else {
            s32 ustack = USER_STACK_GET;
            o->ustack = ustack;
            // Asleep (S) in a futex wait, or elsewhere from a known user
            // call site: the reusable paths. A sleep in state D (disk, a page
            // fault) takes varying paths: walked.
            if (REUSE_KSTACKS && fx && o->state == 1 && futex_wait_cmd(o->futex_op))
                o->kstack = futex_kernel_stack(args, fx, o->futex_op);
            else if (REUSE_KSTACKS && o->state == 1 && ustack >= 0)
                o->kstack = kernel_stack(args, prev, ustack);
            else
                o->kstack = KERNEL_STACK_GET;
        }
    }

incoming:
    ;
    // Only threads recorded above are in offstart: that is the PID filter
    // for the incoming side, whose tgid the tracepoint does not carry.
    u32 next = args->next_pid;
    struct off_t *op = offstart.lookup(&next);
    if (op == 0 || op->off_ns == 0)
        return 0;
    if (now == 0)
        now = bpf_ktime_get_ns();
    if (now - op->off_ns < MIN_NS) {
        op->off_ns = 0;
        return 0;
    }
    struct batch_t *b = batch_get();
    struct event_t *e = batch_slot(b);
    if (e == 0) {
        count(0);
        op->off_ns = 0;
        return 0;
    }
    e->kind = 1;
    e->off_ns = op->off_ns;
    e->on_ns = now;
    e->waking_ns = op->waking_ns;
    e->wakeup_ns = op->wakeup_ns;
    e->state = op->state;
    e->futex_uaddr = op->futex_uaddr;
    e->futex_enter_ns = op->futex_enter_ns;
    e->futex_op = op->futex_op;
    e->waker_futex_uaddr = op->waker_futex_uaddr;
    e->waker_futex_op = op->waker_futex_op;
    e->waker_ctx = op->waker_ctx;
    e->futex_ret = 0;
    e->tid = next;
    e->tgid = TGID;
    e->waker_tid = op->waker_tid;
    e->waker_tgid = op->waker_tgid;
    e->kstack = op->kstack;
    e->ustack = op->ustack;
    e->waker_kstack = op->waker_kstack;
    e->waker_ustack = op->waker_ustack;
    bpf_probe_read_kernel(&e->comm, sizeof(e->comm), args->next_comm);
    __builtin_memcpy(&e->waker_comm, op->waker_comm, sizeof(e->waker_comm));
    if (op->futex_enter_ns != 0) {
        // Ask sys_exit_futex to report this call's end, so user space can
        // give the interval the futex call's duration.
        struct futex_t *fx = inflight.lookup(&next);
        if (fx && fx->enter_ns == op->futex_enter_ns)
            fx->blocked = 1;
    }
    batch_commit(b, now);
    op->off_ns = 0;
    return 0;
}

// sched_waking runs in the waker's context (sched_wakeup may run on the
// wakee's CPU after an IPI), so the waker is taken here.
TRACEPOINT_PROBE(sched, sched_waking) {
    u32 tid = args->pid;
    struct off_t *o = offstart.lookup(&tid);
    if (o == 0 || o->off_ns == 0 || o->waking_ns != 0)
        return 0;
    u64 pid_tgid = bpf_get_current_pid_tgid();
    u32 waker = pid_tgid;
    o->waking_ns = bpf_ktime_get_ns();
    o->waker_tid = waker;
    o->waker_tgid = pid_tgid >> 32;
    bpf_get_current_comm(&o->waker_comm, sizeof(o->waker_comm));
    // A wakeup running on the waker's own kernel stack page is the waker's own
    // code; on another, an interrupt that landed on it (its wakeups are not the
    // waker's, even inside futex()). The own page comes from the waker's futex
    // entry (only threads of the traced process have one, with the page once
    // the thread made a futex() call), else from task_struct: reading that
    // every time cost more than the walks it saves.
    u64 page = stack_page();
    struct futex_t *wf = inflight.lookup(&waker);
    struct futex_t *fx = 0;     // the waker's futex() call, when this wakeup is its
    if ((pid_tgid >> 32) == TGID) {
        u64 own = wf ? wf->stack_page : 0;
        if (own == 0)
            own = own_stack_page();
        if (own != 0)
            o->waker_ctx = own == page ? 1 : 2;
        if (o->waker_ctx == 1 && wf && wf->enter_ns != 0) {
            fx = wf;
            o->waker_futex_uaddr = fx->uaddr;
            o->waker_futex_op = fx->op;
        }
    }
    if (ALL_WAKER_STACKS || (o->futex_enter_ns != 0 && futex_wait_cmd(o->futex_op))) {
        // The wakes this tool is for: of a thread in a futex wait.
        if (REUSE_KSTACKS && fx && o->waker_ctx == 1 && futex_wake_cmd(o->waker_futex_op))
            o->waker_kstack = futex_kernel_stack(args, fx, o->waker_futex_op);
        else
            o->waker_kstack = KERNEL_STACK_GET;
        o->waker_ustack = USER_STACK_GET;
    } else if (o->waker_ctx != 0) {
        // Any other wake (epoll, sockets, sleeps), when the stack it ran on
        // already says whether the waker or an interrupt did it: no walks.
        // Interrupt wakes, the costliest walks, are most of these.
        o->waker_kstack = NO_STACK;
        o->waker_ustack = NO_STACK;
    } else {
        // A waker of another process, a kernel thread or the idle task: its
        // kernel stack is what tells an interrupt from a task.
        o->waker_kstack = KERNEL_STACK_GET;
        o->waker_ustack = NO_STACK;
    }
    return 0;
}

// sched_wakeup marks the thread runnable: the run-queue delay starts here.
TRACEPOINT_PROBE(sched, sched_wakeup) {
    u32 tid = args->pid;
    struct off_t *o = offstart.lookup(&tid);
    if (o && o->off_ns != 0 && o->wakeup_ns == 0)
        o->wakeup_ns = bpf_ktime_get_ns();
    return 0;
}

TRACEPOINT_PROBE(syscalls, sys_enter_futex) {
    u64 pid_tgid = bpf_get_current_pid_tgid();
    if ((pid_tgid >> 32) != TGID)
        return 0;
    u32 tid = pid_tgid;
    // Written in place (see futex_entry()); enter_ns 0: in no call.
    struct futex_t *fx = futex_entry(tid);
    if (fx == 0) {
        count(2);
        return 0;
    }
    fx->uaddr = (u64)args->uaddr;
    fx->op = args->op;
    fx->stack_page = stack_page();
    fx->blocked = 0;
    fx->enter_ns = bpf_ktime_get_ns();
    // Checks task_struct's stack offset against the page this call runs on,
    // at one call in 64 (by the clock's low bits).
    if (TASK_STACK_OFFSET >= 0 && (fx->enter_ns & 0xfc0) == 0 && own_stack_page() != fx->stack_page)
        count(7);
    return 0;
}

// A thread's id can be reused once it exits: its stack page and futex entry go with it.
TRACEPOINT_PROBE(sched, sched_process_exit) {
    u64 pid_tgid = bpf_get_current_pid_tgid();
    if ((pid_tgid >> 32) != TGID)
        return 0;
    u32 tid = pid_tgid;
#if THREAD_ARRAYS
    // Its reused stacks too: a new thread may get the same id.
    struct futex_t *fx = inflight.lookup(&tid);
    if (fx)
        __builtin_memset(fx, 0, sizeof(*fx));
    struct off_t *o = offstart.lookup(&tid);
    if (o)
        o->off_ns = 0;
#else
    inflight.delete(&tid);
    offstart.delete(&tid);
#endif
    return 0;
}

TRACEPOINT_PROBE(syscalls, sys_exit_futex) {
    u64 pid_tgid = bpf_get_current_pid_tgid();
    if ((pid_tgid >> 32) != TGID)
        return 0;
    u32 tid = pid_tgid;
    struct futex_t *fx = inflight.lookup(&tid);
    if (fx == 0 || fx->enter_ns == 0)
        return 0;
    // Both ends of a syscall run on the thread's own stack: a different page
    // here means the stack check in sched_waking cannot be trusted.
    if (fx->stack_page != stack_page())
        count(6);
    if (fx->blocked) {
        struct batch_t *b = batch_get();
        struct event_t *e = batch_slot(b);
        if (e == 0) {
            count(0);
        } else {
            __builtin_memset(e, 0, sizeof(*e));
            e->kind = 2;
            e->tid = tid;
            e->tgid = TGID;
            e->off_ns = bpf_ktime_get_ns();
            e->futex_uaddr = fx->uaddr;
            e->futex_op = fx->op;
            e->futex_enter_ns = fx->enter_ns;
            e->futex_ret = args->ret;
            batch_commit(b, e->off_ns);
        }
    }
    fx->enter_ns = 0;
    return 0;
}
"""

TASK_COMM_LEN = 16
POLL_S = 0.1  # how often user space drains the ring buffer
# Records a CPU gathers before it sends them to the ring buffer as one: a Python call per batch cost
# about 4.6 us, 0.7% of a CPU at the pipeline sample's 60,000 intervals/s with 32 to a batch. 128
# (19.5 KB) stays under the 32 KB a per-CPU map's value may take.
BATCH = 128
FLUSH_NS = 100000000  # a CPU sends a batch whose first record is this old even if not full
CHECK_EVERY = 64  # past the 64th, every so many reuses of a kernel stack walk it again
# Per-thread maps are arrays indexed by thread id when every id fits in this many entries (offstart
# and inflight then take about 24 MB at most), else hashes of --max-threads entries.
THREAD_ARRAY_MAX = 131072


class Event(ct.Structure):
    """Mirror of struct event_t in the BPF program (same field order)."""
    _fields_ = [
        ("off_ns", ct.c_uint64),
        ("on_ns", ct.c_uint64),
        ("waking_ns", ct.c_uint64),
        ("wakeup_ns", ct.c_uint64),
        ("state", ct.c_uint64),
        ("futex_uaddr", ct.c_uint64),
        ("futex_enter_ns", ct.c_uint64),
        ("waker_futex_uaddr", ct.c_uint64),
        ("futex_ret", ct.c_int64),
        ("kind", ct.c_uint32),
        ("tid", ct.c_uint32),
        ("tgid", ct.c_uint32),
        ("waker_tid", ct.c_uint32),
        ("waker_tgid", ct.c_uint32),
        ("kstack", ct.c_int32),
        ("ustack", ct.c_int32),
        ("waker_kstack", ct.c_int32),
        ("waker_ustack", ct.c_int32),
        ("futex_op", ct.c_uint32),
        ("waker_futex_op", ct.c_uint32),
        ("waker_ctx", ct.c_uint32),
        ("comm", ct.c_char * TASK_COMM_LEN),
        ("waker_comm", ct.c_char * TASK_COMM_LEN),
    ]


class Batch(ct.Structure):
    """Mirror of struct batch_t: one ring buffer record, the first count of BATCH records."""
    _fields_ = [
        ("count", ct.c_uint32),
        ("pad", ct.c_uint32),
        ("first_ns", ct.c_uint64),
        ("ev", Event * BATCH),
    ]


class ToolError(Exception):
    """A user-facing problem: printed as one line, exit status 2."""


def thread_array_slots(path="/proc/sys/kernel/pid_max"):
    """Entries for arrays indexed by thread id (the kernel's pid_max), or 0 to use hashes."""
    try:
        with open(path) as f:
            pid_max = int(f.read().strip())
    except (OSError, ValueError):
        return 0
    return pid_max if 0 < pid_max <= THREAD_ARRAY_MAX else 0


BTF_VMLINUX = "/sys/kernel/btf/vmlinux"


def btf_member_offsets(data, struct_name, members):
    """Byte offsets of the named members of the struct struct_name in a BTF blob (the kernel's own
    type information, /sys/kernel/btf/vmlinux), as {name: offset}; None when the blob is not BTF
    or has no such struct. Only top-level members, and not bit fields' bits."""
    if len(data) < 24:
        return None
    magic, _, _, hdr_len, type_off, type_len, str_off, _ = struct.unpack_from("<HBBIIIII", data)
    if magic != 0xeB9F:
        return None
    types, strings = hdr_len + type_off, hdr_len + str_off

    def name(off):
        return data[strings + off:data.index(b"\0", strings + off)]

    # Bytes after the 12-byte btf_type header: fixed for some kinds, per member (vlen) for others.
    fixed = {1: 4, 3: 12, 14: 4, 17: 4}                     # INT, ARRAY, VAR, DECL_TAG
    per_item = {4: 12, 5: 12, 6: 8, 13: 8, 15: 12, 19: 12}  # STRUCT, UNION, ENUM, FUNC_PROTO,
    wanted = struct_name.encode()                            # DATASEC, ENUM64
    pos, end = types, types + type_len
    while pos + 12 <= end:
        name_off, info, _ = struct.unpack_from("<III", data, pos)
        kind, vlen = (info >> 24) & 0x1f, info & 0xffff
        body = pos + 12
        pos = body + fixed.get(kind, 0) + per_item.get(kind, 0) * vlen
        if kind == 4 and name(name_off) == wanted:
            found = {}
            for i in range(vlen):
                m_name, _, m_off = struct.unpack_from("<III", data, body + 12 * i)
                label = name(m_name).decode("ascii", "replace")
                if label in members:
                    # With kind_flag set the low 24 bits are the bit offset.
                    found[label] = (m_off & 0xffffff if info >> 31 else m_off) // 8
            return found
    return None


def task_stack_offset(path=BTF_VMLINUX):
    """Offset of task_struct.stack in the running kernel, from its BTF, or -1 when unknown."""
    try:
        with open(path, "rb") as f:
            offsets = btf_member_offsets(f.read(), "task_struct", {"stack"})
    except (OSError, ValueError, struct.error):
        return -1
    return offsets["stack"] if offsets and "stack" in offsets else -1


# ---------------------------------------------------------------- futex ops

FUTEX_PRIVATE_FLAG = 128
FUTEX_CLOCK_REALTIME = 256
FUTEX_CMDS = {
    0: "FUTEX_WAIT", 1: "FUTEX_WAKE", 2: "FUTEX_FD", 3: "FUTEX_REQUEUE",
    4: "FUTEX_CMP_REQUEUE", 5: "FUTEX_WAKE_OP", 6: "FUTEX_LOCK_PI",
    7: "FUTEX_UNLOCK_PI", 8: "FUTEX_TRYLOCK_PI", 9: "FUTEX_WAIT_BITSET",
    10: "FUTEX_WAKE_BITSET", 11: "FUTEX_WAIT_REQUEUE_PI",
    12: "FUTEX_CMP_REQUEUE_PI", 13: "FUTEX_LOCK_PI2",
}


def futex_cmd(op):
    """The futex command name of a futex() op, without the flag bits."""
    cmd = op & ~(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME)
    return FUTEX_CMDS.get(cmd, "FUTEX_%d" % cmd)


# Task states as sched_switch prints them (include/trace/events/sched.h).
STATE_LETTERS = [(0x1, "S"), (0x2, "D"), (0x4, "T"), (0x8, "t"), (0x10, "X"),
                 (0x20, "Z"), (0x40, "P"), (0x80, "I")]


# Frames that put a wakeup inside an interrupt: then the "waker" is only the task the interrupt
# landed on (a timer firing over an unrelated thread, or over the idle task). The BPF program cannot
# read the preempt count here, and tracepoint records reach BPF with their common flags unset, so the
# waker's kernel stack is what tells.
IRQ_FRAMES = (("nmi", ("asm_exc_nmi", "exc_nmi")),
              ("softirq", ("handle_softirqs", "__do_softirq")),
              ("hardirq", ("asm_sysvec_", "sysvec_", "asm_common_interrupt", "common_interrupt",
                           "__sysvec_")))


def waker_context(kernel_frames):
    """Where a wakeup ran, from the waker's kernel stack (leaf first): task, hardirq, softirq, nmi.

    None when the stack is missing.
    """
    if kernel_frames is None:
        return None
    for frame in kernel_frames:
        for context, prefixes in IRQ_FRAMES:
            if frame.startswith(prefixes):
                return context
    return "task"


def wake_context(stack_said, kernel_frames):
    """The waker's context: from the kernel stack page the wakeup ran on when the BPF program could
    tell it (1 task, 2 interrupt), else, and to name the interrupt, from the waker's kernel frames."""
    if stack_said == 1:
        return "task"
    if stack_said == 2:
        named = waker_context(kernel_frames) if kernel_frames else None
        return named if named not in (None, "task") else "irq"
    return waker_context(kernel_frames)


# sched_switch reports a preempted task as TASK_REPORT_MAX (one bit above the state bits), "R+".
TASK_REPORT_MAX = 0x100


def runnable(state):
    """True when the thread was switched out still runnable (time slice over, yield, preemption)."""
    return state & (TASK_REPORT_MAX - 1) == 0


def state_letters(state):
    """prev_state as sched_switch's text shows it: R still runnable, R+ preempted in the kernel."""
    letters = "".join(ch for bit, ch in STATE_LETTERS if state & bit)
    if letters:
        return letters
    return "R+" if state & TASK_REPORT_MAX else "R"


# ----------------------------------------------------------------- perf map

class PerfMap:
    """Symbols of a perf map file (/tmp/perf-PID.map: "START SIZE name" per line, hex)."""

    def __init__(self, entries):
        entries = sorted(entries)
        self.starts = [e[0] for e in entries]
        self.entries = entries

    @classmethod
    def parse(cls, lines):
        entries = []
        for line in lines:
            parts = line.rstrip("\n").split(None, 2)
            if len(parts) != 3:
                continue
            try:
                start = int(parts[0], 16)
                size = int(parts[1], 16)
            except ValueError:
                continue
            if size > 0:
                entries.append((start, start + size, parts[2].strip()))
        return cls(entries)

    @classmethod
    def load(cls, path):
        with open(path, encoding="utf-8", errors="replace") as f:
            return cls.parse(f)

    def __len__(self):
        return len(self.entries)

    def lookup(self, addr):
        """The symbol whose [start, start+size) holds addr, or None."""
        i = bisect_right(self.starts, addr) - 1
        # A JIT may reuse an address range; later lines are newer, but
        # overlapping entries are rare enough that the nearest start wins.
        if i >= 0:
            start, end, name = self.entries[i]
            if start <= addr < end:
                return name
        return None


# ------------------------------------------------------------------ outputs

def folded_frame(name):
    """A frame name made safe for the folded format (';' separates frames)."""
    return name.replace(";", ":").replace("\n", " ")


def folded_line(wakee_comm, wakee_user, wakee_kernel, waker_kernel,
                waker_user, waker_comm, total_us):
    """One line of offwaketime -f output.

    Stacks are given leaf first (as stack walks return them). The wakee part
    runs root to leaf, user then kernel; after "--" the waker part runs leaf
    to root, kernel then user, ending with the waker's name, so a flame
    graph draws the waker's stack hanging from the wakee's. A stack that
    could not be read is None and prints as "[Missed User Stack]" or
    "[Missed Kernel Stack]", as offwaketime prints it.
    """
    line = [wakee_comm]
    line += ["[Missed User Stack]"] if wakee_user is None else list(reversed(wakee_user))
    line += ["[Missed Kernel Stack]"] if wakee_kernel is None else list(reversed(wakee_kernel))
    line.append("--")
    line += ["[Missed Kernel Stack]"] if waker_kernel is None else list(waker_kernel)
    line += ["[Missed User Stack]"] if waker_user is None else list(waker_user)
    line.append(waker_comm)
    return "%s %d" % (";".join(folded_frame(f) for f in line), total_us)


class FoldedTotals:
    """Off-CPU time summed per stack pair, one interval record (events schema) at a time."""

    def __init__(self):
        self.totals = {}

    def add(self, r):
        stack = r["stack"]
        waker = r["waker"]
        wstack = r["waker_stack"]
        key = (r["comm"],
               _tuple(stack["user"]), _tuple(stack["kernel"]),
               _tuple(wstack["kernel"]) if wstack else (),
               _tuple(wstack["user"]) if wstack else (),
               waker["comm"] if waker else "")
        self.totals[key] = self.totals.get(key, 0) + r["offcpu_ns"]

    def lines(self):
        """Folded lines, smallest total first."""
        lines = []
        for key, total_ns in sorted(self.totals.items(), key=lambda kv: kv[1]):
            comm, wu, wk, kk, ku, waker_comm = key
            lines.append(folded_line(comm, _list(wu), _list(wk), _list(kk), _list(ku),
                                     waker_comm, total_ns // 1000))
        return lines



def _tuple(frames):
    return None if frames is None else tuple(frames)


def _list(frames):
    return None if frames is None else list(frames)


def interval_record(ev, stacks, comm_of):
    """The --events JSON record of one interval event (kind 1).

    ev: the event fields as a dict (see Event); stacks(stack_id, tgid, user)
    returns frames leaf first, or None when the stack could not be read;
    comm_of(raw_bytes) decodes a task name.
    """
    offcpu_ns = ev["on_ns"] - ev["off_ns"]
    if runnable(ev["state"]):
        runq_ns = offcpu_ns
    elif ev["wakeup_ns"]:
        runq_ns = max(0, ev["on_ns"] - ev["wakeup_ns"])
    else:
        runq_ns = None
    woken = ev["waking_ns"] != 0
    futex = None
    if ev["futex_enter_ns"]:
        futex = {
            "uaddr": "0x%x" % ev["futex_uaddr"],
            "op": ev["futex_op"],
            "cmd": futex_cmd(ev["futex_op"]),
            "enter_ns": ev["futex_enter_ns"],
            "exit_ns": None,
            "duration_ns": None,
            "ret": None,
        }
    waker_futex = None
    if woken and ev["waker_futex_uaddr"]:
        waker_futex = {
            "uaddr": "0x%x" % ev["waker_futex_uaddr"],
            "op": ev["waker_futex_op"],
            "cmd": futex_cmd(ev["waker_futex_op"]),
        }
    waker_kernel = stacks(ev["waker_kstack"], ev["waker_tgid"], False) if woken else None
    return {
        "pid": ev["tgid"],
        "tid": ev["tid"],
        "comm": comm_of(ev["comm"]),
        "off_ns": ev["off_ns"],
        "on_ns": ev["on_ns"],
        "offcpu_ns": offcpu_ns,
        "state": state_letters(ev["state"]),
        "waking_ns": ev["waking_ns"] or None,
        "wakeup_ns": ev["wakeup_ns"] or None,
        "runq_ns": runq_ns,
        "waker": {
            "pid": ev["waker_tgid"],
            "tid": ev["waker_tid"],
            "comm": comm_of(ev["waker_comm"]),
            "context": wake_context(ev.get("waker_ctx", 0), waker_kernel),
        } if woken else None,
        "futex": futex,
        "waker_futex": waker_futex,
        "stack": {
            "kernel": stacks(ev["kstack"], ev["tgid"], False),
            "user": stacks(ev["ustack"], ev["tgid"], True),
        },
        "waker_stack": {
            "kernel": waker_kernel,
            "user": stacks(ev["waker_ustack"], ev["waker_tgid"], True),
        } if woken else None,
    }


def complete_futex(record, exit_ns, ret):
    """Give an interval record the end of the futex call it slept in."""
    fx = record["futex"]
    fx["exit_ns"] = exit_ns
    fx["duration_ns"] = exit_ns - fx["enter_ns"]
    fx["ret"] = ret


def decode_comm(raw):
    return raw.decode("utf-8", "replace")


# ------------------------------------------------------------------ ordering

def in_arrival_order(events, window_ns=2000000000, max_waiting=200000):
    """(interval, futex_end) pairs in arrival order, from decoded events (dicts, see Event).

    An interval inside a futex call (kind 1) is paired with the record of that call's end (kind 2,
    sent once the thread runs again). An interval waits in a queue until its end arrives, or until
    it is window_ns older than the newest event or max_waiting intervals wait behind it (then it
    goes without its end). Records reach user space in per-CPU batches, so an end can also arrive
    before its interval (the thread changed CPU between the two): ends are kept for the same window
    and number, and given to intervals of their call that arrive later. So the memory this takes
    stays bounded whatever the trace's length. futex_end is (exit_ns, ret) or None.
    """
    queue = collections.deque()
    waiting = {}    # (tid, futex enter ns) -> queued intervals with that key
    ends = {}       # (tid, futex enter ns) -> (exit_ns, ret), for ends within the window
    end_keys = collections.deque()  # (exit_ns, key) of the ends, in arrival order
    newest = 0

    def release(key):
        if key is None:
            return None
        left = waiting[key] - 1
        if left:
            waiting[key] = left
        else:
            del waiting[key]
        return ends.get(key)

    for ev in events:
        if ev["kind"] == 2:
            key = (ev["tid"], ev["futex_enter_ns"])
            ends[key] = (ev["off_ns"], ev["futex_ret"])
            end_keys.append((ev["off_ns"], key))
            newest = max(newest, ev["off_ns"])
        else:
            key = (ev["tid"], ev["futex_enter_ns"]) if ev["futex_enter_ns"] else None
            if key is not None:
                waiting[key] = waiting.get(key, 0) + 1
            queue.append((ev, key))
            newest = max(newest, ev["on_ns"])
        while queue:
            head, key = queue[0]
            if (key is not None and key not in ends and len(queue) < max_waiting
                    and head["on_ns"] + window_ns > newest):
                break
            queue.popleft()
            yield head, release(key)
        while end_keys and (end_keys[0][0] + window_ns <= newest or len(end_keys) > max_waiting):
            _, key = end_keys.popleft()
            ends.pop(key, None)
    while queue:
        head, key = queue.popleft()
        yield head, release(key)


# ------------------------------------------------------------------ checks

def fail(message):
    print("%s: %s" % (PROG, message), file=sys.stderr)
    sys.exit(2)


def positive_float(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("not a number: %r" % text)
    if value <= 0:
        raise argparse.ArgumentTypeError("must be > 0: %r" % text)
    return value


def non_negative_int(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("not an integer: %r" % text)
    if value < 0:
        raise argparse.ArgumentTypeError("must be >= 0: %r" % text)
    return value


def positive_int(text):
    value = non_negative_int(text)
    if value == 0:
        raise argparse.ArgumentTypeError("must be > 0: %r" % text)
    return value


def power_of_two(text):
    value = positive_int(text)
    if value == 0 or value & (value - 1):
        raise argparse.ArgumentTypeError("must be a power of two: %r" % text)
    return value


def build_parser():
    parser = argparse.ArgumentParser(
        prog="offwake.py",
        description="Record off-CPU intervals of one process with their wakers,\n"
                    "run-queue delays and futex calls (tracepoints only).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=examples)
    parser.add_argument("-p", "--pid", type=int, required=True,
                        help="trace this process (all its threads)")
    parser.add_argument("--duration", type=positive_float, metavar="S",
                        help="stop after S seconds (default: Ctrl-C, SIGTERM "
                             "or the process's exit)")
    parser.add_argument("--min-us", type=non_negative_int, default=0, metavar="US",
                        help="drop off-CPU intervals shorter than US "
                             "microseconds, in the kernel (default 0)")
    parser.add_argument("--folded", metavar="FILE",
                        help="write offwaketime -f folded stacks (total us)")
    parser.add_argument("--events", metavar="FILE",
                        help="write one JSON line per off-CPU interval")
    parser.add_argument("--stacks", choices=("both", "kernel", "user", "none"), default="both",
                        help="stacks to record for wakee and waker (default both; "
                             "each walk costs CPU at every switch)")
    parser.add_argument("--preempted-stacks", action="store_true",
                        help="also record stacks of intervals in which the "
                             "thread was preempted (state R, R+: no waker, "
                             "all run-queue time); without it they are "
                             "recorded with empty stacks")
    parser.add_argument("--all-waker-stacks", action="store_true",
                        help="record the waker's stacks for every wake; by "
                             "default only for wakes of a thread in a futex "
                             "wait (other wakes: none when the stack the "
                             "wakeup ran on tells task from interrupt, else "
                             "the kernel stack)")
    parser.add_argument("--no-stack-reuse", action="store_true",
                        help="walk every stack; by default a thread's "
                             "kernel stack asleep in a futex wait or from the "
                             "same user call site, or waking another from a "
                             "futex wake, and a user stack that cannot go past "
                             "its first frame, are walked once and reused "
                             "(checked at the 2nd, 4th ... 64th use, then "
                             "every %dth)" % CHECK_EVERY)
    parser.add_argument("--buffer-pages", type=power_of_two, default=2048, metavar="N",
                        help="ring buffer size in pages, a power of two "
                             "(default 2048: 8 MiB, 55,000 records, about "
                             "1 s at 50,000 intervals/s)")
    parser.add_argument("--stack-storage", type=positive_int, default=16384,
                        metavar="N", help="stack trace map entries (default 16384)")
    parser.add_argument("--max-threads", type=positive_int, default=16384,
                        metavar="N", help="threads tracked at once in hash maps (default 16384)")
    parser.add_argument("--thread-maps", choices=("auto", "array", "hash"), default="auto",
                        help="per-thread state in arrays indexed by thread id (cheaper; needs "
                             "the kernel's pid_max <= %d) or in hashes of --max-threads "
                             "entries; auto: arrays when pid_max allows (default)"
                             % THREAD_ARRAY_MAX)
    return parser


def check_args(args):
    if args.pid <= 0:
        raise ToolError("-p must be a positive process id, got %d" % args.pid)
    if not args.folded and not args.events:
        raise ToolError("nothing to write: give --folded FILE and/or --events FILE")
    for path in (args.folded, args.events):
        if path:
            parent = os.path.dirname(os.path.abspath(path))
            if not os.path.isdir(parent):
                raise ToolError("cannot write %s: no such directory %s" % (path, parent))
    if args.folded and args.events and os.path.abspath(args.folded) == os.path.abspath(args.events):
        raise ToolError("--folded and --events name the same file %s" % args.folded)
    if not os.path.exists("/proc/%d" % args.pid):
        raise ToolError("process %d does not exist" % args.pid)
    try:
        with open("/proc/%d/status" % args.pid) as f:
            if any(line.startswith("Tgid:") and int(line.split()[1]) != args.pid for line in f):
                raise ToolError("%d is a thread id, not a process id: pass its process's id"
                                % args.pid)
    except OSError:
        raise ToolError("process %d does not exist" % args.pid)


TRACEFS_DIRS = ("/sys/kernel/tracing", "/sys/kernel/debug/tracing")
TRACEPOINTS = ("sched/sched_switch", "sched/sched_waking", "sched/sched_wakeup",
               "sched/sched_process_exit",
               "syscalls/sys_enter_futex", "syscalls/sys_exit_futex")


def check_outputs_writable(args):
    """Creates the output files now, so a bad path fails before tracing rather than after it."""
    for path in (args.folded, args.events):
        if path:
            try:
                with open(path, "w"):
                    pass
            except OSError as e:
                raise ToolError("cannot write %s: %s" % (path, e.strerror.lower()))


def check_root():
    if os.geteuid() != 0:
        raise ToolError("must run as root (loading BPF programs needs CAP_BPF and CAP_PERFMON)")


def check_bpf():
    """bcc, tracefs, the tracepoints and kernel headers, checked before compiling."""
    try:
        import bcc  # noqa: F401
    except ImportError:
        raise ToolError("BPF unavailable: python module bcc not found for %s "
                        "(run bpf/setup.sh; use /usr/bin/python3)" % sys.executable)
    events = next((os.path.join(d, "events") for d in TRACEFS_DIRS
                   if os.path.isdir(os.path.join(d, "events"))), None)
    if events is None:
        raise ToolError("BPF unavailable: tracefs is not mounted "
                        "(run bpf/setup.sh, or: mount -t tracefs tracefs /sys/kernel/tracing)")
    missing = [tp for tp in TRACEPOINTS if not os.path.isdir(os.path.join(events, tp))]
    if missing:
        raise ToolError("BPF unavailable: kernel lacks tracepoint(s) %s" % ", ".join(missing))
    release = os.uname().release
    if not os.environ.get("BCC_KERNEL_SOURCE") and \
            not os.path.isdir("/lib/modules/%s/build" % release) and \
            not os.path.exists("/sys/kernel/kheaders.tar.xz"):
        raise ToolError("BPF unavailable: no kernel headers for %s in /lib/modules/%s/build "
                        "(run bpf/setup.sh)" % (release, release))


# ------------------------------------------------------------- JVM support

def is_jvm(pid):
    try:
        with open("/proc/%d/maps" % pid) as f:
            return any(line.rstrip().endswith("/libjvm.so") for line in f)
    except OSError:
        return False


def find_jcmd(pid):
    """The jcmd of the target's own JDK (attach protocols match), else PATH's."""
    try:
        exe = os.readlink("/proc/%d/exe" % pid)
        candidate = os.path.join(os.path.dirname(exe), "jcmd")
        if os.access(candidate, os.X_OK):
            return candidate
    except OSError:
        pass
    return shutil.which("jcmd")


def request_perf_map(pid, when):
    """Ask the JVM to write /tmp/perf-PID.map; warn (stderr) and go on if it cannot."""
    jcmd = find_jcmd(pid)
    if jcmd is None:
        print("%s: warning: no jcmd found, Java frames at %s will be [unknown]"
              % (PROG, when), file=sys.stderr)
        return False
    try:
        out = subprocess.run([jcmd, str(pid), "Compiler.perfmap"], capture_output=True,
                             text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as e:
        print("%s: warning: jcmd %d Compiler.perfmap failed at %s: %s"
              % (PROG, pid, when, e), file=sys.stderr)
        return False
    if out.returncode != 0 or "Command executed successfully" not in out.stdout:
        text = (out.stdout + out.stderr).strip().splitlines()
        print("%s: warning: jcmd %d Compiler.perfmap failed at %s (JDK 17+ needed): %s"
              % (PROG, pid, when, text[-1] if text else "exit %d" % out.returncode),
              file=sys.stderr)
        return False
    return True


# -------------------------------------------------------------------- main

def process_alive(pid):
    """False once the process has exited (a zombie waiting to be reaped counts as exited)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            # The state follows the parenthesised name, which may itself hold ") ".
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except (OSError, IndexError):
        return False


class ExitWatch:
    """Waits for a while or until a process exits, whichever comes first.

    Through a pidfd, which becomes readable when the process exits: the wait is one poll() and the
    check costs nothing. Reading /proc/PID/stat instead, after every wait, cost this tool more
    CPU than draining the ring buffer did (about 170 us a read on a VM whose caches the sleep had
    cooled). That remains the fallback where pidfds are not (Linux before 5.3, or PID not a
    process but one of its threads)."""

    def __init__(self, pid):
        self.pid = pid
        self.poll = None
        try:
            fd = os.pidfd_open(pid)
        except (AttributeError, OSError):
            return
        self.fd = fd
        self.poll = select.poll()
        self.poll.register(fd, select.POLLIN)

    def wait(self, seconds):
        """Waits up to seconds, less once the process has exited; False then."""
        if self.poll is None:
            time.sleep(seconds)
            return process_alive(self.pid)
        return not self.poll.poll(seconds * 1000)

    def close(self):
        if self.poll is not None:
            os.close(self.fd)


class Tracer:
    """Loads the BPF program, collects its records and writes the outputs."""

    def __init__(self, args):
        self.args = args
        self.spill = None        # the ring buffer's records, as copied, back to back
        self.spill_dir = None
        self.spill_error = None  # a failed write to the spill file, raised by check_spill()
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
        """The spilled records decoded, as dicts (see Event), in arrival order."""
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
                for i in range(count):
                    ev = Event.from_buffer_copy(m, offset + first + i * record_size)
                    yield {name: getattr(ev, name) for name in names}

    def finish_batches(self):
        """Detaches the programs, drains the ring buffer and spills what each CPU's batch holds."""
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
            if batch.count:
                self.on_event(None, ct.addressof(batch), ct.sizeof(batch))
        self.check_spill()

    def run(self):
        from bcc import BPF
        args = self.args
        text = bpf_text
        thread_slots = thread_array_slots() if args.thread_maps != "hash" else 0
        self.task_stack_offset = task_stack_offset()
        if args.thread_maps == "array" and not thread_slots:
            raise ToolError("--thread-maps array: the kernel's pid_max (/proc/sys/kernel/pid_max) "
                            "is above %d; use --thread-maps hash" % THREAD_ARRAY_MAX)
        # A stack not asked for reads as -EFAULT, which the output shows as an empty stack.
        no_stack = str(-errno.EFAULT)
        for name, value in (("KERNEL_STACK_GET", "stack_traces.get_stackid(args, 0)"
                             if args.stacks in ("both", "kernel") else no_stack),
                            ("USER_STACK_GET", "user_stack(args)"
                             if args.stacks in ("both", "user") else no_stack),
                            ("PREEMPTED_STACKS", 1 if args.preempted_stacks else 0),
                            ("ALL_WAKER_STACKS", 1 if args.all_waker_stacks else 0),
                            ("NO_STACK", no_stack),
                            ("REUSE_KSTACKS", 0 if args.no_stack_reuse
                             or args.stacks not in ("both", "kernel") else 1),
                            ("REUSE_USTACKS", 0 if args.no_stack_reuse else 1),
                            ("CHECK_EVERY", CHECK_EVERY),
                            ("FLUSH_NS", FLUSH_NS), ("BATCH", BATCH),
                            ("EXIT_DEAD", "0x10"), ("EXIT_ZOMBIE", "0x20"),
                            ("UNSTABLE", "0x80000000"), ("KNOWN", "0x40000000"),
                            ("USES", "0x3fffffff"),
                            ("TGID", args.pid), ("MIN_NS", args.min_us * 1000),
                            ("STACK_STORAGE", args.stack_storage),
                            ("BUFFER_PAGES", args.buffer_pages),
                            ("MAX_THREADS", args.max_threads),
                            ("THREAD_ARRAYS", 1 if thread_slots else 0),
                            ("THREAD_SLOTS", thread_slots or 1),
                            ("TASK_STACK_OFFSET", self.task_stack_offset)):
            text = text.replace(name, str(value))
        jvm = is_jvm(args.pid)
        if jvm:
            request_perf_map(args.pid, "start")
        try:
            # -w: the distribution headers may be newer or older than the
            # running kernel; their warnings say nothing about this program.
            self.bpf = BPF(text=text, cflags=["-w"])
        except Exception as e:  # bcc raises plain Exception on compile/load errors
            raise ToolError("BPF unavailable: could not compile or load the program: %s" % e)
        # Next to the outputs: the records of a long trace take 152 bytes each.
        output = args.events or args.folded
        self.spill_dir = os.path.dirname(os.path.abspath(output))
        self.spill = tempfile.TemporaryFile(prefix="offwake-", suffix=".records", dir=self.spill_dir)
        self.bpf["events"].open_ring_buffer(self.on_event)

        signal.signal(signal.SIGTERM, self._on_signal)
        signal.signal(signal.SIGINT, self._on_signal)
        print("Tracing off-CPU time and wakeups of PID %d%s... Ctrl-C to end."
              % (args.pid, " for %g s" % args.duration if args.duration else ""),
              file=sys.stderr)
        started = time.monotonic()
        target_gone = False
        watch = ExitWatch(args.pid)
        try:
            while not self.stop:
                # Records are submitted without wakeups (BPF_RB_NO_WAKEUP) and drained here in
                # batches: a wakeup per record would cost the target a context switch of ours per
                # event.
                alive = watch.wait(POLL_S)
                self.drain()
                if args.duration and time.monotonic() - started >= args.duration:
                    break
                if not alive:
                    target_gone = True
                    break
        finally:
            watch.close()
        self.finish_batches()
        if target_gone:
            print("%s: process %d exited" % (PROG, args.pid), file=sys.stderr)
        else:
            # Checked again: the target may have exec'd a JVM after the start.
            jvm = is_jvm(args.pid)
            if jvm:
                request_perf_map(args.pid, "end")
        self.write_outputs(jvm)

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

    def stacks_resolver(self, jvm):
        b = self.bpf
        table = b["stack_traces"]
        perf_map = None
        map_path = "/tmp/perf-%d.map" % self.args.pid
        if jvm and os.path.exists(map_path):
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
            if stack_id == -errno.EFAULT:
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

    def write_outputs(self, jvm):
        self.missing_stacks = 0
        stacks = self.stacks_resolver(jvm)
        intervals = 0
        futex_waits = 0
        totals = FoldedTotals() if self.args.folded else None
        out = open(self.args.events, "w") if self.args.events else None
        try:
            # One interval at a time from the spill file: what this holds is the stack symbols and
            # the folded totals, not the trace.
            for ev, end in in_arrival_order(self.events()):
                r = interval_record(ev, stacks, decode_comm)
                if r["futex"]:
                    futex_waits += 1
                    if end:
                        complete_futex(r, *end)
                intervals += 1
                if out:
                    out.write(json.dumps(r, separators=(",", ":")) + "\n")
                if totals is not None:
                    totals.add(r)
        finally:
            if out:
                out.close()
            self.spill.close()
        if totals is not None:
            with open(self.args.folded, "w") as f:
                for line in totals.lines():
                    f.write(line + "\n")
        counters = self.bpf["counters"]
        (lost, lost_threads, lost_futex, reused, checked, differed, page_changed,
         stack_offset_wrong, ureused, uchecked, udiffered) = (
            sum(counters[ct.c_int(i)]) for i in range(11))
        print("%s: %d off-CPU intervals, %d futex waits, %d missed stacks; "
              "lost %d events (ring buffer reservation failed), %d intervals (thread map full), "
              "%d futex calls (futex map full)"
              % (PROG, intervals, futex_waits, self.missing_stacks, lost, lost_threads, lost_futex),
              file=sys.stderr)
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


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        check_args(args)
        check_root()
        check_outputs_writable(args)
        check_bpf()
        tracer = Tracer(args)
        tracer.run()
    except ToolError as e:
        fail(str(e))
    return 0


if __name__ == "__main__":
    sys.exit(main())
