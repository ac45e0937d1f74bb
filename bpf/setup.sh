#!/usr/bin/env bash
# Installs what hopscope's eBPF tools (bpf/offwake.py) and their tests need on Debian, as root, and
# says what it did and why. Safe to run again: each step checks first and only acts when needed.
#
#   1. Debian's bcc: bpfcc-tools and python3-bpfcc (the bcc module for /usr/bin/python3), and
#      python3-pytest (the bpf tests run under /usr/bin/python3, the interpreter that has bcc), and
#      bpftool (test_robustness.py lists loaded programs with it; without it the test counts them
#      from /proc), and gcc (test_layout.py compiles the record layout's C to check it against ctypes).
#   2. Kernel headers: bcc compiles its C program at run time against the headers it finds in
#      /lib/modules/$(uname -r)/build (and .../source). When the running kernel's own headers are not
#      packaged (custom or VM kernels), install the distribution's nearest linux-headers package and
#      link it there. That is sound for offwake because it uses tracepoints only: their record layouts
#      are read from the running kernel's tracefs, not from the headers.
#   3. tracefs mounted at /sys/kernel/tracing (bcc reads tracepoint formats there).
#   4. A smoke test: compile and load a one-tracepoint program. A failure is a warning (the tests
#      that load programs then skip, saying why), except under CI=true, where it ends the run: the
#      machine CI runs on loads tracepoint programs, and those tests must run there, not skip.
set -euo pipefail

say() { echo "setup: $*"; }

if [ "$(id -u)" -ne 0 ]; then
  echo "setup: must run as root (installs Debian packages, mounts tracefs)" >&2
  exit 2
fi
if ! command -v apt-get >/dev/null; then
  echo "setup: apt-get not found: this script installs Debian packages; install bcc (python3), pytest and kernel headers by hand" >&2
  exit 2
fi

export DEBIAN_FRONTEND=noninteractive
apt_updated=0
apt_update() {
  if [ "$apt_updated" -eq 0 ]; then
    say "apt-get update (package lists are needed to install or look up packages)"
    apt-get update -qq
    apt_updated=1
  fi
}
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

# 1. bcc and pytest.
need=()
for pkg in bpfcc-tools python3-bpfcc python3-pytest bpftool gcc; do
  installed "$pkg" || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
  apt_update
  say "installing ${need[*]} (bcc for /usr/bin/python3, pytest, bpftool and gcc for the bpf tests)"
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
else
  say "ok: bpfcc-tools, python3-bpfcc, python3-pytest, bpftool, gcc already installed"
fi

# 2. Kernel headers where bcc looks for them.
release=$(uname -r)
moddir=/lib/modules/$release
if [ -e "$moddir/build/include" ] || [ -n "${BCC_KERNEL_SOURCE:-}" ]; then
  say "ok: kernel headers for $release found (${BCC_KERNEL_SOURCE:-$moddir/build})"
else
  apt_update
  arch=$(dpkg --print-architecture)
  if apt-cache show "linux-headers-$release" >/dev/null 2>&1; then
    pkg="linux-headers-$release"
    say "using $pkg (the running kernel's own headers; bcc compiles against them)"
  else
    # Nearest packaged version by major.minor, the newest build among equals. A tracepoint-only
    # program does not depend on the exact version: the layouts come from the running kernel.
    want=$(echo "$release" | awk -F. '{ print $1 * 1000 + $2 }')
    pkg=$(apt-cache pkgnames linux-headers- \
      | grep -E "^linux-headers-[0-9]+\.[0-9]+\.[0-9]+[^ ]*-$arch\$" \
      | grep -vE -- '-(rt|cloud)-' \
      | sed -E "s/^linux-headers-(.*)-$arch\$/\1/" \
      | sort -V \
      | awk -F'[.-]' -v want="$want" '{ d = $1 * 1000 + $2 - want; if (d < 0) d = -d; print d, $0 }' \
      | sort -s -k1,1n | awk 'NR == 1 { best = $1 } $1 == best { v = $2 } END { if (v != "") print v }' \
      || true)
    if [ -z "$pkg" ]; then
      echo "setup: no linux-headers-*-$arch package found: install kernel headers and set BCC_KERNEL_SOURCE" >&2
      exit 2
    fi
    pkg="linux-headers-$pkg-$arch"
    say "the running kernel $release has no Debian headers package; using the nearest, $pkg" \
        "(offwake uses tracepoints only, whose layouts come from the running kernel's tracefs;" \
        "Debian's headers package also pulls in its kernel image package, which is never booted here)"
  fi
  if installed "$pkg"; then
    say "ok: $pkg already installed"
  else
    say "installing $pkg"
    apt-get install -y -qq --no-install-recommends "$pkg" >/dev/null
  fi
  version=${pkg#linux-headers-}
  if [ "$version" != "$release" ]; then
    mkdir -p "$moddir"
    ln -sfn "/usr/src/linux-headers-$version" "$moddir/build"
    common="/usr/src/linux-headers-${version%-"$arch"}-common"
    if [ -d "$common" ]; then
      ln -sfn "$common" "$moddir/source"
    fi
    say "linked $moddir/build -> /usr/src/linux-headers-$version${common:+ and source -> $common}" \
        "(where bcc looks for the running kernel's headers)"
  fi
fi

# 3. tracefs.
if [ -d /sys/kernel/tracing/events ] || [ -d /sys/kernel/debug/tracing/events ]; then
  say "ok: tracefs is mounted"
else
  mount -t tracefs tracefs /sys/kernel/tracing
  say "mounted tracefs at /sys/kernel/tracing (bcc reads tracepoint formats there)"
fi

# 4. Smoke test: does bcc compile and load a tracepoint program here? Off CI a warning: the tests
# then skip the real runs with the reason, and say it. Under CI=true an error: they must run there.
if out=$(/usr/bin/python3 - 2>&1 <<'EOF'
from bcc import BPF
BPF(text="TRACEPOINT_PROBE(sched, sched_switch) { return 0; }", cflags=["-w"]).cleanup()
EOF
); then
  say "ok: bcc compiled and loaded a tracepoint program"
elif [ "${CI:-}" = true ]; then
  echo "setup: bcc could not compile or load a tracepoint program, and CI=true: the tests that load" \
       "programs must run under CI, not skip:" >&2
  echo "$out" | tail -3 | sed 's/^/setup:   /' >&2
  exit 1
else
  say "warning: bcc could not compile or load a tracepoint program; the real-run tests will skip:"
  echo "$out" | tail -3 | sed 's/^/setup:   /'
fi
