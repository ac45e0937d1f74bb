"""Waiting for the traced process's exit."""
import os
import select
import time

def process_alive(pid):
    """False once the process has exited (a zombie waiting to be reaped counts as exited)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            # The state follows the parenthesised name, which may itself hold ") ".
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except (OSError, IndexError):
        return False


class ExitWatch:
    """Waits for a while or until a process exits, whichever comes first.

    Through a pidfd, which becomes readable when the process exits: the wait is one poll() and the
    check costs nothing. Reading /proc/PID/stat instead, after every wait, cost this tool more
    CPU than draining the ring buffer did (about 170 us a read on a VM whose caches the sleep had
    cooled). That remains the fallback where pidfds are not (Linux before 5.3, or PID not a
    process but one of its threads)."""

    def __init__(self, pid):
        self.pid = pid
        self.poll = None
        try:
            fd = os.pidfd_open(pid)
        except (AttributeError, OSError):
            return
        self.fd = fd
        self.poll = select.poll()
        self.poll.register(fd, select.POLLIN)

    def wait(self, seconds):
        """Waits up to seconds, less once the process has exited; False then."""
        if self.poll is None:
            time.sleep(seconds)
            return process_alive(self.pid)
        return not self.poll.poll(seconds * 1000)

    def close(self):
        if self.poll is not None:
            os.close(self.fd)
