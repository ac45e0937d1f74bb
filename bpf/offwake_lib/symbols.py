"""Java frames' names: the JVM's perf map (/tmp/perf-PID.map), which jcmd asks the JVM to write."""
import os
import shutil
import subprocess
import sys
from bisect import bisect_right

from . import PROG

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
