package io.hopscope.analyzer.testing;

/**
 * The test JVM's flight recorder as a JUnit resource ({@code @ResourceLock(FlightRecorderLock.NAME)}).
 * A JVM's recordings all see every event committed in it, so a test class that records in process, or
 * commits the contract's events there ({@link ContractEvents}, or a helper such as
 * {@link KnownPathRecording}), must not run beside another: failsafe runs two integration test
 * classes at a time in one JVM (the root pom), and their recordings would hold each other's requests.
 * Each such integration test holds this lock; {@code FlightRecorderLockTest} finds them from their
 * sources and fails where one does not. Surefire runs one unit test class at a time: they need none.
 */
public final class FlightRecorderLock {

    /** The resource's name. */
    public static final String NAME = "the test JVM's flight recorder";

    private FlightRecorderLock() {
    }
}
