"""Records in arrival order, each interval with the end of the futex call it slept in."""
import collections

from .layout import KIND_FUTEX_END


def in_arrival_order(events, window_ns=2000000000, max_waiting=200000):
    """(interval, futex_end) pairs in arrival order, from decoded events (dicts, see layout.Event).

    An interval inside a futex call (KIND_INTERVAL) is paired with that call's end: carried by the
    call's last interval itself (futex_exit_ns, the usual case), or by a record of its own
    (KIND_FUTEX_END) when the last interval went without it; either way it also ends the call's
    earlier intervals. An interval waits in a queue until its end
    arrives, or until it is window_ns older than the newest event or max_waiting intervals wait
    behind it (then it goes without its end). Records reach user space in per-CPU batches, so an
    end can also arrive before its interval (the thread changed CPU between the two): ends are kept for the same window
    and number, and given to intervals of their call that arrive later. So the memory this takes
    stays bounded whatever the trace's length. futex_end is (exit_ns, ret) or None.
    """
    queue = collections.deque()
    waiting = {}    # (tid, futex enter ns) -> queued intervals with that key
    ends = {}       # (tid, futex enter ns) -> (exit_ns, ret), for ends within the window
    end_keys = collections.deque()  # (exit_ns, key) of the ends, in arrival order
    newest = 0

    def release(key):
        if key is None:
            return None
        left = waiting[key] - 1
        if left:
            waiting[key] = left
        else:
            del waiting[key]
        return ends.get(key)

    for ev in events:
        if ev["futex_exit_ns"]:
            key = (ev["tid"], ev["futex_enter_ns"])
            ends[key] = (ev["futex_exit_ns"], ev["futex_ret"])
            end_keys.append((ev["futex_exit_ns"], key))
            newest = max(newest, ev["futex_exit_ns"])
        if ev["kind"] != KIND_FUTEX_END:
            key = (ev["tid"], ev["futex_enter_ns"]) if ev["futex_enter_ns"] else None
            if key is not None:
                waiting[key] = waiting.get(key, 0) + 1
            queue.append((ev, key))
            newest = max(newest, ev["on_ns"])
        while queue:
            head, key = queue[0]
            if (key is not None and key not in ends and len(queue) < max_waiting
                    and head["on_ns"] + window_ns > newest):
                break
            queue.popleft()
            yield head, release(key)
        while end_keys and (end_keys[0][0] + window_ns <= newest or len(end_keys) > max_waiting):
            _, key = end_keys.popleft()
            ends.pop(key, None)
    while queue:
        head, key = queue.popleft()
        yield head, release(key)
