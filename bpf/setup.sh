#!/usr/bin/env bash
# Installs what hopscope's eBPF tools and their tests need. Filled in by the eBPF issue.
set -euo pipefail
if ! /usr/bin/python3 -c 'import pytest' 2>/dev/null; then
  echo "setup: installing python3-pytest (Debian's python3 runs the bpf tests)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-pytest
fi
