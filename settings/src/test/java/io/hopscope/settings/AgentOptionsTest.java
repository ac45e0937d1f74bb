package io.hopscope.settings;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** Option parsing: values, defaults and the one line each bad option gets. */
class AgentOptionsTest {

    @Test
    void listsAreSeparatedBySemicolons() {
        List<String> problems = new ArrayList<>();
        AgentOptions o = AgentOptions.parse("jfr=/tmp/a.jfr,requests=a.B#c;d.E#f,policies=x.Y,redact=comp;sv",
                problems::add);
        assertThat(problems).isEmpty();
        assertThat(o.jfrPath()).isEqualTo("/tmp/a.jfr");
        assertThat(o.requests()).containsExactly("a.B#c", "d.E#f");
        assertThat(o.policies()).containsExactly("x.Y");
        assertThat(o.keptQueryParameters()).containsExactly("comp", "sv");
    }

    @Test
    void cpuTimeIsOffUnlessAskedFor() {
        assertFlagIsOffUnlessAskedFor("cputime", o -> o.cpuTime(), "yes");
    }

    @Test
    void lockStacksIsOffUnlessAskedFor() {
        assertFlagIsOffUnlessAskedFor("lockstacks", o -> o.lockStacks(), "1");
    }

    @Test
    void startIsPremainUnlessBackgroundIsAskedFor() {
        List<String> problems = new ArrayList<>();
        assertThat(AgentOptions.parse("jfr=/tmp/a.jfr", problems::add).background()).isFalse();
        assertThat(AgentOptions.parse("start=premain", problems::add).background()).isFalse();
        assertThat(AgentOptions.parse("start=background", problems::add).background()).isTrue();
        assertThat(problems).isEmpty();
        assertThat(AgentOptions.parse("start=later", problems::add).background()).isFalse();
        assertThat(problems).singleElement().asString().contains("start=").contains("'later'").contains("premain");
    }

    /** A true|false option: false by default, true when asked, a bad value reported and taken as false. */
    private static void assertFlagIsOffUnlessAskedFor(String key, Predicate<AgentOptions> flag, String bad) {
        List<String> problems = new ArrayList<>();
        assertThat(flag.test(AgentOptions.parse("jfr=/tmp/a.jfr", problems::add))).isFalse();
        assertThat(flag.test(AgentOptions.parse(key + "=true", problems::add))).isTrue();
        assertThat(problems).isEmpty();
        assertThat(flag.test(AgentOptions.parse(key + "=" + bad, problems::add))).isFalse();
        assertThat(problems).singleElement().asString().contains(key + "=").contains("'" + bad + "'");
    }

    @Test
    void disableKeepsOnlyTheNamesGiven() {
        List<String> problems = new ArrayList<>();
        AgentOptions o = AgentOptions.parse("disable=okhttp;reactor-pool;nonsense", problems::add);
        assertThat(problems).isEmpty();
        o.checkDisabled(List.of("okhttp", "reactor-pool", "jdk-http"), problems::add);
        assertThat(o.disabled()).containsExactly("okhttp", "reactor-pool");
        assertThat(problems).singleElement().asString().contains("'nonsense'").contains("jdk-http");
    }

    @Test
    void redactReplacesTheDefaultsAndEmptyKeepsNone() {
        List<String> problems = new ArrayList<>();
        assertThat(AgentOptions.parse("jfr=/tmp/a.jfr", problems::add).keptQueryParameters()).isNull();
        assertThat(AgentOptions.parse("redact=", problems::add).keptQueryParameters()).isEmpty();
        assertThat(problems).isEmpty();
    }

    @Test
    void everyBadLineNamesTheOptionsFromTheTable() {
        List<String> problems = new ArrayList<>();
        AgentOptions.parse("colour=red,oops", problems::add);
        assertThat(problems).hasSize(2);
        for (AgentOption option : AgentOption.values()) {
            assertThat(problems.get(0)).contains(option.key());
            assertThat(problems.get(1)).contains(option.usage());
        }
    }

    @Test
    void eachBadOptionIsOneLineNamingIt() {
        List<String> problems = new ArrayList<>();
        AgentOptions o = AgentOptions.parse("speed=11,requests=a.B#c;broken;x#y#z,oops,policies=a.B#m", problems::add);
        assertThat(problems).hasSize(5);
        assertThat(problems.get(0)).contains("'speed'");
        assertThat(problems.get(1)).contains("'broken'");
        assertThat(problems.get(2)).contains("'x#y#z'");
        assertThat(problems.get(3)).contains("'oops'");
        assertThat(problems.get(4)).contains("'a.B#m'");
        assertThat(o.requests()).containsExactly("a.B#c");
    }

    @Test
    void spansTakesAllNoneOrOneInN() {
        List<String> problems = new ArrayList<>();
        assertThat(AgentOptions.parse("jfr=/tmp/a.jfr", problems::add).spanEvery()).isEqualTo(1);
        assertThat(AgentOptions.parse("spans=all", problems::add).spanEvery()).isEqualTo(1);
        assertThat(AgentOptions.parse("spans=none", problems::add).spanEvery()).isZero();
        assertThat(AgentOptions.parse("spans=1/16", problems::add).spanEvery()).isEqualTo(16);
        assertThat(problems).isEmpty();
        for (String bad : List.of("1/0", "2/3", "half", "1/", "1/-4")) {
            assertThat(AgentOptions.parse("spans=" + bad, problems::add).spanEvery()).as(bad).isEqualTo(1);
        }
        assertThat(problems).hasSize(5).allSatisfy(p -> assertThat(p).startsWith("hopscope: option spans= takes"));
    }

    @Test
    void spanThresholdTakesZeroOrAWholeNumberWithAUnit() {
        List<String> problems = new ArrayList<>();
        assertThat(AgentOptions.parse("jfr=/tmp/a.jfr", problems::add).spanThreshold()).isNull();
        assertThat(AgentOptions.parse("spanthreshold=0", problems::add).spanThreshold()).isEqualTo("0 ns");
        assertThat(AgentOptions.parse("spanthreshold=500us", problems::add).spanThreshold()).isEqualTo("500 us");
        assertThat(AgentOptions.parse("spanthreshold=20ms", problems::add).spanThreshold()).isEqualTo("20 ms");
        assertThat(AgentOptions.parse("spanthreshold=2s", problems::add).spanThreshold()).isEqualTo("2 s");
        assertThat(problems).isEmpty();
        for (String bad : List.of("", "ms", "1.5ms", "-1ms", "10", "10 min", "1ms;x")) {
            assertThat(AgentOptions.parse("spanthreshold=" + bad, problems::add).spanThreshold()).as(bad).isNull();
        }
        assertThat(problems).hasSize(7)
                .allSatisfy(p -> assertThat(p).startsWith("hopscope: option spanthreshold= takes 0 or a whole number"));
    }
}
