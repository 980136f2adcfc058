package readingprogress.client;

import java.util.Map;
import java.util.Objects;

/** The error object of the service's JSON answers: {@code {"code":…,"message":…,"field":…}}. */
public final class ServiceError {
    /** Machine-readable, such as {@code invalid_event}. */
    public final String code;
    /** A sentence for the developer. */
    public final String message;
    /** The JSON path of the field to blame, such as {@code article}; null when none is. */
    public final String field;

    /** Creates an error. */
    public ServiceError(String code, String message, String field) {
        this.code = code;
        this.message = message;
        this.field = field;
    }

    /** The error a JSON object holds, or null when it is not one. */
    static ServiceError from(Object object) {
        if (!(object instanceof Map)) return null;
        Map<?, ?> map = (Map<?, ?>) object;
        Object code = map.get("code");
        Object message = map.get("message");
        Object field = map.get("field");
        if (!(code instanceof String)) return null;
        return new ServiceError((String) code, message instanceof String ? (String) message : "",
                field instanceof String ? (String) field : null);
    }

    @Override
    public boolean equals(Object other) {
        if (!(other instanceof ServiceError)) return false;
        ServiceError that = (ServiceError) other;
        return code.equals(that.code) && Objects.equals(message, that.message) && Objects.equals(field, that.field);
    }

    @Override
    public int hashCode() {
        return Objects.hash(code, message, field);
    }

    @Override
    public String toString() {
        return code + (field != null ? " (" + field + ")" : "") + ": " + message;
    }
}
