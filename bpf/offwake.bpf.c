// offwake's BPF program: off-CPU intervals of one process with their wakers, run-queue delays
// and futex calls, from tracepoints only. offwake_lib/program.py fills in the UPPERCASE words (options and
// kernel facts), RECORD_LAYOUT (the records sent to user space, struct event_t and struct
// batch_t, with the record kinds KIND_* and counters CNT_*: all defined once, in
// offwake_lib/layout.py), FUTEX_COMMANDS (which futex commands wait and wake, defined once in
// offwake_lib/futex.py) and STACK_REUSE (offwake_stacks.bpf.c).
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
    u32 blocked;            // an off-CPU interval inside this call was sent
    struct kval_t kstack[FUTEX_SLOTS];  // the thread's kernel stacks in futex waits and wakes
};

// Per-thread state, keyed by thread id, kept from a thread's first use to its exit and written in
// place: its open off-CPU interval (off.off_ns 0 while it is on CPU) and its futex() call
// (fx.enter_ns 0 while it is in none). An array indexed by thread id when the kernel's pid_max is
// small enough (THREAD_ARRAYS 1; a lookup the verifier inlines, where a hash lookup cost about
// 50 ns and every interval made eight), else a hash of MAX_THREADS entries, whose entry a thread's
// first switch out or futex call makes.
struct thread_t {
    struct event_t off;     // the record of its open interval, filled in as it goes, sent at switch in
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

// Records are gathered per CPU and reach the ring buffer BATCH at a time, as one ring record: user
// space then handles one record per BATCH intervals. One Python call per interval cost 7% of a CPU
// at 50,000 intervals/s, and a tracer that a busy target starved of CPU fell behind and lost a
// third of the records. Only one of these programs runs on a CPU at a time (the kernel skips a
// tracepoint program that would run nested in another on the same CPU), and none can be preempted,
// so a CPU's batch has one writer. A batch goes out when full, or when the record added to it is
// FLUSH_NS younger than its first; user space reads what is left in each CPU's batch at the end,
// after detaching the programs.
BPF_PERCPU_ARRAY(batches, struct batch_t, 1);
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

// A thread's off-CPU state or futex call, 0 for a thread that has no entry (not traced).
static __always_inline struct event_t *off_of(u32 tid) {
    struct thread_t *t = threads.lookup(&tid);
    return t ? &t->off : 0;
}

static __always_inline struct futex_t *futex_of(u32 tid) {
    struct thread_t *t = threads.lookup(&tid);
    return t ? &t->fx : 0;
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

// Counts n records lost on this CPU that describe times within [from, to], and widens the
// window this CPU's next batch carries to user space (b 0: counted, no window; user space then
// sees more lost than the windows hold). The ring buffer has no loss callback (bcc's lost_cb is
// the perf buffer's): a failed output is only known here, and only here are the lost records'
// times known. A window drawn in user space from its drains would be too narrow: a batch can hold
// records added long before it is sent (it goes out by age only when a record is added), and an
// interval describes the time since its switch out, which can be any time before it was added.
static __always_inline void batch_lost(struct batch_t *b, u64 from, u64 to, u32 n) {
    count_n(CNT_LOST_RECORDS, n);
    if (b == 0)
        return;
    if (b->lost == 0) {
        b->lost_from_ns = from;
        b->lost_threads = 0;
    } else if (from < b->lost_from_ns) {
        b->lost_from_ns = from;
    }
    if (to > b->lost_to_ns)
        b->lost_to_ns = to;
    b->lost += n;
}

// Names thread tid among those whose records this CPU lost since its last batch got through (after
// batch_lost() opened or widened the window), so that a reader marks only what those threads did in
// the window. Past LOST_TIDS distinct threads the window covers every thread. Only on the loss path:
// the loops cost nothing while records get through.
static __always_inline void batch_lost_thread(struct batch_t *b, u32 tid) {
    u32 n = b->lost_threads;
    if (n > LOST_TIDS)
        return;
    for (u32 i = 0; i < LOST_TIDS; i++) {
        if (i >= n)
            break;
        if (b->lost_tids[i] == tid)
            return;
    }
    if (n < LOST_TIDS)
        b->lost_tids[n] = tid;
    b->lost_threads = n + 1;
}

// Counts the record just written at ev[count], which describes times from `from` to `now` (an
// interval: its switch out to its switch in; a futex call's end: its exit, `now`); sends the
// batch when it is full or old. A batch that does not fit the ring buffer is lost whole: its
// records all describe times within [the earliest from, now] (the clock only goes forward, so each
// was added at or before now).
static __always_inline void batch_commit(struct batch_t *b, u64 from, u64 now) {
    if (b->count == 0) {
        b->first_ns = now;
        b->from_ns = from;
    } else if (from < b->from_ns) {
        b->from_ns = from;
    }
    b->count++;
    if (b->count < BATCH && now - b->first_ns < FLUSH_NS)
        return;
    // Without a wakeup but for one batch in WAKE_EVERY of this CPU's: user space sleeps until
    // then, or POLL_S. A wakeup per batch would cost the target a wakeup of the tracer every 128
    // records; none at all left the buffer to fill between two drains 100 ms apart (8 MiB was
    // 86 ms of the futex ping-pong's records, and a third of them were lost). A batch that gets
    // through has carried this CPU's earlier losses with it.
    u64 wake = ++b->sent % WAKE_EVERY == 0 ? BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;
    if (events.ringbuf_output(b, sizeof(*b), wake) != 0) {
        batch_lost(b, b->from_ns, now, b->count);
        for (u32 i = 0; i < BATCH; i++) {
            if (i >= b->count)
                break;
            batch_lost_thread(b, b->ev[i].tid);
        }
    } else {
        b->lost = 0;
    }
    b->count = 0;
}

// stack_page() and the reused stack walks: offwake_stacks.bpf.c.
STACK_REUSE


TRACEPOINT_PROBE(sched, sched_switch) {
    if (!recording())
        return 0;
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
        struct thread_t *t = thread_entry(prev);
        if (t == 0) {
            count(CNT_LOST_INTERVALS);
            goto incoming;
        }
        struct event_t *o = &t->off;
        __builtin_memset(o, 0, sizeof(*o));
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
    // Only threads recorded above have an entry: that is the PID filter
    // for the incoming side, whose tgid the tracepoint does not carry.
    u32 next = args->next_pid;
    struct event_t *op = off_of(next);
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
        batch_lost(b, op->off_ns, now, 1);
        if (b)
            batch_lost_thread(b, next);
        op->off_ns = 0;
        return 0;
    }
    __builtin_memcpy(e, op, sizeof(*e));
    e->kind = KIND_INTERVAL;
    e->on_ns = now;
    e->tid = next;
    e->tgid = TGID;
    // From the tracepoint's record itself (ctx memory, 8-byte aligned): two
    // loads, where bpf_probe_read_kernel() was a helper call per interval.
    __builtin_memcpy(&e->comm, args->next_comm, sizeof(e->comm));
    if (op->futex_enter_ns != 0) {
        // Ask sys_exit_futex to report this call's end, so user space can
        // give the interval the futex call's duration.
        struct thread_t *t = container_of(op, struct thread_t, off);
        if (t->fx.enter_ns == op->futex_enter_ns)
            t->fx.blocked = 1;
    }
    batch_commit(b, e->off_ns, now);
    op->off_ns = 0;
    return 0;
}

// sched_waking runs in the waker's context (sched_wakeup may run on the
// wakee's CPU after an IPI), so the waker is taken here.
TRACEPOINT_PROBE(sched, sched_waking) {
    if (!recording())
        return 0;
    u32 tid = args->pid;
    struct event_t *o = off_of(tid);
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
    struct futex_t *fx = 0;     // the waker's futex() call, when this wakeup is its
    if ((pid_tgid >> 32) == TGID) {
        // Only here: a waker of another process (a kernel thread, an interrupt
        // over the idle task) has no futex entry, and its page is not used.
        u64 page = stack_page();
        struct futex_t *wf = futex_of(waker);
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
        // A waker of another process, a kernel thread or the idle task: its
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
    if (!recording())
        return 0;
    u32 tid = args->pid;
    struct event_t *o = off_of(tid);
    if (o && o->off_ns != 0 && o->wakeup_ns == 0)
        o->wakeup_ns = bpf_ktime_get_ns();
    return 0;
}

TRACEPOINT_PROBE(syscalls, sys_enter_futex) {
    if (!recording())
        return 0;
    u64 pid_tgid = bpf_get_current_pid_tgid();
    if ((pid_tgid >> 32) != TGID)
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
    }
#else
    threads.delete(&tid);
#endif
    return 0;
}

TRACEPOINT_PROBE(syscalls, sys_exit_futex) {
    if (!recording())
        return 0;
    u64 pid_tgid = bpf_get_current_pid_tgid();
    if ((pid_tgid >> 32) != TGID)
        return 0;
    u32 tid = pid_tgid;
    struct futex_t *fx = futex_of(tid);
    if (fx == 0 || fx->enter_ns == 0)
        return 0;
    // Both ends of a syscall run on the thread's own stack: a different page
    // here means the stack check in sched_waking cannot be trusted. Checked
    // at one call in 64 (by the entry clock's low bits), as the entry's check:
    // a helper call at every exit was a tenth of this program.
    if ((fx->enter_ns & 0xfc0) == 0 && fx->stack_page != stack_page())
        count(CNT_PAGE_CHANGED);
    if (fx->blocked) {
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
            e->off_ns = now;
            e->futex_uaddr = fx->uaddr;
            e->futex_op = fx->op;
            e->futex_enter_ns = fx->enter_ns;
            e->futex_ret = args->ret;
            batch_commit(b, now, now);
        }
    }
    fx->enter_ns = 0;
    return 0;
}
