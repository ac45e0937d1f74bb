#!/usr/bin/env bash
# JMH benchmark of what the agent's hooks cost on a request's own thread: one request boundary, and
# a chain of nested policy spans inside a request and outside one (HookBenchmark's javadoc says how
# to read the figures). Runs it with the agent off, on without a recording (events disabled), and on
# with its default recording (hopscope.jfc), through agent/bench/jmh-with-agent.sh. Builds what it
# needs; prints JMH's result tables.
# USAGE: agent/bench/hooks.sh            (from the repository root; about 3 minutes;
#        shorter: JMH_ARGS="-wi 2 -i 3 -r 1 -w 1" agent/bench/hooks.sh)
set -euo pipefail
cd "$(dirname "$0")/../.."
B=io.hopscope.bench.HookBenchmark
exec agent/bench/jmh-with-agent.sh HookBenchmark "requests=$B#inRequest;$B#inBareRequest,policies=$B\$Stage"
