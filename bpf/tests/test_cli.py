"""offwake.py misuse: every bad input is one line on stderr and exit status 2, checked before any BPF work."""
import os
import re
import shutil
import tempfile
import threading

import pytest

from conftest import BPF_DIR, TOOL, ci_skip, run_tool
from offwake_lib import kernel


def assert_one_line_error(result, text):
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert "Traceback" not in result.stderr
    assert lines[-1].startswith("offwake") and text in lines[-1], result.stderr
    assert result.stdout == ""


def test_no_arguments_prints_usage():
    result = run_tool()
    assert_one_line_error(result, "the following arguments are required: -p/--pid")
    assert result.stderr.startswith("usage: offwake.py")


def test_pid_must_be_a_number():
    assert_one_line_error(run_tool("-p", "java"), "argument -p/--pid: invalid int value: 'java'")


@pytest.mark.parametrize("option,value,message", [
    ("--duration", "0", "must be > 0"),
    ("--duration", "soon", "not a number"),
    ("--min-us", "-5", "must be >= 0"),
    ("--buffer-pages", "300", "must be a power of two"),
    ("--stack-every", "0", "must be > 0"),
    ("--stack-every", "65536", "must be <= 65535"),
    ("--stack-every", "often", "not an integer"),
])
def test_bad_option_values(option, value, message):
    assert_one_line_error(run_tool("-p", str(os.getpid()), "--events", "/tmp/x.jsonl", option, value),
                          message)


def test_needs_an_output():
    assert_one_line_error(run_tool("-p", str(os.getpid())), "nothing to write")


def test_output_directory_must_exist():
    assert_one_line_error(run_tool("-p", str(os.getpid()), "--events", "/nonexistent-dir/x.jsonl"),
                          "no such directory /nonexistent-dir")


def test_missing_process():
    # Pids above pid_max (at most 2^22) can never exist.
    assert_one_line_error(run_tool("-p", "99999999", "--events", "/tmp/x.jsonl"),
                          "process 99999999 does not exist")


def test_thread_id_is_not_a_process_id():
    ready = threading.Event()
    done = threading.Event()
    tid = []

    def body():
        tid.append(threading.get_native_id())
        ready.set()
        done.wait(30)

    t = threading.Thread(target=body)
    t.start()
    ready.wait(5)
    try:
        result = run_tool("-p", str(tid[0]), "--events", "/tmp/x.jsonl")
    finally:
        done.set()
        t.join()
    assert_one_line_error(result, "%d is a thread id, not a process id" % tid[0])


def test_not_root():
    if os.geteuid() == 0:
        # As root, drop to nobody for this run so the check is exercised for real.
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            ci_skip("running as root and setpriv (util-linux) is missing to drop privileges")
        prefix = (setpriv, "--reuid=65534", "--regid=65534", "--clear-groups")
    else:
        prefix = ()
    # A copy nobody can read: the checkout may sit in a directory only root can enter.
    copy_dir = tempfile.mkdtemp(prefix="offwake-test-")
    try:
        os.chmod(copy_dir, 0o755)
        tool = shutil.copy(TOOL, copy_dir)
        os.chmod(tool, 0o755)
        shutil.copytree(os.path.join(BPF_DIR, "offwake_lib"), os.path.join(copy_dir, "offwake_lib"),
                        ignore=shutil.ignore_patterns("__pycache__"))
        result = run_tool("-p", str(os.getpid()), "--events", "/tmp/x.jsonl", user_prefix=prefix,
                          tool=tool, cwd="/")
    finally:
        shutil.rmtree(copy_dir)
    assert_one_line_error(result, "must run as root")


def test_bcc_missing():
    if os.geteuid() != 0:
        ci_skip("not root: the root check comes first, see test_not_root")
    # -S leaves site and dist-packages off sys.path: Python without the bcc module.
    result = run_tool("-p", str(os.getpid()), "--events", "/tmp/x.jsonl", python_flags=("-S",))
    assert_one_line_error(result, "BPF unavailable: python module bcc not found")


def test_same_file_for_both_outputs():
    assert_one_line_error(run_tool("-p", str(os.getpid()), "--events", "/tmp/x.out",
                                   "--folded", "/tmp/../tmp/x.out"),
                          "--folded and --events name the same file")


def test_unwritable_output(tmp_path):
    if os.geteuid() != 0:
        ci_skip("not root: the root check comes before the output check")
    # A directory where the file should be: not writable even for root.
    target = tmp_path / "events.jsonl"
    target.mkdir()
    assert_one_line_error(run_tool("-p", str(os.getpid()), "--events", str(target)),
                          "cannot write %s: is a directory" % target)


