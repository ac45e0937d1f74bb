"""Facts of the running kernel the BPF program is built for: pid_max, and task_struct.stack's offset
from the kernel's BTF."""
import struct

# Per-thread state is an array indexed by thread id when every id fits in this many entries (224
# bytes each: about 30 MB at most), else a hash of --max-threads entries.
THREAD_ARRAY_MAX = 131072


def thread_array_slots(path="/proc/sys/kernel/pid_max"):
    """Entries for arrays indexed by thread id (the kernel's pid_max), or 0 to use hashes."""
    try:
        with open(path) as f:
            pid_max = int(f.read().strip())
    except (OSError, ValueError):
        return 0
    return pid_max if 0 < pid_max <= THREAD_ARRAY_MAX else 0


BTF_VMLINUX = "/sys/kernel/btf/vmlinux"


def btf_member_offsets(data, struct_name, members):
    """Byte offsets of the named members of the struct struct_name in a BTF blob (the kernel's own
    type information, /sys/kernel/btf/vmlinux), as {name: offset}; None when the blob is not BTF
    or has no such struct. Only top-level members, and not bit fields' bits."""
    if len(data) < 24:
        return None
    magic, _, _, hdr_len, type_off, type_len, str_off, _ = struct.unpack_from("<HBBIIIII", data)
    if magic != 0xeB9F:
        return None
    types, strings = hdr_len + type_off, hdr_len + str_off

    def name(off):
        return data[strings + off:data.index(b"\0", strings + off)]

    # Bytes after the 12-byte btf_type header: fixed for some kinds, per member (vlen) for others.
    fixed = {1: 4, 3: 12, 14: 4, 17: 4}                     # INT, ARRAY, VAR, DECL_TAG
    per_item = {4: 12, 5: 12, 6: 8, 13: 8, 15: 12, 19: 12}  # STRUCT, UNION, ENUM, FUNC_PROTO,
    wanted = struct_name.encode()                            # DATASEC, ENUM64
    pos, end = types, types + type_len
    while pos + 12 <= end:
        name_off, info, _ = struct.unpack_from("<III", data, pos)
        kind, vlen = (info >> 24) & 0x1f, info & 0xffff
        body = pos + 12
        pos = body + fixed.get(kind, 0) + per_item.get(kind, 0) * vlen
        if kind == 4 and name(name_off) == wanted:
            found = {}
            for i in range(vlen):
                m_name, _, m_off = struct.unpack_from("<III", data, body + 12 * i)
                label = name(m_name).decode("ascii", "replace")
                if label in members:
                    # With kind_flag set the low 24 bits are the bit offset.
                    found[label] = (m_off & 0xffffff if info >> 31 else m_off) // 8
            return found
    return None


def task_stack_offset(path=BTF_VMLINUX):
    """Offset of task_struct.stack in the running kernel, from its BTF, or -1 when unknown."""
    try:
        with open(path, "rb") as f:
            offsets = btf_member_offsets(f.read(), "task_struct", {"stack"})
    except (OSError, ValueError, struct.error):
        return -1
    return offsets["stack"] if offsets and "stack" in offsets else -1
