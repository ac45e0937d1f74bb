// offwake's stack walks and their reuse: which kernel stack a program runs on, and the stack
// ids a thread's ways of sleeping and waking reuse instead of walking again. Pasted by offwake_lib/program.py
// into offwake.bpf.c where it says STACK_REUSE, after the maps these use.

// Which kernel stack the program runs on: BPF programs run on the stack of the
// context they were called from, a task's own (16 KiB, THREAD_SIZE-aligned on
// x86-64) or, in a hardirq or softirq, the CPU's interrupt stack. Comparing it
// with the page seen in the same thread's futex() entry tells whether a wakeup
// came from that futex() call or from an interrupt that landed on the thread.
// Linux 6.13+ moves a program whose BPF stack is 64 bytes or more to a per-CPU
// private stack, so the programs that call this keep their locals small; the
// page check in sys_exit_futex counts it if that ever stops holding.
//
// The address is stored into a per-CPU map value and read back as a number: the verifier forbids
// shifting a stack pointer, but lets a program with CAP_PERFMON store one into a map, and what it
// reads back from there is a plain number. A copy through bpf_probe_read_kernel() did the same
// with a helper call (which sched_waking and both futex programs each made per run); a per-CPU
// array lookup is inlined by the verifier. volatile: the compiler must not pass the pointer
// through in a register.
struct spscratch_t {
    u64 sp;
};
BPF_PERCPU_ARRAY(spscratch, struct spscratch_t, 1);

static __always_inline u64 stack_page(void) {
    int zero = 0;
    struct spscratch_t *s = spscratch.lookup(&zero);
    if (s == 0)
        return 0;
    u64 anchor = 0;
    *(void * volatile *)&s->sp = &anchor;
    return *(volatile u64 *)&s->sp >> 14;
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
    int user = flags & BPF_F_USER_STACK;
    if ((c->uses & (KNOWN | UNSTABLE)) == KNOWN) {
        u32 uses = (c->uses & USES) + 1;
        if (uses > USES)
            uses = CHECK_EVERY;
        c->uses = KNOWN | uses;
        if ((uses & (uses - 1)) != 0 && uses % CHECK_EVERY != 0) {
            count(user ? CNT_USTACKS_REUSED : CNT_KSTACKS_REUSED);
            return c->id;
        }
        s32 id = stack_traces.get_stackid(args, flags);
        count(user ? CNT_USTACKS_CHECKED : CNT_KSTACKS_CHECKED);
        if (id >= 0 && id != c->id) {
            count(user ? CNT_USTACKS_DIFFERED : CNT_KSTACKS_DIFFERED);
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
// entry itself, no map lookup. Other commands are walked every time (futex.py says why).
static __always_inline s32 futex_kernel_stack(void *args, struct futex_t *fx, u32 op) {
    u32 i = futex_slot(op);
    if (i >= FUTEX_SLOTS)
        return stack_traces.get_stackid(args, 0);
    return reused_stack(args, &fx->kstack[i], 0);
}

// The key of a thread's reused kernel stack for a sleep outside futex() (see kernel_stack()).
// 8 bytes, as kval_t.
struct kkey_t {
    u32 tid;
    u32 ustack;             // the sleep's user stack id: its call site
};
BPF_HASH(kstacks, struct kkey_t, struct kval_t, MAX_THREADS);

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
