package io.hopscope.settings;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import jdk.jfr.Configuration;

/**
 * hopscope's recording settings, {@code hopscope.jfc}: the agent's jfr= recording starts with them,
 * and {@code hopscope live} asks its event stream for the same thresholds.
 */
public final class HopscopeJfc {

    /** Where the settings are, in the agent's jar and the analyzer's. */
    public static final String RESOURCE = "/hopscope.jfc";

    private HopscopeJfc() {
    }

    /** The settings file's text. */
    public static String text() throws IOException {
        try (InputStream in = HopscopeJfc.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IOException("no " + RESOURCE + " beside " + HopscopeJfc.class.getName());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /**
     * One setting of one event ({@code jdk.JavaMonitorEnter}, {@code threshold}) as the file gives it
     * ({@code 10 ms}).
     */
    public static String of(String event, String setting) {
        try {
            String value = Configuration.create(new StringReader(text())).getSettings().get(event + "#" + setting);
            if (value == null) {
                throw new IllegalStateException(RESOURCE + " sets no " + setting + " for " + event);
            }
            return value;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ParseException e) {
            throw new IllegalStateException(RESOURCE + " is not a JFR settings file: " + e.getMessage(), e);
        }
    }
}
