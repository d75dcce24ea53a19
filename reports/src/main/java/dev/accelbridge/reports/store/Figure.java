package dev.accelbridge.reports.store;

import com.fasterxml.jackson.annotation.JacksonAnnotationsInside;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;

import java.io.IOException;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A measured figure in a record serialised whole, written as {@link ResultJson#num} writes one: a number when finite,
 * null when unknown (NaN), an infinity's name as a string (JSON has none).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER})
@JacksonAnnotationsInside
@JsonSerialize(using = Figure.Writer.class)
public @interface Figure {
    /** The writer of a figure. */
    final class Writer extends StdSerializer<Double> {
        public Writer() {
            super(Double.class);
        }

        @Override
        public void serialize(Double v, JsonGenerator g, SerializerProvider p) throws IOException {
            if (Double.isFinite(v)) {
                g.writeNumber(v);
            } else if (Double.isNaN(v)) {
                g.writeNull();
            } else {
                g.writeString(Double.toString(v));
            }
        }
    }
}
