package io.hopscope.analyzer.command;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Output formats of {@code report} and {@code diff}; {@code html} is for {@code report} only. */
public enum Format {
    text, json, html;

    /** Parses {@code --format}, naming what is accepted. */
    public static final class Converter implements ITypeConverter<Format> {
        @Override
        public Format convert(String value) {
            try {
                return Format.valueOf(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("expected text, json or html, got '" + value + "'");
            }
        }
    }
}
