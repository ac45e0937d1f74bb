"""The --folded output: offwaketime -f's format, off-CPU time summed per wakee--waker stack pair."""

def folded_frame(name):
    """A frame name made safe for the folded format (';' separates frames)."""
    return name.replace(";", ":").replace("\n", " ")


def folded_line(wakee_comm, wakee_user, wakee_kernel, waker_kernel,
                waker_user, waker_comm, total_us):
    """One line of offwaketime -f output.

    Stacks are given leaf first (as stack walks return them). The wakee part
    runs root to leaf, user then kernel; after "--" the waker part runs leaf
    to root, kernel then user, ending with the waker's name, so a flame
    graph draws the waker's stack hanging from the wakee's. A stack that
    could not be read is None and prints as "[Missed User Stack]" or
    "[Missed Kernel Stack]", as offwaketime prints it.
    """
    line = [wakee_comm]
    line += ["[Missed User Stack]"] if wakee_user is None else list(reversed(wakee_user))
    line += ["[Missed Kernel Stack]"] if wakee_kernel is None else list(reversed(wakee_kernel))
    line.append("--")
    line += ["[Missed Kernel Stack]"] if waker_kernel is None else list(waker_kernel)
    line += ["[Missed User Stack]"] if waker_user is None else list(waker_user)
    line.append(waker_comm)
    return "%s %d" % (";".join(folded_frame(f) for f in line), total_us)


class FoldedTotals:
    """Off-CPU time summed per stack pair, one interval record (events schema) at a time.

    A sampled interval's time counts its stack_weight times (--stack-every N: one interval in N has
    stacks, and stands for N); an interval without sampled stacks (weight 0) is left out, so each
    line is an estimate of the time all intervals spent on that stack pair.
    """

    def __init__(self):
        self.totals = {}

    def add(self, r):
        weight = r.get("stack_weight", 1)
        if weight == 0:
            return
        stack = r["stack"]
        waker = r["waker"]
        wstack = r["waker_stack"]
        key = (r["comm"],
               _tuple(stack["user"]), _tuple(stack["kernel"]),
               _tuple(wstack["kernel"]) if wstack else (),
               _tuple(wstack["user"]) if wstack else (),
               waker["comm"] if waker else "")
        self.totals[key] = self.totals.get(key, 0) + r["offcpu_ns"] * weight

    def lines(self):
        """Folded lines, smallest total first."""
        lines = []
        for key, total_ns in sorted(self.totals.items(), key=lambda kv: kv[1]):
            comm, wu, wk, kk, ku, waker_comm = key
            lines.append(folded_line(comm, _list(wu), _list(wk), _list(kk), _list(ku),
                                     waker_comm, total_ns // 1000))
        return lines



def _tuple(frames):
    return None if frames is None else tuple(frames)


def _list(frames):
    return None if frames is None else list(frames)
