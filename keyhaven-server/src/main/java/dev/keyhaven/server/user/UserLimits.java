package dev.keyhaven.server.user;

/**
 * Resource limits, with the real service's values as defaults. Exceeding one is a 429.
 */
public record UserLimits(int usersPerOrganization, int longLivedApiKeysPerUser, int expiringApiKeysPerUser,
        int authenticatorsPerUser, int tagsPerOrganization, int tagsPerSubOrganization) {

    public static final UserLimits DEFAULT = new UserLimits(100, 10, 10, 10, 100, 10);
}
