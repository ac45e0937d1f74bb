package io.hopscope.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.instrumentation.HopscopeInstrumentation;
import io.hopscope.agent.runtime.UrlRedactor;
import io.hopscope.settings.AgentOption;
import io.hopscope.settings.AgentOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The options as the agent takes them: the table of docs/agent.md, instrumentation names from the
 * instrumentations, the redaction defaults from the libraries. (Parsing: the settings module's test.)
 */
class AgentOptionsTest {

    private static final String REGENERATE = "docs/agent.md's options table is not AgentOption.markdownTable()'s output;"
            + " run with -Dhopscope.docs.write=true to rewrite it";

    private static List<String> names(AgentOptions options) {
        return AgentInstaller.instrumentations(options).stream().map(HopscopeInstrumentation::name).toList();
    }

    @Test
    void theDocsTableIsTheOptionsTable() throws Exception {
        Path doc = Path.of(System.getProperty("hopscope.docs", "../docs"), "agent.md");
        String table = AgentOption.markdownTable(names(AgentOptions.parse("", p -> { })));
        String text = Files.readString(doc);
        int start = text.indexOf("| option | meaning |\n");
        assertThat(start).as("the options table in " + doc).isPositive();
        String documented = text.substring(start, text.indexOf("\n\n", start) + 1);
        if (Boolean.getBoolean("hopscope.docs.write")) {
            Files.writeString(doc, text.replace(documented, table));
            documented = table;
        }
        assertThat(documented).as(REGENERATE).isEqualTo(table);
    }

    @Test
    void everyInstrumentationHasItsOwnNameAndCanBeDisabledByIt() {
        List<String> names = names(AgentOptions.parse("", p -> { }));
        assertThat(names).doesNotHaveDuplicates().contains("executors", "azure-core", "httpclient4");
        List<String> problems = new ArrayList<>();
        AgentOptions options = AgentOptions.parse("disable=" + String.join(";", names) + ";nonsense", problems::add);
        options.checkDisabled(names, problems::add);
        assertThat(options.disabled()).containsExactlyElementsOf(names);
        assertThat(problems).singleElement().asString().contains("'nonsense'").contains(String.join(", ", names));
    }

    @Test
    void everyPreloadedClassIsOneItsInstrumentationMatches() {
        for (HopscopeInstrumentation each : AgentInstaller.instrumentations(AgentOptions.parse("", p -> { }))) {
            for (String preloaded : each.preloadedClasses()) {
                assertThat(each.jdkClasses()).as(each.name() + " preloads " + preloaded)
                        .anyMatch(named -> named.endsWith(".") ? preloaded.startsWith(named) : preloaded.equals(named));
            }
        }
    }

    @Test
    void theQueryIsDroppedExceptTheAllowList() {
        UrlRedactor redactor = new UrlRedactor(Set.of("comp"));
        assertThat(redactor.redact("https://u:p@acct.blob.example/c/b?comp=list&sig=SECRET&sv=1#frag"))
                .isEqualTo("https://acct.blob.example/c/b?comp=list");
        assertThat(new UrlRedactor(Set.of()).redact("http://127.0.0.1:8080/x?sig=SECRET"))
                .isEqualTo("http://127.0.0.1:8080/x");
    }

    @Test
    void azureStoragesSelectorsAreKeptByTheAzureCoreInstrumentation() {
        List<String> kept = new ArrayList<>();
        AgentInstaller.instrumentations(AgentOptions.parse("", p -> { })).forEach(each -> {
            if (!each.name().equals("azure-core")) {
                assertThat(each.keptQueryParameters()).as(each.name()).isEmpty();
            }
            kept.addAll(each.keptQueryParameters());
        });
        assertThat(kept).containsExactly("comp", "restype", "api-version", "timeout");
    }
}
