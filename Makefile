# The two commands of the README, and the pieces they are made of.
MVN ?= mvn -B -ntp
# Debian's interpreter: it is the one that has python3-bpfcc once bpf/setup.sh has run.
PYTHON ?= /usr/bin/python3

.PHONY: demo test build setup clean

demo: build
	java -jar analyzer/target/hopscope.jar demo

build:
	$(MVN) -q package -DskipTests

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
	$(PYTHON) -m pytest -q -rs bpf/tests

clean:
	$(MVN) -q clean
