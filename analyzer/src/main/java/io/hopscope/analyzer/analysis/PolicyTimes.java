package io.hopscope.analyzer.analysis;

import io.hopscope.analyzer.model.PolicyTime;
import io.hopscope.analyzer.model.Span;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * One request's time per pipeline policy (its hopscope.Span events) while it is read: count, total
 * and self time per policy, in small arrays rather than maps (a request touches a few policies, and
 * there can be millions of requests).
 */
final class PolicyTimes {

    private String[] policyNames;
    private String[] policyKinds;
    private long[] policyFigures; // per policy: count, total nanos, self nanos
    private int policyCount;
    // Self time: children end before their parent, but the file's order across threads is not
    // commit order, so a child's time waits here for a parent not yet seen (pending), or is taken
    // off a parent already seen (finished).
    private long[] finishedSpanIds;
    private int[] finishedSpanPolicy;
    private int finishedCount;
    private long[] pendingParentIds;
    private long[] pendingChildNanos;
    private int pendingCount;

    void add(Span s) {
        String key = s.name() == null ? "?" : s.name();
        int p = policyIndex(key, s.kind());
        policyFigures[3 * p]++;
        policyFigures[3 * p + 1] += s.durationNanos();
        long children = 0;
        for (int i = 0; i < pendingCount; i++) {
            if (pendingParentIds[i] == s.spanId()) {
                children += pendingChildNanos[i];
                pendingParentIds[i] = pendingParentIds[pendingCount - 1];
                pendingChildNanos[i] = pendingChildNanos[pendingCount - 1];
                pendingCount--;
                i--;
            }
        }
        policyFigures[3 * p + 2] += s.durationNanos() - children;
        if (s.parentSpanId() != 0) {
            int parent = -1;
            for (int i = 0; i < finishedCount; i++) {
                if (finishedSpanIds[i] == s.parentSpanId()) {
                    parent = finishedSpanPolicy[i];
                    break;
                }
            }
            if (parent >= 0) {
                policyFigures[3 * parent + 2] -= s.durationNanos();
            } else {
                if (pendingParentIds == null || pendingCount == pendingParentIds.length) {
                    int n = pendingParentIds == null ? 2 : pendingCount * 2;
                    pendingParentIds = pendingParentIds == null ? new long[n] : Arrays.copyOf(pendingParentIds, n);
                    pendingChildNanos = pendingChildNanos == null ? new long[n] : Arrays.copyOf(pendingChildNanos, n);
                }
                pendingParentIds[pendingCount] = s.parentSpanId();
                pendingChildNanos[pendingCount++] = s.durationNanos();
            }
        }
        if (finishedSpanIds == null || finishedCount == finishedSpanIds.length) {
            int n = finishedSpanIds == null ? 4 : finishedCount * 2;
            finishedSpanIds = finishedSpanIds == null ? new long[n] : Arrays.copyOf(finishedSpanIds, n);
            finishedSpanPolicy = finishedSpanPolicy == null ? new int[n] : Arrays.copyOf(finishedSpanPolicy, n);
        }
        finishedSpanIds[finishedCount] = s.spanId();
        finishedSpanPolicy[finishedCount++] = p;
    }

    private int policyIndex(String name, String kind) {
        for (int i = 0; i < policyCount; i++) {
            // Names are interned by the analyzer: identity first, equals for the rest.
            if (policyNames[i] == name || policyNames[i].equals(name)) {
                return i;
            }
        }
        if (policyNames == null || policyCount == policyNames.length) {
            int n = policyNames == null ? 4 : policyCount * 2;
            policyNames = policyNames == null ? new String[n] : Arrays.copyOf(policyNames, n);
            policyKinds = policyKinds == null ? new String[n] : Arrays.copyOf(policyKinds, n);
            policyFigures = policyFigures == null ? new long[3 * n] : Arrays.copyOf(policyFigures, 3 * n);
        }
        policyNames[policyCount] = name;
        policyKinds[policyCount] = kind;
        return policyCount++;
    }

    /** The policies by self time, largest first. */
    List<PolicyTime> toList() {
        List<PolicyTime> policyTimes = new ArrayList<>(policyCount);
        for (int i = 0; i < policyCount; i++) {
            policyTimes.add(new PolicyTime(policyNames[i], policyKinds[i], policyFigures[3 * i], policyFigures[3 * i + 1],
                    Math.max(0, policyFigures[3 * i + 2])));
        }
        policyTimes.sort(Comparator.comparingLong(PolicyTime::selfNanos).reversed().thenComparing(PolicyTime::name));
        return List.copyOf(policyTimes);
    }
}
