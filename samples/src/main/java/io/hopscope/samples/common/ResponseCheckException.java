package io.hopscope.samples.common;

/** A response failed validation (wrong status or body length, or no response); exits 1. */
public final class ResponseCheckException extends RuntimeException {

    public ResponseCheckException(String message) {
        super(message, null, false, false);
    }

    public ResponseCheckException(String message, Throwable cause) {
        super(message, cause, false, false);
    }
}
