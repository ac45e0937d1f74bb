# Sourced, from the repository root, by the bench scripts that run the agent's test classes (the JMH
# benchmarks, HookCpuCost, TraceIdCost): unless NO_BUILD is set, builds the agent jar and writes its
# test class path in one reactor run (the agent's settings module resolves from the reactor only);
# then AGENT_JAR is the agent to run (default this build's; another build's to compare two) and
# BENCH_CP the agent's test classes with their dependencies.
AGENT_JAR=${AGENT_JAR:-$PWD/agent/target/hopscope-agent.jar}
MVN=${MVN:-mvn -B -ntp -q}
if [ -z "${NO_BUILD:-}" ]; then
  $MVN -pl samples,agent -am -DskipTests package dependency:build-classpath -Dmdep.includeScope=test \
      -Dmdep.outputFile=target/bench.classpath
fi
BENCH_CP="agent/target/test-classes:$(cat agent/target/bench.classpath)"
