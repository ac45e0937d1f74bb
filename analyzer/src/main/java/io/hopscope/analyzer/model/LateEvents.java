package io.hopscope.analyzer.model;

/**
 * The agent's events of a request that the file gave after the analyzer had finished the request
 * (each thread's buffer is written on its own schedule): {@code count} of them, each added to its
 * request and its name's summary, except {@code notInShownRequest} added to the summary only (the
 * request was already written to the spill file of {@code --top all}) and {@code leftOut} added nowhere
 * (the request finished too long before to be remembered).
 */
public record LateEvents(long count, long notInShownRequest, long leftOut) {

    public static final LateEvents NONE = new LateEvents(0, 0, 0);
}
