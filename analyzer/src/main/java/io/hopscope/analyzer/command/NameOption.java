package io.hopscope.analyzer.command;

import picocli.CommandLine.Option;

/** {@code --name GLOB}: the requests a command keeps, by name ({@code @Mixin} it; null keeps every name). */
public final class NameOption {

    @Option(names = "--name", paramLabel = "GLOB", description = "Only requests whose name matches (* any characters, ? one).")
    String glob;
}
