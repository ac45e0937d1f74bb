"""futex() commands and what they do to a thread, defined once: the names the --events records
give them, which ones a thread sleeps in (waits) and which wake others (wakes), and which have a
reused kernel stack. The BPF program's futex_wait_cmd(), futex_wake_cmd() and futex_slot() are
generated from here (c_definitions(), pasted where offwake.bpf.c says FUTEX_COMMANDS); the
analyzer's OffCpuReader is checked against these classes by a fixture this package's own code
writes (test_schema_fixture.py), so neither side can drift alone."""

# include/uapi/linux/futex.h: the command is op without these two flags (the kernel's
# FUTEX_CMD_MASK).
FUTEX_PRIVATE_FLAG = 128
FUTEX_CLOCK_REALTIME = 256
FUTEX_FLAGS = FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME

COMMANDS = {
    0: "FUTEX_WAIT", 1: "FUTEX_WAKE", 2: "FUTEX_FD", 3: "FUTEX_REQUEUE",
    4: "FUTEX_CMP_REQUEUE", 5: "FUTEX_WAKE_OP", 6: "FUTEX_LOCK_PI",
    7: "FUTEX_UNLOCK_PI", 8: "FUTEX_TRYLOCK_PI", 9: "FUTEX_WAIT_BITSET",
    10: "FUTEX_WAKE_BITSET", 11: "FUTEX_WAIT_REQUEUE_PI",
    12: "FUTEX_CMP_REQUEUE_PI", 13: "FUTEX_LOCK_PI2",
}
NUMBERS = {name: cmd for cmd, name in COMMANDS.items()}

# Commands a thread sleeps in until another thread acts on the futex word: an interval inside one
# of these is a futex wait (FUTEX_TRYLOCK_PI never sleeps).
WAITS = ("FUTEX_WAIT", "FUTEX_WAIT_BITSET", "FUTEX_WAIT_REQUEUE_PI", "FUTEX_LOCK_PI",
         "FUTEX_LOCK_PI2")
# Commands that wake a waiter on their first futex word (uaddr): a wait ended by one of these on
# the same uaddr is a futex wake (requeues wake some waiters of uaddr and move the others).
WAKES = ("FUTEX_WAKE", "FUTEX_WAKE_OP", "FUTEX_WAKE_BITSET", "FUTEX_REQUEUE",
         "FUTEX_CMP_REQUEUE", "FUTEX_UNLOCK_PI", "FUTEX_CMP_REQUEUE_PI")
# The waits and wakes whose kernel stacks the program reuses, one slot each in every thread's
# entry (8 bytes a slot). Only these: they are what glibc and the JVM call for every wait and wake,
# and each takes the same kernel path every time. The PI and requeue commands go through rt_mutex
# and requeue code whose stacks vary, and are rare: walked every time.
REUSED_STACKS = ("FUTEX_WAIT", "FUTEX_WAIT_BITSET", "FUTEX_WAKE", "FUTEX_WAKE_OP",
                 "FUTEX_WAKE_BITSET")


def command(op):
    """The futex command name of a futex() op, without the flag bits."""
    cmd = op & ~FUTEX_FLAGS
    return COMMANDS.get(cmd, "FUTEX_%d" % cmd)


def is_wait(op):
    return command(op) in WAITS


def is_wake(op):
    return command(op) in WAKES


def _any_of(names):
    return " || ".join("cmd == %d" % NUMBERS[n] for n in names)


def c_definitions():
    """The C text of futex_wait_cmd(), futex_wake_cmd() and futex_slot()."""
    slots = "".join("cmd == %d ? %d : " % (NUMBERS[n], i) for i, n in enumerate(REUSED_STACKS))
    return "\n".join([
        "// Generated from offwake_lib/futex.py: the futex command classes, defined there once.",
        "#define FUTEX_FLAGS %d  // FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME" % FUTEX_FLAGS,
        "#define FUTEX_SLOTS %d  // futex commands with a reused kernel stack" % len(REUSED_STACKS),
        "static __always_inline int futex_wait_cmd(u32 op) {",
        "    u32 cmd = op & ~FUTEX_FLAGS;",
        "    return %s;  // %s" % (_any_of(WAITS), ", ".join(WAITS)),
        "}",
        "static __always_inline int futex_wake_cmd(u32 op) {",
        "    u32 cmd = op & ~FUTEX_FLAGS;",
        "    return %s;  // %s" % (_any_of(WAKES), ", ".join(WAKES)),
        "}",
        "// The slot of a command's reused kernel stack (%s), FUTEX_SLOTS for none."
        % ", ".join(REUSED_STACKS),
        "static __always_inline u32 futex_slot(u32 op) {",
        "    u32 cmd = op & ~FUTEX_FLAGS;",
        "    return %sFUTEX_SLOTS;" % slots,
        "}",
    ]) + "\n"
