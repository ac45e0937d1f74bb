package io.hopscope.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.testing.AgentRun;
import io.hopscope.agent.testing.Requests;
import io.hopscope.testapps.SecretsApp;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 23's secrets: URLs with SAS signatures, tokens, codes, passwords and user-info, and
 * Authorization, Proxy-Authorization, Cookie and x-ms-*-key headers, sent through OkHttp and the
 * JDK's HttpClient under the agent, appear nowhere in the recording file: no event field, no
 * stack-trace string, no span name, no constant pool entry.
 */
class SecretsIT {

    @Test
    void noPlantedSecretIsAnywhereInTheRecording() throws Exception {
        String classPath = String.join(File.pathSeparator, System.getProperty("hopscope.test.classes"),
                jarOf(okhttp3.OkHttpClient.class), jarOf(okio.Buffer.class), jarOf(kotlin.Unit.class));
        AgentRun run = AgentRun.run("jfr=%JFR%,spanthreshold=0,okhttp-internal=true",
                List.of("-cp", classPath, SecretsApp.class.getName()));
        assertThat(run.exitCode).as(run.stderr).isZero();
        assertThat(run.stdout).contains("ok 4");
        Map<Long, Requests.Request> requests = Requests.byId(run.events());
        // The requests are there, with the query parameter the allow-list keeps: the grep below
        // searches a recording that holds them.
        assertThat(requests.values()).filteredOn(r -> r.request != null)
                .extracting(r -> r.request.getString("url"))
                .hasSize(4)
                .allSatisfy(url -> assertThat(url).endsWith("/container/blob?comp=list"));
        // JFR writes strings as UTF-8, Latin-1 or one varint per char: an ASCII secret is its own
        // bytes in every one of them.
        String file = new String(Files.readAllBytes(run.recording), StandardCharsets.ISO_8859_1);
        assertThat(file).contains("/container/blob");
        for (String secret : SecretsApp.SECRETS) {
            assertThat(file).as("the recording holds %s", secret).doesNotContain(secret);
        }
    }

    private static String jarOf(Class<?> type) throws Exception {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
