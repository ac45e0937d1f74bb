# The two commands of the README, and the pieces they are made of.
MVN ?= mvn -B -ntp
# Debian's interpreter: it is the one that has python3-bpfcc once bpf/setup.sh has run.
PYTHON ?= /usr/bin/python3

.PHONY: demo test build dist setup clean

demo: build
	java -jar analyzer/target/hopscope.jar demo

build:
	$(MVN) -q package -DskipTests

# The release archive, target/hopscope-VERSION.tar.gz: bin/hopscope (finds a JDK 17+), the CLI and the
# agent in lib/, the eBPF tracers, the docs (scripts/dist.sh).
dist: build
	bash scripts/dist.sh

setup:
	bash bpf/setup.sh

# The integration tests also run on a second JDK (21+: virtual threads): the newest found, or under
# CI one that scripts/second-jdk.sh installs; and the agent's on JDK 11, the oldest it supports
# (scripts/jdk11.sh, the same way); without one they skip, except under CI=true.
# TEST_PROFILES=-Pslow-tests adds the slow ones (the bench IT): .ci/run does, once.
TEST_PROFILES ?=
test: setup
	HOPSCOPE_JDK2="$$(bash scripts/second-jdk.sh $(if $(CI),--install,) || true)" \
	HOPSCOPE_JDK11="$$(bash scripts/jdk11.sh $(if $(CI),--install,) || true)" \
	$(MVN) verify $(TEST_PROFILES)
	bash scripts/dist.sh
	$(PYTHON) -m pytest -q -rs bpf/tests scripts/tests

clean:
	$(MVN) -q clean
