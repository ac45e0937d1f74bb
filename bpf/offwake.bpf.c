// offwake's BPF program: off-CPU intervals of one process with their wakers, run-queue delays
// and futex calls, from tracepoints only. offwake_lib/program.py fills in the UPPERCASE words (options and
// kernel facts), RECORD_LAYOUT (the records sent to user space, struct event_t and struct
// batch_t, with the record kinds KIND_* and counters CNT_*: all defined once, in
// offwake_lib/layout.py), FUTEX_COMMANDS (which futex commands wait and wake, defined once in
// offwake_lib/futex.py), BATCHES (offwake_batches.bpf.c) and STACK_REUSE (offwake_stacks.bpf.c).
#include <uapi/linux/ptrace.h>
#include <linux/sched.h>

RECORD_LAYOUT
FUTEX_COMMANDS

// A thread's kernel stack id for one way of sleeping or waking, reused (see reused_stack()).
// 8 bytes: the programs that read stack_page() must keep their BPF stack small.
struct kval_t {
    s32 id;
    u32 uses;               // KNOWN once id is set, plus UNSTABLE once a check found another
                            // stack (walked since), plus the reuses so far (USES bits)
};

// A traced thread's futex() call (thread_t.fx), enter_ns 0 while it is in none.
struct futex_t {
    u64 uaddr;
    u64 enter_ns;
    u64 stack_page;         // the thread's kernel stack (sp >> 14) in this call
    u32 op;
    u32 blocked;            // an off-CPU interval inside this call was sent without its end
    struct kval_t kstack[FUTEX_SLOTS];  // the thread's kernel stacks in futex waits and wakes
};

// Per-thread state, keyed by thread id, kept from a thread's first use to its exit and written in
// place: its off-CPU interval (off.off_ns 0 while it is on CPU, but for an interval that ended
// inside a futex() call and waits, on_ns set, for the call's end) and its futex() call
// (fx.enter_ns 0 while it is in none). An array indexed by thread id when the kernel's pid_max is
// small enough (THREAD_ARRAYS 1; a lookup the verifier inlines, where a hash lookup cost about
// 50 ns and every interval made eight), else a hash of MAX_THREADS entries, whose entry a thread's
// first switch out or futex call makes.
struct thread_t {
    struct event_t off;     // the record of its interval, filled in as it goes, sent at switch in
                            // or, inside a futex() call, with the call's end at sys_exit_futex
    struct futex_t fx;
};
#if THREAD_ARRAYS
BPF_ARRAY(threads, struct thread_t, THREAD_SLOTS);
#else
BPF_HASH(threads, u32, struct thread_t, MAX_THREADS);
// A zeroed value (never written), a thread's first entry: kept off the BPF stack, which must stay
// small in sys_enter_futex (see stack_page()).
BPF_PERCPU_ARRAY(threadblank, struct thread_t, 1);
#endif
BPF_STACK_TRACE(stack_traces, STACK_STORAGE);
BPF_RINGBUF_OUTPUT(events, BUFFER_PAGES);

// Whether the programs record at all: set by user space once it drains the ring buffer, cleared
// before it stops. bcc attaches each program as it loads it, and attaching all six took long enough
// under load for the ping-pong's records to fill the ring buffer before the first drain: every
// lost record of a loaded machine's runs was lost there, none once the drain ran.
BPF_ARRAY(control, u32, 1);

static __always_inline int recording(void) {
    int zero = 0;
    u32 *on = control.lookup(&zero);
    return on && *on;
}

// Per CPU, summed at the end: a shared counter's atomic add moved its cache line between CPUs on
// every reused stack.
BPF_PERCPU_ARRAY(counters, u64, NCOUNTERS);

static inline void count_n(int index, u64 n) {
    u64 *c = counters.lookup(&index);
    if (c)
        *c += n;
}

static inline void count(int index) {
    count_n(index, 1);
}

// A thread's entry, made in a hash at its first use and kept, written in place, until it exits:
// a hash update and delete per interval or futex call cost more than the rest of the futex
// programs. 0 when the map is full (or, for arrays, the id is beyond pid_max).
static __always_inline struct thread_t *thread_entry(u32 tid) {
    struct thread_t *t = threads.lookup(&tid);
#if !THREAD_ARRAYS
    if (t == 0) {
        int zero = 0;
        struct thread_t *blank = threadblank.lookup(&zero);
        if (blank == 0 || threads.insert(&tid, blank) != 0)
            return 0;
        t = threads.lookup(&tid);
    }
#endif
    return t;
}

// A thread's off-CPU state, 0 for a thread that has no entry (not traced).
static __always_inline struct event_t *off_of(u32 tid) {
    struct thread_t *t = threads.lookup(&tid);
    return t ? &t->off : 0;
}

