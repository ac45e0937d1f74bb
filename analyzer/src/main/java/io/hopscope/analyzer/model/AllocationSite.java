package io.hopscope.analyzer.model;

/** Allocation samples (jdk.ObjectAllocationSample) at one top frame, weighted by the sampled bytes. */
public record AllocationSite(String frame, String objectClass, long samples, long sampledBytes) {
}
