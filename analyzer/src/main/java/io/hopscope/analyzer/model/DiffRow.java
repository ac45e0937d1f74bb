package io.hopscope.analyzer.model;

/** One figure of {@code diff}: its value in recording A and B and the ratio B/A (NaN when A is 0). */
public record DiffRow(String name, String metric, String unit, double a, double b) {

    public double ratio() {
        return a == 0 ? Double.NaN : b / a;
    }
}
