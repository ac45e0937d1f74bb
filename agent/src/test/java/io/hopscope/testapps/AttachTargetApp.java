package io.hopscope.testapps;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * A JVM started without the agent: prints "ready", waits for a line on stdin (the test attaches
 * the agent meanwhile), then runs the known path with the given arguments.
 */
public final class AttachTargetApp {

    public static void main(String[] args) throws Exception {
        System.out.println("ready");
        System.out.flush();
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        KnownPathApp.main(args);
    }
}
