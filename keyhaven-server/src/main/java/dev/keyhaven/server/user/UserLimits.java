package dev.keyhaven.server.user;

/**
 * Resource limits, with the real service's values as defaults. Exceeding one is a 429. Built with {@link #builder()}
 * (or {@link #toBuilder()}), which names each limit and refuses one below 1.
 */
public final class UserLimits {
    public static final UserLimits DEFAULT = builder().build();

    private final int usersPerOrganization;
    private final int longLivedApiKeysPerUser;
    private final int expiringApiKeysPerUser;
    private final int authenticatorsPerUser;
    private final int tagsPerOrganization;
    private final int tagsPerSubOrganization;

    private UserLimits(Builder builder) {
        this.usersPerOrganization = builder.usersPerOrganization;
        this.longLivedApiKeysPerUser = builder.longLivedApiKeysPerUser;
        this.expiringApiKeysPerUser = builder.expiringApiKeysPerUser;
        this.authenticatorsPerUser = builder.authenticatorsPerUser;
        this.tagsPerOrganization = builder.tagsPerOrganization;
        this.tagsPerSubOrganization = builder.tagsPerSubOrganization;
    }

    /** A builder that starts from the real service's limits. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder that starts from these limits. */
    public Builder toBuilder() {
        return new Builder()
                .usersPerOrganization(usersPerOrganization)
                .longLivedApiKeysPerUser(longLivedApiKeysPerUser)
                .expiringApiKeysPerUser(expiringApiKeysPerUser)
                .authenticatorsPerUser(authenticatorsPerUser)
                .tagsPerOrganization(tagsPerOrganization)
                .tagsPerSubOrganization(tagsPerSubOrganization);
    }

    public int usersPerOrganization() {
        return usersPerOrganization;
    }

    public int longLivedApiKeysPerUser() {
        return longLivedApiKeysPerUser;
    }

    public int expiringApiKeysPerUser() {
        return expiringApiKeysPerUser;
    }

    public int authenticatorsPerUser() {
        return authenticatorsPerUser;
    }

    public int tagsPerOrganization() {
        return tagsPerOrganization;
    }

    public int tagsPerSubOrganization() {
        return tagsPerSubOrganization;
    }

    @Override
    public String toString() {
        return "UserLimits[usersPerOrganization=" + usersPerOrganization + ", longLivedApiKeysPerUser="
                + longLivedApiKeysPerUser + ", expiringApiKeysPerUser=" + expiringApiKeysPerUser
                + ", authenticatorsPerUser=" + authenticatorsPerUser + ", tagsPerOrganization=" + tagsPerOrganization
                + ", tagsPerSubOrganization=" + tagsPerSubOrganization + "]";
    }

    /** Each setter refuses a limit below 1 at once, naming it: a limit of 0 would make the resource unusable. */
    public static final class Builder {
        private int usersPerOrganization = 100;
        private int longLivedApiKeysPerUser = 10;
        private int expiringApiKeysPerUser = 10;
        private int authenticatorsPerUser = 10;
        private int tagsPerOrganization = 100;
        private int tagsPerSubOrganization = 10;

        private Builder() {}

        public Builder usersPerOrganization(int limit) {
            this.usersPerOrganization = atLeastOne("usersPerOrganization", limit);
            return this;
        }

        public Builder longLivedApiKeysPerUser(int limit) {
            this.longLivedApiKeysPerUser = atLeastOne("longLivedApiKeysPerUser", limit);
            return this;
        }

        public Builder expiringApiKeysPerUser(int limit) {
            this.expiringApiKeysPerUser = atLeastOne("expiringApiKeysPerUser", limit);
            return this;
        }

        public Builder authenticatorsPerUser(int limit) {
            this.authenticatorsPerUser = atLeastOne("authenticatorsPerUser", limit);
            return this;
        }

        public Builder tagsPerOrganization(int limit) {
            this.tagsPerOrganization = atLeastOne("tagsPerOrganization", limit);
            return this;
        }

        public Builder tagsPerSubOrganization(int limit) {
            this.tagsPerSubOrganization = atLeastOne("tagsPerSubOrganization", limit);
            return this;
        }

        public UserLimits build() {
            return new UserLimits(this);
        }

        private static int atLeastOne(String limit, int value) {
            if (value < 1) {
                throw new IllegalArgumentException(limit + " must be at least 1: " + value);
            }
            return value;
        }
    }
}
