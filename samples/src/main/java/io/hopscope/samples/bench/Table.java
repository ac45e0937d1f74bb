package io.hopscope.samples.bench;

import io.hopscope.samples.bench.Figures.Spread;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The bench's figures as rows of cells, drawn as an aligned text table or as markdown. */
final class Table {

    private Table() {
    }

    static List<String> header(BenchResult result) {
        return List.of("workload", "config", "throughput x (min-max)",
                "first " + RunLauncher.Windows.fmt(result.windows().firstS()) + " s x (min-max)", "CPU us/req added",
                "p99 x", "alloc B/req", "to main ms (CPU)", "note");
    }

    /** One list of cells a row, workloads in order, configurations in order within each. */
    static List<List<String>> rows(BenchResult result) {
        List<List<String>> cells = new ArrayList<>();
        for (Workload w : result.workloads()) {
            for (Configuration c : result.configs()) {
                Row row = result.row(w, c);
                if (row == null) {
                    continue;
                }
                String why = row.whyNoFigures();
                if (why != null) {
                    cells.add(List.of(w.label, c.label, "-", "-", "-", "-", "-", "-", why));
                    continue;
                }
                Row.Summary s = result.summary(row);
                String note = c == Configuration.NONE ? "baseline" : "";
                String failed = row.failedRounds();
                if (!failed.isEmpty()) {
                    note = note.isEmpty() ? failed : note + "; " + failed;
                }
                cells.add(List.of(w.label, c.label, spread(s.throughputRatio()), spread(s.firstWindowRatio()),
                        s.cpuAddedUsPerOp() == null ? "-" : String.format(Locale.ROOT, "%+.1f", s.cpuAddedUsPerOp()),
                        s.p99Ratio() == null ? "-" : String.format(Locale.ROOT, "%.2f", s.p99Ratio()),
                        s.allocatedBytesPerOp() == null ? "-" : String.format(Locale.ROOT, "%.0f", s.allocatedBytesPerOp()),
                        toMain(s), note));
            }
        }
        return cells;
    }

    /** "412 (690)": the medians of the wall and CPU ms from the JVM's start to main; "-" when unknown. */
    static String toMain(Row.Summary s) {
        if (s.toMainMs().median() == null) {
            return "-";
        }
        String wall = String.format(Locale.ROOT, "%.0f", s.toMainMs().median());
        return s.toMainCpuMs().median() == null ? wall
                : String.format(Locale.ROOT, "%s (%.0f)", wall, s.toMainCpuMs().median());
    }

    /** "0.985 (0.951-1.012)"; one round: "0.985". */
    static String spread(Spread s) {
        if (s.median() == null) {
            return "-";
        }
        String median = String.format(Locale.ROOT, "%.3f", s.median());
        return s.count() < 2 ? median : String.format(Locale.ROOT, "%s (%.3f-%.3f)", median, s.min(), s.max());
    }

    static String text(List<String> header, List<List<String>> rows) {
        int[] width = new int[header.size()];
        List<List<String>> all = new ArrayList<>();
        all.add(header);
        all.addAll(rows);
        for (List<String> r : all) {
            for (int i = 0; i < r.size(); i++) {
                width[i] = Math.max(width[i], r.get(i).length());
            }
        }
        StringBuilder b = new StringBuilder();
        for (List<String> r : all) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < r.size(); i++) {
                line.append(i == 0 ? "" : "  ").append(i == r.size() - 1 ? r.get(i) : pad(r.get(i), width[i]));
            }
            b.append(line.toString().stripTrailing()).append('\n');
        }
        return b.toString();
    }

    static String markdown(List<String> header, List<List<String>> rows) {
        StringBuilder b = new StringBuilder();
        b.append(markdownLine(header));
        b.append("|").append("---|".repeat(header.size())).append('\n');
        for (List<String> r : rows) {
            b.append(markdownLine(r));
        }
        return b.toString();
    }

    private static String markdownLine(List<String> cells) {
        StringBuilder b = new StringBuilder("|");
        for (String c : cells) {
            b.append(' ').append(c.replace("|", "\\|")).append(" |");
        }
        return b.append('\n').toString();
    }

    private static String pad(String s, int width) {
        return s + " ".repeat(width - s.length());
    }
}
