package io.hopscope.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class AgentErrorsTest {

    @Test
    void aFailureKeepsItsClassAndAMessageWithoutUrlsSecrets() {
        String described = AgentErrors.describe(new IOException("GET https://reader:Pass4711@acct.blob.core.windows.net"
                + "/c/b?sv=2021&sig=PlantedSig%3D&se=2030 failed: 403, Authorization: SharedKey acct:PlantedKey=="
                + " x-ms-account-key=PlantedAccountKey token=PlantedToken"));

        assertThat(described).startsWith("java.io.IOException: GET https://acct.blob.core.windows.net/c/b failed: 403, ")
                .contains("Authorization: <redacted>", "x-ms-account-key=<redacted>", "token=<redacted>")
                .doesNotContain("Pass4711", "reader", "PlantedSig", "PlantedKey", "PlantedAccountKey", "PlantedToken", "sv=");
    }

    @Test
    void aMessageThatNeedsNoRedactionIsKeptAndALongOneIsCut() {
        assertThat(AgentErrors.describe(new IllegalStateException("no field 'queue' in class Worker")))
                .isEqualTo("java.lang.IllegalStateException: no field 'queue' in class Worker");
        assertThat(AgentErrors.describe(new NullPointerException())).isEqualTo("java.lang.NullPointerException");
        assertThat(AgentErrors.describe(new RuntimeException("x".repeat(1000))))
                .hasSize("java.lang.RuntimeException: ".length() + AgentErrors.MAX_MESSAGE + 3).endsWith("...");
    }

    @Test
    void aUrlThatCannotBeTakenApartIsDroppedWhole() {
        assertThat(AgentErrors.describe(new RuntimeException("bad https://user:secret@/x?sig=abc")))
                .isEqualTo("java.lang.RuntimeException: bad <url>");
    }
}
