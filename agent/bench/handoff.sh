#!/usr/bin/env bash
# JMH benchmark of the per-handoff cost (ThreadPoolExecutor.execute + task run), with and without a
# current request, agent off and on (agent/bench/jmh-with-agent.sh). Builds what it needs; prints
# JMH's result tables.
# USAGE: agent/bench/handoff.sh            (from the repository root; about 2 minutes;
#        shorter: JMH_ARGS="-wi 2 -i 3 -r 1 -w 1" agent/bench/handoff.sh)
set -euo pipefail
cd "$(dirname "$0")/../.."
B=io.hopscope.bench.HandoffBenchmark
exec agent/bench/jmh-with-agent.sh HandoffBenchmark "requests=$B#inRequest;$B#inRequestSubmitOnly"
