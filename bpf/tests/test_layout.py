"""The record layout is defined once (offwake_lib/layout.py); the BPF program's C structs and the
ctypes types user space reads with are both generated from it. This compiles the generated C with
the machine's C compiler (no root, no BPF) and checks that every field of struct event_t and
struct batch_t sits where ctypes reads it, and that the program uses the generated names."""
import ctypes as ct
import mmap
import os
import re
import shutil
import subprocess

import pytest

from conftest import ci_skip
from offwake_lib import layout, program

CC = shutil.which("cc") or shutil.which("gcc")


def c_layout(tmp_path, struct, fields):
    """{field: (offset, size)} and the struct's size, as the C compiler lays them out."""
    prints = "".join(
        '    printf("%s %%zu %%zu\\n", offsetof(struct %s, %s), sizeof(((struct %s *)0)->%s));\n'
        % (name, struct, name, struct, name) for name in fields)
    source = tmp_path / "layout.c"
    source.write_text(
        "#include <stddef.h>\n#include <stdio.h>\n#include <stdint.h>\n"
        "typedef uint64_t u64; typedef int64_t s64; typedef uint32_t u32; typedef int32_t s32;\n"
        "typedef uint16_t u16;\n"
        "#define TASK_COMM_LEN %d\n#define BATCH %d\n%s\n"
        "int main(void) {\n%s    printf(\"sizeof %%zu\\n\", sizeof(struct %s));\n    return 0;\n}\n"
        % (layout.TASK_COMM_LEN, layout.BATCH, layout.c_definitions(), prints, struct))
    binary = tmp_path / "layout"
    subprocess.run([CC, "-Wall", "-Werror", "-o", str(binary), str(source)], check=True,
                   capture_output=True, text=True)
    out = subprocess.run([str(binary)], check=True, capture_output=True, text=True).stdout
    found = {}
    for line in out.splitlines():
        parts = line.split()
        found[parts[0]] = tuple(int(p) for p in parts[1:])
    return found


@pytest.mark.parametrize("struct, ctype", [("event_t", layout.Event), ("batch_t", layout.Batch)])
def test_c_and_ctypes_agree_on_every_field(tmp_path, struct, ctype):
    if CC is None:
        ci_skip("no C compiler (cc, gcc) on PATH: bpf/setup.sh installs gcc")
    names = [name for name, _ in ctype._fields_]
    found = c_layout(tmp_path, struct, names)
    assert found.pop("sizeof") == (ct.sizeof(ctype),)
    assert sorted(found) == sorted(names)
    for name in names:
        field = getattr(ctype, name)
        assert found[name] == (field.offset, field.size), name


def test_kinds_and_counters_are_defined_once_and_used_by_name():
    text = program.assemble()
    defined = re.findall(r"^#define (CNT_\w+) (\d+)", text, re.M)
    assert [name for name, _ in defined] == [name for name, _ in layout.COUNTERS]
    assert [int(i) for _, i in defined] == list(range(len(layout.COUNTERS)))
    # Every counter the program counts is one of them, and each is counted somewhere.
    used = set(re.findall(r"count(?:_n)?\(\s*(?:user \? )?(CNT_\w+)", text))
    used |= set(re.findall(r": (CNT_\w+)\)", text))
    assert used == set(layout.COUNTER_INDEX)
    # No counter or kind by number.
    assert not re.search(r"\bcount(?:_n)?\(\s*\d", text)
    assert not re.search(r"->kind = \d", text)


def test_the_program_is_filled_completely():
    class Args:
        stacks, preempted_stacks, all_waker_stacks, no_stack_reuse = "both", False, False, False
        pid, min_us, stack_storage, buffer_pages, max_threads = 42, 5, 16384, 2048, 16384
        stack_every = 8
    text = program.program_text(Args, 32768, 2416)
    code = re.sub(r"//[^\n]*", "", text)
    left = set(re.findall(r"\b(%s)\b" % "|".join(program.placeholders(Args, 32768, 2416)), code))
    assert not left
    assert "RECORD_LAYOUT" not in code and "STACK_REUSE" not in code and "BATCHES" not in code
    assert "struct event_t {" in text and "static __always_inline s32 user_stack(" in text
    assert "(pid_tgid >> 32) == 42" in text


def test_missing_paste_line_is_an_error(tmp_path):
    broken = tmp_path / "broken.bpf.c"
    broken.write_text("int x;\n")
    with pytest.raises(ValueError, match="RECORD_LAYOUT"):
        program.assemble(str(broken), os.path.join(program.BPF_DIR, "offwake_stacks.bpf.c"))


def test_a_cpu_wakes_user_space_before_it_fills_a_quarter_of_its_share():
    batches = 2048 * mmap.PAGESIZE // ct.sizeof(layout.Batch)
    assert program.wake_every(2048, cpus=2) == batches // 8
    assert program.wake_every(2048, cpus=64) == batches // 256
    # A buffer that holds fewer batches than that: every batch wakes it.
    assert program.wake_every(8, cpus=2) == 1
