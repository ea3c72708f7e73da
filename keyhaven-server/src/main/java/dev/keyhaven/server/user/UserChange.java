package dev.keyhaven.server.user;

import java.util.List;
import java.util.Optional;

/** What an update activity changes on a user; absent parts stay as they are. */
public record UserChange(
        String userId,
        Optional<String> name,
        Optional<String> email,
        Optional<String> phoneNumber,
        Optional<List<String>> tagIds) {

    static UserChange name(String userId, String name) {
        return new UserChange(userId, Optional.of(name), Optional.empty(), Optional.empty(), Optional.empty());
    }

    static UserChange email(String userId, String email) {
        return new UserChange(userId, Optional.empty(), Optional.of(email), Optional.empty(), Optional.empty());
    }

    static UserChange phoneNumber(String userId, String phoneNumber) {
        return new UserChange(userId, Optional.empty(), Optional.empty(), Optional.of(phoneNumber), Optional.empty());
    }
}
