package dev.keyhaven.server.user;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import java.util.Optional;
import java.util.regex.Pattern;

/** Validation of the user fields that several operations carry: name, email, phone number. */
final class UserFields {
    private static final Pattern EMAIL = Pattern.compile("[^@\\s]+@[^@\\s]+\\.[^@\\s]+");
    private static final Pattern E164 = Pattern.compile("\\+[1-9][0-9]{6,14}");
    private static final int MAX_NAME = 256;
    private static final int MAX_EMAIL = 254;

    private UserFields() {}

    static String requiredName(Params p, String field) {
        return checkName(p, field, p.requiredString(field));
    }

    static Optional<String> optionalName(Params p, String field) {
        return p.optionalString(field).map(name -> checkName(p, field, name));
    }

    static Optional<String> optionalEmail(Params p, String field) {
        return p.optionalString(field).map(email -> checkEmail(p, field, email));
    }

    static String requiredEmail(Params p, String field) {
        return checkEmail(p, field, p.requiredString(field));
    }

    static Optional<String> optionalPhone(Params p, String field) {
        return p.optionalString(field).map(phone -> checkPhone(p, field, phone));
    }

    static String requiredPhone(Params p, String field) {
        return checkPhone(p, field, p.requiredString(field));
    }

    private static String checkName(Params p, String field, String name) {
        if (name.length() > MAX_NAME) {
            throw ApiException.badField(p.pathOf(field), "is longer than " + MAX_NAME + " characters");
        }
        return name;
    }

    private static String checkEmail(Params p, String field, String email) {
        if (email.length() > MAX_EMAIL || !EMAIL.matcher(email).matches()) {
            throw ApiException.badField(p.pathOf(field), "is not a valid email address");
        }
        return email;
    }

    private static String checkPhone(Params p, String field, String phone) {
        if (!E164.matcher(phone).matches()) {
            throw ApiException.badField(p.pathOf(field), "is not an E.164 phone number (+ and digits)");
        }
        return phone;
    }
}
