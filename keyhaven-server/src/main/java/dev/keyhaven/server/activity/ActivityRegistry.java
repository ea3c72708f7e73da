package dev.keyhaven.server.activity;

import java.util.Collection;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The handlers Keyhaven runs, by operation name and by activity type. Built once, in wiring. */
public final class ActivityRegistry {
    private final Map<String, ActivityHandler<?>> byOperation = new LinkedHashMap<>();
    private final Map<ActivityType, ActivityHandler<?>> byType = new EnumMap<>(ActivityType.class);
    private final Map<ActivityType, ActivityVersion> versions = new EnumMap<>(ActivityType.class);

    public ActivityRegistry(List<ActivityHandler<?>> handlers) {
        for (ActivityHandler<?> handler : handlers) {
            ActivitySpec spec = handler.spec();
            if (byOperation.putIfAbsent(spec.operation(), handler) != null) {
                throw new IllegalArgumentException("two handlers for operation " + spec.operation());
            }
            for (ActivityVersion version : spec.versions()) {
                if (byType.putIfAbsent(version.type(), handler) != null) {
                    throw new IllegalArgumentException("two handlers for " + version.type());
                }
                versions.put(version.type(), version);
            }
        }
    }

    public Optional<ActivityHandler<?>> forOperation(String operation) {
        return Optional.ofNullable(byOperation.get(operation));
    }

    public Optional<ActivityHandler<?>> forType(ActivityType type) {
        return Optional.ofNullable(byType.get(type));
    }

    public Optional<ActivityVersion> version(ActivityType type) {
        return Optional.ofNullable(versions.get(type));
    }

    /** Operation names in registration order. */
    public Collection<String> operations() {
        return byOperation.keySet();
    }
}
