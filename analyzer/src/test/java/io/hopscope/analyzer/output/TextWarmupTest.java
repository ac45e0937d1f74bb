package io.hopscope.analyzer.output;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.analyzer.model.Report;
import io.hopscope.analyzer.model.RequestWindow;
import io.hopscope.analyzer.model.RequestsKept;
import io.hopscope.analyzer.model.Warmup;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The text report of every request ({@code --top all}, and {@code record}'s report.txt): ranked together
 * by the analysis, the warm-up ones are listed apart under {@code --warmup apart}, as the HTML report does.
 */
class TextWarmupTest {

    private static String text(Report report) {
        StringWriter out = new StringWriter();
        TextReport.write(report, "duration", null, new PrintWriter(out));
        return out.toString();
    }

    @Test
    void aReportOfEveryRequestListsItsWarmUpOnesApartFromTheWorst() {
        Report apart = HtmlReportTest.report();
        Report every = new Report(apart.recording(), apart.summary(),
                List.of(apart.warmupRequests().get(0), apart.requests().get(0)), RequestWindow.ALL,
                RequestsKept.NOT_STATED, List.of(), Warmup.apart);
        String text = text(every);
        String worst = text.substring(text.indexOf("worst 1 steady request(s) by duration"),
                text.indexOf("worst 1 of 2 warm-up request(s)"));
        assertThat(worst).containsPattern("#1 [a-z ]+ 7  ").doesNotContainPattern("#[0-9]+ [a-z ]+ 3  ");
        assertThat(text.substring(text.indexOf("warm-up request(s) by duration"))).containsPattern("#1 [a-z ]+ 3  ");

        Report include = new Report(every.recording(), every.summary(), every.requests(), RequestWindow.ALL,
                RequestsKept.NOT_STATED, List.of(), Warmup.include);
        String together = text(include);
        assertThat(together).contains("worst 2 request(s) by duration:").doesNotContain("warm-up request(s) by");
        assertThat(together).containsPattern("#1 [a-z ]+ 3  ").containsPattern("#2 [a-z ]+ 7  ");
    }
}
