#!/usr/bin/env bash
# Builds an OpenTelemetry Collector for the ITs from its Go modules, with the Collector's own builder
# (go.opentelemetry.io/collector/cmd/builder): the OTLP receiver, the file, debug and Prometheus
# exporters, and the bearer token authenticator (the credentials tests' receiver refuses a wrong
# token as a fleet's Collector does), nothing else. Cached under ~/.cache/hopscope/otelcol-VERSION-HASH, HASH the components'
# list: a second run prints the binary's path at once, a changed list builds a new collector.
# 0.161.0: the contrib file exporter's newest release whose test modules the Go module proxy serves
# (0.165.0's needs a module version the proxy refuses, and the builder resolves test imports too).
#
# USAGE: scripts/otelcol.sh            prints the path of the collector binary, building it if needed
#
# Cost, the first time: 3.6 min of CPU (user) and about 1 GB of Go module cache, from the Go module
# proxy only; on a 2-core machine shared with seven other builds (load 29) that was 32 min of wall
# time, alone it is a few minutes. Nothing after. Prints nothing and exits 3 when go is absent, so a
# caller can skip.
set -euo pipefail

VERSION=0.161.0
COMPONENTS="receivers:
  - gomod: go.opentelemetry.io/collector/receiver/otlpreceiver v$VERSION
exporters:
  - gomod: go.opentelemetry.io/collector/exporter/debugexporter v$VERSION
  - gomod: github.com/open-telemetry/opentelemetry-collector-contrib/exporter/fileexporter v$VERSION
  - gomod: github.com/open-telemetry/opentelemetry-collector-contrib/exporter/prometheusexporter v$VERSION
extensions:
  - gomod: github.com/open-telemetry/opentelemetry-collector-contrib/extension/bearertokenauthextension v$VERSION"
HASH=$(printf '%s' "$COMPONENTS" | sha256sum | cut -c1-12)
CACHE="${HOPSCOPE_CACHE:-$HOME/.cache/hopscope}/otelcol-$VERSION-$HASH"
BIN="$CACHE/otelcol-hopscope"

if [ -x "$BIN" ]; then
  echo "$BIN"
  exit 0
fi
if ! command -v go >/dev/null; then
  echo "otelcol: go is not installed" >&2
  exit 3
fi

mkdir -p "$CACHE"
# Two ITs may ask at once on a cold cache (failsafe runs two classes at a time): the first to take
# the lock builds, the other waits for it and finds the binary. Each build also writes into a private
# directory and renames its binary into place, so a reader never sees a half-written one.
exec 9>"$CACHE/build.lock"
flock 9
if [ -x "$BIN" ]; then
  echo "$BIN"
  exit 0
fi
WORK=$(mktemp -d "$CACHE/build.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
cat >"$WORK/builder.yaml" <<YAML
dist:
  name: otelcol-hopscope
  description: OpenTelemetry Collector for hopscope's integration tests
  output_path: $WORK/build
$COMPONENTS
YAML
# The builder's own default providers (env, file, yaml...) stay: the tests give a config file.
start=$(date +%s)
GOFLAGS=-mod=mod go run "go.opentelemetry.io/collector/cmd/builder@v$VERSION" --config "$WORK/builder.yaml" >"$CACHE/build.log" 2>&1 || {
  echo "otelcol: the collector build failed, see $CACHE/build.log" >&2
  exit 1
}
mv "$WORK/build/otelcol-hopscope" "$BIN.tmp.$$"
mv -f "$BIN.tmp.$$" "$BIN"
echo "otelcol: built in $(( $(date +%s) - start )) s" >&2
echo "$BIN"
