"""offwake.py misuse: every bad input is one line on stderr and exit status 2, checked before any BPF work."""
import os
import shutil
import tempfile
import threading

import pytest

from conftest import TOOL, run_tool


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
            pytest.skip("running as root and setpriv (util-linux) is missing to drop privileges")
        prefix = (setpriv, "--reuid=65534", "--regid=65534", "--clear-groups")
    else:
        prefix = ()
    # A copy nobody can read: the checkout may sit in a directory only root can enter.
    copy_dir = tempfile.mkdtemp(prefix="offwake-test-")
    try:
        os.chmod(copy_dir, 0o755)
        tool = shutil.copy(TOOL, copy_dir)
        os.chmod(tool, 0o755)
        result = run_tool("-p", str(os.getpid()), "--events", "/tmp/x.jsonl", user_prefix=prefix,
                          tool=tool, cwd="/")
    finally:
        shutil.rmtree(copy_dir)
    assert_one_line_error(result, "must run as root")


def test_bcc_missing():
    if os.geteuid() != 0:
        pytest.skip("not root: the root check comes first, see test_not_root")
    # -S leaves site and dist-packages off sys.path: Python without the bcc module.
    result = run_tool("-p", str(os.getpid()), "--events", "/tmp/x.jsonl", python_flags=("-S",))
    assert_one_line_error(result, "BPF unavailable: python module bcc not found")


def test_same_file_for_both_outputs():
    assert_one_line_error(run_tool("-p", str(os.getpid()), "--events", "/tmp/x.out",
                                   "--folded", "/tmp/../tmp/x.out"),
                          "--folded and --events name the same file")


def test_unwritable_output(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("not root: the root check comes before the output check")
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
def test_thread_arrays_follow_pid_max(offwake, tmp_path, content, slots):
    pid_max = tmp_path / "pid_max"
    pid_max.write_text(content)
    assert offwake.thread_array_slots(str(pid_max)) == slots
    assert offwake.thread_array_slots(str(tmp_path / "missing")) == 0
