package io.hopscope.analyzer.command;

import io.hopscope.analyzer.model.TraceIds;
import io.hopscope.analyzer.output.TraceUrl;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/** {@code --trace-id} and {@code --trace-url}: requests by the W3C trace they were made in, and links to it. */
public final class TraceOptions {

    @Option(names = "--trace-id", paramLabel = "ID", converter = IdConverter.class,
            description = "Only the requests made in this W3C trace (32 hex digits, as the report shows it).")
    String traceId;

    @Option(names = "--trace-url", paramLabel = "TEMPLATE", converter = UrlConverter.class,
            description = "html: link each request's trace id here, e.g. 'https://tempo.example/trace/{traceId}'"
                    + " ({spanId} too).")
    TraceUrl traceUrl;

    /** Parses {@code --trace-id}: 32 hex digits, not all zero, either case (lower case after). */
    public static final class IdConverter implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            String id = value.toLowerCase(Locale.ROOT);
            if (!TraceIds.isTraceId(id)) {
                throw new TypeConversionException("expected a W3C trace id (32 hex digits, not all 0), got '" + value + "'");
            }
            return id;
        }
    }

    /** Parses {@code --trace-url}, saying what is wrong with a template. */
    public static final class UrlConverter implements ITypeConverter<TraceUrl> {
        @Override
        public TraceUrl convert(String value) {
            try {
                return TraceUrl.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
