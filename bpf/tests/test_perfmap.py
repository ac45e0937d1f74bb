"""Symbolisation of JIT addresses from a JVM perf map file (the format jcmd Compiler.perfmap writes)."""
from offwake_lib import symbols

MAP_TEXT = """\
0x00007f9610ec7180 0x0000000000000078 void java.lang.Object.<init>()
0x00007f9610ec74a0 0x0000000000000200 void java.lang.System.arraycopy(java.lang.Object, int, java.lang.Object, int, int)
0x00007f9609682f60 0x0000000000000400 boolean java.util.concurrent.CompletableFuture$Signaller.isReleasable()
7f9600001000 20 Interpreter
this line is not a map entry
0x00007f9600002000 zz bad size
0x00007f9600003000 0x0 zero-sized stub
"""


def load(tmp_path):
    path = tmp_path / "perf-4242.map"
    path.write_text(MAP_TEXT)
    return symbols.PerfMap.load(str(path))


def test_parses_entries_and_skips_malformed_lines(tmp_path):
    perf_map = load(tmp_path)
    assert len(perf_map) == 4


def test_lookup_inside_and_at_bounds(tmp_path):
    perf_map = load(tmp_path)
    assert perf_map.lookup(0x7f9610ec7180) == "void java.lang.Object.<init>()"
    assert perf_map.lookup(0x7f9610ec7180 + 0x77) == "void java.lang.Object.<init>()"
    assert perf_map.lookup(0x7f9610ec74a0 + 0x10) == \
        "void java.lang.System.arraycopy(java.lang.Object, int, java.lang.Object, int, int)"
    assert perf_map.lookup(0x7f9609682f60 + 0x3ff) == \
        "boolean java.util.concurrent.CompletableFuture$Signaller.isReleasable()"


def test_lookup_without_0x_prefix(tmp_path):
    assert load(tmp_path).lookup(0x7f9600001010) == "Interpreter"


def test_lookup_misses(tmp_path):
    perf_map = load(tmp_path)
    assert perf_map.lookup(0x7f9610ec7180 + 0x78) is None   # one past the end
    assert perf_map.lookup(0x7f9600000fff) is None          # before the first entry
    assert perf_map.lookup(0x7f9600003000) is None          # zero-sized entries are dropped
    assert perf_map.lookup(0xffffffffffff) is None
