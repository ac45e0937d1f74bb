package io.hopscope.analyzer.command;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Output formats of {@code report} and {@code diff}. HTML belongs to the pictures work and is refused until then. */
public enum Format {
    text, json;

    /** Parses {@code --format}, naming what is accepted, and saying plainly that html is not there yet. */
    public static final class Converter implements ITypeConverter<Format> {
        @Override
        public Format convert(String value) {
            if ("html".equals(value)) {
                throw new TypeConversionException("html is not available in this version; use text or json");
            }
            try {
                return Format.valueOf(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("expected text or json, got '" + value + "'");
            }
        }
    }
}
