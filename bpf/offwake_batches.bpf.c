// offwake's per-CPU batches of records: how a record reaches the ring buffer, and what a lost one
// marks. Pasted by offwake_lib/program.py into offwake.bpf.c where it says BATCHES, after the
// thread table and the counters these use.

// Records are gathered per CPU and reach the ring buffer BATCH at a time, as one ring record: user
// space then handles one record per BATCH intervals. One Python call per interval cost 7% of a CPU
// at 50,000 intervals/s, and a tracer that a busy target starved of CPU fell behind and lost a
// third of the records. Only one of these programs runs on a CPU at a time (the kernel skips a
// tracepoint program that would run nested in another on the same CPU), and none can be preempted,
// so a CPU's batch has one writer. A batch goes out when full, or when the record added to it is
// FLUSH_NS younger than its first; user space reads what is left in each CPU's batch at the end,
// after detaching the programs.
BPF_PERCPU_ARRAY(batches, struct batch_t, 1);

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

// Sends o, a record of thread tid that describes times from o->off_ns to now: copied into this
// CPU's batch, or counted lost.
static __always_inline void batch_add(struct event_t *o, u32 tid, u64 now) {
    struct batch_t *b = batch_get();
    struct event_t *e = batch_slot(b);
    if (e == 0) {
        batch_lost(b, o->off_ns, now, 1);
        if (b)
            batch_lost_thread(b, tid);
        return;
    }
    __builtin_memcpy(e, o, sizeof(*e));
    batch_commit(b, o->off_ns, now);
}
