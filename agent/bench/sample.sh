# Sourced, from the repository root, by the bench scripts that run the pipeline sample: its jar
# (SAMPLES), its arguments (SAMPLE_ARGS, default OkHttp sync, --parallel 8, 1 KiB: bench's
# okhttp-sync-1k) as the array SAMPLE, and the java to run (JAVA, default the PATH's).
SAMPLES=${SAMPLES:-samples/target/hopscope-samples.jar}
JAVA=${JAVA:-java}
read -r -a SAMPLE <<< "${SAMPLE_ARGS:-pipeline --mode sync --http-client okhttp --parallel 8 --size 1024}"

# read_configurations TOOL NAME=JAVA_OPTIONS ...: the JVM configurations to compare, into the arrays
# names and opts, in the order given; one without = is TOOL's usage error (exit 2).
read_configurations() {
  local tool=$1 c
  shift
  names=() opts=()
  for c in "$@"; do
    [[ $c == *=* ]] || { echo "$tool: '$c' is not NAME=JAVA_OPTIONS" >&2; exit 2; }
    names+=("${c%%=*}"); opts+=("${c#*=}")
  done
}
