#!/usr/bin/env bash
# Assembles the release archive from a built checkout (make build): target/hopscope-VERSION.tar.gz,
# VERSION the Maven project's, holding one folder hopscope-VERSION/ with
#   bin/hopscope                 the launcher (scripts/hopscope): finds a JDK 17+, runs lib/hopscope.jar
#   lib/hopscope.jar             the CLI
#   lib/hopscope-agent.jar       the agent (live and attach load it from here; -javaagent:lib/...)
#   bpf/                         the eBPF tracers with their library, setup.sh and example
#   docs/, README.md             the reference
# so that a user runs `hopscope live ...` as they run asprof, and a sidecar image needs one COPY.
#
# USAGE: scripts/dist.sh       prints the archive's path
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(sed -n '0,/<version>/s/.*<version>\(.*\)<\/version>.*/\1/p' pom.xml)
for jar in analyzer/target/hopscope.jar agent/target/hopscope-agent.jar; do
  if [ ! -f "$jar" ]; then
    echo "dist: $jar not found; run make build first" >&2
    exit 2
  fi
done

name=hopscope-$version
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/$name
mkdir -p "$root/bin" "$root/lib" "$root/bpf" "$root/docs"
install -m 0755 scripts/hopscope "$root/bin/hopscope"
cp analyzer/target/hopscope.jar agent/target/hopscope-agent.jar "$root/lib/"
cp bpf/offwake.py bpf/*.bpf.c bpf/setup.sh bpf/offwake_example.txt "$root/bpf/"
mkdir -p "$root/bpf/offwake_lib"
cp bpf/offwake_lib/*.py "$root/bpf/offwake_lib/"
cp docs/*.md docs/*.png "$root/docs/"
cp README.md "$root/"

mkdir -p target
archive=target/$name.tar.gz
# Owner and times fixed, entries sorted: the same checkout makes the same archive.
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime='2026-01-01 00:00Z' -C "$work" -czf "$archive" "$name"
echo "$archive"
