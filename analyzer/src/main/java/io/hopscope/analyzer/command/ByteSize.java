package io.hopscope.analyzer.command;

import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Parses a size option: bytes, or a number with {@code k}, {@code m} or {@code g} (powers of 1024), as -Xmx takes it. */
final class ByteSize implements ITypeConverter<Long> {

    @Override
    public Long convert(String value) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        int shift = v.endsWith("k") ? 10 : v.endsWith("m") ? 20 : v.endsWith("g") ? 30 : 0;
        String digits = shift == 0 ? v : v.substring(0, v.length() - 1);
        try {
            long n = Long.parseLong(digits);
            if (n < 0 || n > Long.MAX_VALUE >> shift) {
                throw new NumberFormatException();
            }
            return n << shift;
        } catch (NumberFormatException e) {
            throw new TypeConversionException("expected a size in bytes such as 64m, 512k or 1g, got '" + value + "'");
        }
    }
}
