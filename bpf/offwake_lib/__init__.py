"""offwake.py's parts: the record layout, the BPF program's text, the tracer, and the decoding
of its records into the --events and --folded outputs.
"""

PROG = "offwake"


class ToolError(Exception):
    """A user-facing problem: printed as one line, exit status 2."""