def test_thread_maps_must_be_a_known_kind():
    assert_one_line_error(run_tool("-p", str(os.getpid()), "--events", "/tmp/x.jsonl",
                                   "--thread-maps", "tree"),
                          "argument --thread-maps: invalid choice: 'tree'")


@pytest.mark.parametrize("content,slots", [
    ("32768\n", 32768),        # Linux's default on machines with few CPUs: arrays
    ("131072\n", 131072),      # the largest pid_max that still gets arrays
    ("4194304\n", 0),          # the 64-bit maximum: hashes
    ("many\n", 0),             # unreadable: hashes
])
def test_thread_arrays_follow_pid_max(tmp_path, content, slots):
    pid_max = tmp_path / "pid_max"
    pid_max.write_text(content)
    assert kernel.thread_array_slots(str(pid_max)) == slots
    assert kernel.thread_array_slots(str(tmp_path / "missing")) == 0


def btf_blob(task_struct_flag=0):
    """A small BTF blob: an int, a function prototype and an enum before struct task_struct, whose
    members pid and stack sit at bytes 12 and 32 (with task_struct_flag, as kind_flag offsets that
    carry a bit field size in their top byte)."""
    import struct
    strings = b"\0int\0task_struct\0pid\0stack\0RED\0"
    off = {name: strings.index(name.encode() + b"\0") for name in ("int", "task_struct", "pid",
                                                                   "stack", "RED")}
    types = b""
    types += struct.pack("<III", off["int"], 1 << 24, 4) + struct.pack("<I", 32)          # INT
    types += struct.pack("<III", 0, (13 << 24) | 2, 1) + struct.pack("<IIII", 0, 1, 0, 1)  # FUNC_PROTO
    types += struct.pack("<III", 0, (6 << 24) | 1, 4) + struct.pack("<Ii", off["RED"], 0)  # ENUM
    info = (4 << 24) | 2 | (task_struct_flag << 31)
    bits = (lambda b: (3 << 24) | b) if task_struct_flag else (lambda b: b)
    types += struct.pack("<III", off["task_struct"], info, 64)                             # STRUCT
    types += struct.pack("<III", off["pid"], 1, bits(96))
    types += struct.pack("<III", off["stack"], 1, bits(256))
    header = struct.pack("<HBBIIIII", 0xeB9F, 1, 0, 24, 0, len(types), len(types), len(strings))
    return header + types + strings


@pytest.mark.parametrize("flag", [0, 1])
def test_btf_member_offsets_of_a_struct(flag):
    assert kernel.btf_member_offsets(btf_blob(flag), "task_struct", {"stack", "pid"}) == {
        "pid": 12, "stack": 32}
    assert kernel.btf_member_offsets(btf_blob(flag), "mm_struct", {"stack"}) is None


def test_task_stack_offset_without_btf(tmp_path):
    assert kernel.task_stack_offset(str(tmp_path / "missing")) == -1
    not_btf = tmp_path / "vmlinux"
    not_btf.write_bytes(b"\x7fELF" + bytes(60))
    assert kernel.task_stack_offset(str(not_btf)) == -1
    cut = tmp_path / "cut"
    cut.write_bytes(btf_blob()[:40])
    assert kernel.task_stack_offset(str(cut)) == -1


def test_task_stack_offset_of_this_kernel():
    if not os.access(kernel.BTF_VMLINUX, os.R_OK):
        ci_skip("no readable %s (a kernel without BTF; Debian's have it)" % kernel.BTF_VMLINUX)
    # task_struct starts with thread_info (x86-64, arm64) and __state: stack follows within 64 bytes.
    assert 0 < kernel.task_stack_offset() < 64


def test_ebpf_prints_the_program_and_loads_nothing():
    # As bcc's tools: the assembled program with the options filled in, no root, no outputs needed.
    result = run_tool("-p", "4242", "--ebpf", "--min-us", "7", "--stack-every", "4")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    text = result.stdout
    assert text.startswith("// offwake's BPF program")
    assert "(pid_tgid >> 32) == 4242" in text
    assert "< 7000)" in text  # --min-us, in ns
    assert "struct event_t {" in text and "TRACEPOINT_PROBE(sched, sched_switch)" in text
    # Nothing left unfilled outside comments.
    code = "\n".join(line.split("//")[0] for line in text.splitlines())
    assert not re.search(r"\b(TGID|MIN_NS|STACK_EVERY|RECORD_LAYOUT|STACK_REUSE|BATCHES)\b", code)


def test_ebpf_still_checks_its_options():
    assert_one_line_error(run_tool("-p", "0", "--ebpf"), "-p must be a positive process id")
