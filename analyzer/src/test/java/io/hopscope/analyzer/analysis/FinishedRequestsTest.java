package io.hopscope.analyzer.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.analyzer.analysis.memory.DetailBudget;
import io.hopscope.analyzer.analysis.memory.FinishedIds;
import io.hopscope.analyzer.model.LateEvents;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The record of finished request ids, and what a late event of one too old to remember becomes. */
class FinishedRequestsTest {

    @Test
    void theRangesHoldExactlyTheIdsAddedInAnyOrder() {
        Random random = new Random(23);
        List<Long> ids = new ArrayList<>();
        for (long id = 1; id <= 20_000; id++) {
            if (random.nextInt(10) != 0) { // one id in ten never finishes: a gap
                ids.add(id);
            }
        }
        // Nearly in order, as requests finish: each swapped with one up to 50 places on.
        for (int i = 0; i < ids.size(); i++) {
            Collections.swap(ids, i, Math.min(ids.size() - 1, i + random.nextInt(50)));
        }
        FinishedIds finished = new FinishedIds();
        Set<Long> added = new HashSet<>();
        for (long id : ids) {
            finished.add(id);
            added.add(id);
            finished.add(id); // a second add changes nothing
        }
        long runs = 0;
        for (long id = 0; id <= 20_001; id++) {
            assertThat(finished.contains(id)).as("id %d", id).isEqualTo(added.contains(id));
            if (added.contains(id) && !added.contains(id - 1)) {
                runs++;
            }
        }
        assertThat(finished.ranges()).isEqualTo(runs);
        assertThat(finished.forgotten(1)).isFalse();
    }

    @Test
    void pastItsBoundTheLowestRangesAreForgottenNotTakenForNew() {
        FinishedIds finished = new FinishedIds(4);
        for (long id = 1; id <= 9; id += 2) {
            finished.add(id);
        }
        assertThat(finished.ranges()).isEqualTo(4);
        assertThat(finished.forgotten(1)).isTrue();
        assertThat(finished.forgotten(2)).isFalse();
        assertThat(finished.contains(3)).isTrue();
        assertThat(finished.contains(4)).isFalse();
        finished.add(1); // below what was forgotten: stays forgotten
        assertThat(finished.ranges()).isEqualTo(4);
    }

    @Test
    void aLateEventOfARequestFinishedTooLongAgoIsCountedAsLeftOut() {
        Selection none = new Selection(new AnalysisOptions(null, 0, SortField.duration, 5, 100), new DetailBudget(100));
        FinishedRequests finished = new FinishedRequests(none, new FinishedIds(), 8);
        for (long id = 1; id <= 40; id++) {
            RequestInProgress r = new RequestInProgress(id, false);
            r.name = "GET /x";
            r.hopCount = 1;
            finished.finished(r);
            none.add(r);
        }
        assertThat(finished.isFinished(5)).isTrue();
        assertThat(finished.target(5)).isNull(); // 35 ids before the highest: past the window of 8
        RequestInProgress recent = finished.target(38);
        assertThat(recent.name).isEqualTo("GET /x");
        assertThat(recent.hopCount).isEqualTo(1);
        finished.settle(recent);
        assertThat(finished.counts()).isEqualTo(new LateEvents(2, 0, 1));
        assertThat(finished.isFinished(41)).isFalse();
    }
}