// The per-CPU batches of records and their losses: offwake_batches.bpf.c.
BATCHES

// stack_page() and the reused stack walks: offwake_stacks.bpf.c.
STACK_REUSE


TRACEPOINT_PROBE(sched, sched_switch) {
    // Every switch on the machine runs this: the target is tested first, and
    // the control flag and the clock read only once a traced thread is involved.
    u64 now = 0;
    u64 pid_tgid = bpf_get_current_pid_tgid();
    u32 prev = args->prev_pid;

    // The tracepoint runs on the outgoing task, so current's tgid is prev's. A
    // thread's last switch out (state X or Z) comes after sched_process_exit
    // forgot it, and it never comes back: not recorded.
    if ((pid_tgid >> 32) == TGID && prev != 0
        && !(args->prev_state & (EXIT_DEAD | EXIT_ZOMBIE)) && recording()) {
        now = bpf_ktime_get_ns();
        struct thread_t *t = thread_entry(prev);
        if (t == 0) {
            count(CNT_LOST_INTERVALS);
            goto incoming;
        }
        struct event_t *o = &t->off;
        if (o->on_ns != 0) {
            // Its last interval still waits for its futex call's end (see
            // the switch in): it went off CPU again inside the call (a
            // preemption, a spurious wakeup). Sent without the end, which
            // sys_exit_futex then sends as a record of its own.
            batch_add(o, prev, now);
            if (t->fx.enter_ns == o->futex_enter_ns)
                t->fx.blocked = 1;
        }
        // All but its name, which its switch in wrote (and will write again): a waker's
        // name comes from there (see sched_waking), where a helper call per wakeup read it.
        __builtin_memset(o, 0, offsetof(struct event_t, comm));
        __builtin_memset(&o->waker_comm, 0, sizeof(o->waker_comm));
        o->off_ns = now;
        o->state = args->prev_state;
        struct futex_t *fx = t->fx.enter_ns != 0 ? &t->fx : 0;
        if (fx) {
            o->futex_uaddr = fx->uaddr;
            o->futex_op = fx->op;
            o->futex_enter_ns = fx->enter_ns;
        }
        if (!PREEMPTED_STACKS && (o->state & 0xff) == 0) {
            // Preempted (R, R+): nothing woke it, the whole interval is
            // run-queue time, and where it was preempted is a CPU profile's
            // question; its two walks would be a third of the cost. No
            // stacks, for every such interval: they stand for themselves.
            o->kstack = NO_STACK;
            o->ustack = NO_STACK;
            o->stack_weight = 1;
        } else if (STACK_EVERY > 1 && bpf_get_prandom_u32() % STACK_EVERY != 0) {
            // Not sampled: its times, waker and futex call are recorded, its
            // stacks and its waker's are not (stack_weight 0). A draw, not a
            // counter: a counter per thread or per CPU keeps step with
            // periodic work (on a CPU where two threads take turns, every
            // 2nd switch is the same thread's) and would sample one side.
            o->kstack = NO_STACK;
            o->ustack = NO_STACK;
        } else {
            o->stack_weight = STACK_EVERY;
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
    // Only threads recorded above have an open interval: that is the PID
    // filter for the incoming side, whose tgid the tracepoint does not carry.
    u32 next = args->next_pid;
    struct thread_t *t = threads.lookup(&next);
    if (t == 0 || t->off.off_ns == 0 || t->off.on_ns != 0)
        return 0;
    if (now == 0) {
        // The outgoing side tested the flag when it set now.
        if (!recording())
            return 0;
        now = bpf_ktime_get_ns();
    }
    struct event_t *op = &t->off;
    if (now - op->off_ns < MIN_NS) {
        op->off_ns = 0;
        return 0;
    }
    op->kind = KIND_INTERVAL;
    op->on_ns = now;
    op->tid = next;
    op->tgid = TGID;
    // From the tracepoint's record itself (ctx memory, 8-byte aligned): two
    // loads, where bpf_probe_read_kernel() was a helper call per interval.
    __builtin_memcpy(&op->comm, args->next_comm, sizeof(op->comm));
    if (op->futex_enter_ns != 0 && t->fx.enter_ns == op->futex_enter_ns) {
        // Still inside the futex() call it slept in: the record waits here,
        // on_ns set, for sys_exit_futex to add the call's end and send it.
        // One record where the interval and the call's end were two: each
        // was a batch slot filled and committed, and decoded in user space.
        return 0;
    }
    batch_add(op, next, now);
    op->off_ns = 0;
    op->on_ns = 0;
    return 0;
}

// An interval is open from its switch out (off_ns set) to its switch in (on_ns set): only an open
// one takes a waker and a wakeup.
static __always_inline int interval_open(struct event_t *o) {
    return o && o->off_ns != 0 && o->on_ns == 0;
}

// sched_waking runs in the waker's context (sched_wakeup may run on the
// wakee's CPU after an IPI), so the waker is taken here.
TRACEPOINT_PROBE(sched, sched_waking) {
    u32 tid = args->pid;
    struct event_t *o = off_of(tid);
    if (!interval_open(o) || o->waking_ns != 0 || !recording())
        return 0;
    u64 pid_tgid = bpf_get_current_pid_tgid();
    u32 waker = pid_tgid;
    o->waking_ns = bpf_ktime_get_ns();
    o->waker_tid = waker;
    o->waker_tgid = pid_tgid >> 32;
    // A wakeup running on the waker's own kernel stack page is the waker's own
    // code; on another, an interrupt that landed on it (its wakeups are not the
    // waker's, even inside futex()). The own page of a waker of the traced
    // process comes from its futex entry (with the page once the thread made a
    // futex() call), else from task_struct: reading that every time cost more
    // than the walks it saves.
    //
    // Any other waker (a kernel thread, another process, the idle task an
    // interrupt landed on) gets its own page from task_struct too: a wakeup on
    // another page is an interrupt's, told with one read where its kernel
    // stack walk cost 3-7 us (a network softirq's is 30-odd frames) at every
    // such wake. The same page does not say task for it: x86-64 runs an
    // interrupt that lands in user mode on the task's own stack (its kernel
    // stack is empty then), and whether another process's thread was in user
    // mode is not known here; it is walked below, as before. (One call of
    // own_stack_page(): a second copy of its local would grow the BPF stack.)
    struct futex_t *fx = 0;     // the waker's futex() call, when this wakeup is its
    struct futex_t *wf = 0;     // the waker's futex entry, for a waker of the traced process
    int mine = (pid_tgid >> 32) == TGID;
    u64 own = 0;
    struct thread_t *w = mine ? threads.lookup(&waker) : 0;
    if (w) {
        wf = &w->fx;
        own = wf->stack_page;
    }
    // A waker of the traced process has its name in its own entry, from its last switch in
    // (off.comm, which its switch out keeps): a copy where bpf_get_current_comm() was a helper
    // call per wakeup. Empty until that first switch in: then, and for any other waker, the helper.
    if (w && w->off.comm[0] != 0)
        __builtin_memcpy(&o->waker_comm, &w->off.comm, sizeof(o->waker_comm));
    else
        bpf_get_current_comm(&o->waker_comm, sizeof(o->waker_comm));
    if (own == 0)
        own = own_stack_page();
    if (own != 0 && own != stack_page())
        o->waker_ctx = 2;
    else if (own != 0 && mine)
        o->waker_ctx = 1;
    if (o->waker_ctx == 1 && wf && wf->enter_ns != 0) {
        fx = wf;
        o->waker_futex_uaddr = fx->uaddr;
        o->waker_futex_op = fx->op;
    }
    if (o->stack_weight != 0
        && (ALL_WAKER_STACKS || (o->futex_enter_ns != 0 && futex_wait_cmd(o->futex_op)))) {
        // The wakes this tool is for: of a thread in a futex wait, when its
        // interval's stacks are sampled (stack_weight, set at its switch out).
        if (REUSE_KSTACKS && fx && o->waker_ctx == 1 && futex_wake_cmd(o->waker_futex_op))
            o->waker_kstack = futex_kernel_stack(args, fx, o->waker_futex_op);
        else
            o->waker_kstack = KERNEL_STACK_GET;
        o->waker_ustack = USER_STACK_GET;
    } else if (o->waker_ctx != 0) {
        // Any other wake (epoll, sockets, sleeps), or an interval not
        // sampled, when the stack it ran on already says whether the waker
        // or an interrupt did it: no walks. Interrupt wakes, the costliest
        // walks, are most of these.
        o->waker_kstack = NO_STACK;
        o->waker_ustack = NO_STACK;
    } else {
        // A waker of another process on its own page, or any waker whose
        // page is not known (no task_struct.stack offset from BTF): its
        // kernel stack is what tells an interrupt from a task, so it is
        // walked for sampled and unsampled intervals alike (the context is
        // part of every interval's record).
        o->waker_kstack = KERNEL_STACK_GET;
        o->waker_ustack = NO_STACK;
    }
    return 0;
}

// sched_wakeup marks the thread runnable: the run-queue delay starts here.
TRACEPOINT_PROBE(sched, sched_wakeup) {
    u32 tid = args->pid;
    struct event_t *o = off_of(tid);
    if (interval_open(o) && o->wakeup_ns == 0 && recording())
        o->wakeup_ns = bpf_ktime_get_ns();
    return 0;
}

TRACEPOINT_PROBE(syscalls, sys_enter_futex) {
    u64 pid_tgid = bpf_get_current_pid_tgid();
    if ((pid_tgid >> 32) != TGID || !recording())
        return 0;
    u32 tid = pid_tgid;
    // Written in place (see thread_entry()); enter_ns 0: in no call.
    struct thread_t *t = thread_entry(tid);
    if (t == 0) {
        count(CNT_LOST_FUTEX_CALLS);
        return 0;
    }
    struct futex_t *fx = &t->fx;
    fx->uaddr = (u64)args->uaddr;
    fx->op = args->op;
    // A thread's kernel stack stays where it is for its life: read at its first call (and checked
    // at one exit in 64, below in sys_exit_futex), where a read per call was a map lookup and a
    // store and load through it.
    if (fx->stack_page == 0)
        fx->stack_page = stack_page();
    fx->blocked = 0;
    fx->enter_ns = bpf_ktime_get_ns();
    // Checks task_struct's stack offset against the page this call runs on,
    // at one call in 64 (by the clock's low bits).
    if (TASK_STACK_OFFSET >= 0 && (fx->enter_ns & 0xfc0) == 0 && own_stack_page() != fx->stack_page)
        count(CNT_STACK_OFFSET_WRONG);
    return 0;
}

// A thread's id can be reused once it exits: its stack page and futex entry go with it.
TRACEPOINT_PROBE(sched, sched_process_exit) {
    if (!recording())
        return 0;
    u64 pid_tgid = bpf_get_current_pid_tgid();
    if ((pid_tgid >> 32) != TGID)
        return 0;
    u32 tid = pid_tgid;
#if THREAD_ARRAYS
    // Its reused stacks too: a new thread may get the same id.
    struct thread_t *t = threads.lookup(&tid);
    if (t) {
        __builtin_memset(&t->fx, 0, sizeof(t->fx));
        t->off.off_ns = 0;
        t->off.on_ns = 0;
        t->off.comm[0] = 0;     // a waker's name (see sched_waking): not the next thread's
    }
#else
    threads.delete(&tid);
#endif
    return 0;
}

// Not gated by the control flag: it acts only on futex calls entered while recording, and once
// recording stops it still sends the intervals that wait for their call's end (one a thread at
// most), which would otherwise be left out.
TRACEPOINT_PROBE(syscalls, sys_exit_futex) {
    u64 pid_tgid = bpf_get_current_pid_tgid();
    if ((pid_tgid >> 32) != TGID)
        return 0;
    u32 tid = pid_tgid;
    struct thread_t *t = threads.lookup(&tid);
    if (t == 0 || t->fx.enter_ns == 0)
        return 0;
    struct futex_t *fx = &t->fx;
    // Every syscall of a thread runs on its own stack, the page kept from its
    // first futex() call: a different page here means the stack check in
    // sched_waking cannot be trusted. Checked at one call in 64 (by the entry
    // clock's low bits), as the entry's check: a helper call at every exit was
    // a tenth of this program.
    if ((fx->enter_ns & 0xfc0) == 0 && fx->stack_page != stack_page())
        count(CNT_PAGE_CHANGED);
    struct event_t *o = &t->off;
    if (o->on_ns != 0 && o->futex_enter_ns == fx->enter_ns) {
        // Its last interval waits for this end (see the switch in): one record.
        u64 now = bpf_ktime_get_ns();
        o->futex_exit_ns = now;
        o->futex_ret = args->ret;
        batch_add(o, tid, now);
        o->off_ns = 0;
        o->on_ns = 0;
    } else if (fx->blocked) {
        // An interval of this call went without its end (it left the CPU
        // again inside the call): the end as a record of its own.
        struct batch_t *b = batch_get();
        struct event_t *e = batch_slot(b);
        u64 now = bpf_ktime_get_ns();
        if (e == 0) {
            batch_lost(b, now, now, 1);
            if (b)
                batch_lost_thread(b, tid);
        } else {
            __builtin_memset(e, 0, sizeof(*e));
            e->kind = KIND_FUTEX_END;
            e->tid = tid;
            e->tgid = TGID;
            e->futex_uaddr = fx->uaddr;
            e->futex_op = fx->op;
            e->futex_enter_ns = fx->enter_ns;
            e->futex_exit_ns = now;
            e->futex_ret = args->ret;
            batch_commit(b, now, now);
        }
    }
    fx->enter_ns = 0;
    return 0;
}
