package io.hopscope.agent.instrumentation;

/**
 * The versions of its library an instrumentation supports, declared where its rules live: the
 * library's main artifact, the oldest version the rules apply to (the oldest that has every class
 * and method they name), and the newest one its ITs have been run on. Both ends are tested: the
 * module {@code testlibs/NAME-VERSION} holds each (see testlibs/pom.xml), and the library's IT runs
 * on both. A newer release than {@link #newest} is expected to work and is not promised.
 */
public final class SupportedVersions {

    private final String artifact;
    private final String oldest;
    private final String newest;

    private SupportedVersions(String artifact, String oldest, String newest) {
        this.artifact = artifact;
        this.oldest = oldest;
        this.newest = newest;
    }

    /** {@code artifact}: {@code groupId:artifactId} of the library's main jar. */
    public static SupportedVersions of(String artifact, String oldest, String newest) {
        return new SupportedVersions(artifact, oldest, newest);
    }

    public String artifact() {
        return artifact;
    }

    public String oldest() {
        return oldest;
    }

    public String newest() {
        return newest;
    }

    /** The testlibs module of one tested end: {@code NAME-VERSION}. */
    public static String module(String instrumentation, String version) {
        return instrumentation + "-" + version;
    }

    @Override
    public String toString() {
        return artifact + " " + oldest + " to " + newest;
    }
}
