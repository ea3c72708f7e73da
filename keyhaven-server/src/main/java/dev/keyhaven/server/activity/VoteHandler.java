package dev.keyhaven.server.activity;

import dev.keyhaven.server.api.Params;

/**
 * {@code approve_activity} and {@code reject_activity}: a vote on another activity of the organization, named by its
 * {@code fingerprint}. The {@link ActivityService} runs them itself: the vote joins the target activity, which is
 * what the response carries, and no activity of their own is recorded (the vote, with its stamp, is the audit
 * record).
 */
public final class VoteHandler implements ActivityHandler<String> {
    private final VoteSelection selection;
    private final ActivitySpec spec;

    private VoteHandler(VoteSelection selection, ActivitySpec spec) {
        this.selection = selection;
        this.spec = spec;
    }

    public static VoteHandler approve() {
        return new VoteHandler(
                VoteSelection.APPROVED,
                ActivitySpec.of(
                        "approve_activity",
                        ActivityResource.ORGANIZATION,
                        ActivityAction.UPDATE,
                        new ActivityVersion(
                                ActivityType.APPROVE_ACTIVITY, "approveActivityIntent", "approveActivityResult")));
    }

    public static VoteHandler reject() {
        return new VoteHandler(
                VoteSelection.REJECTED,
                ActivitySpec.of(
                        "reject_activity",
                        ActivityResource.ORGANIZATION,
                        ActivityAction.UPDATE,
                        new ActivityVersion(
                                ActivityType.REJECT_ACTIVITY, "rejectActivityIntent", "rejectActivityResult")));
    }

    VoteSelection selection() {
        return selection;
    }

    @Override
    public ActivitySpec spec() {
        return spec;
    }

    /** The target's fingerprint. */
    @Override
    public String parse(Params parameters) {
        return parameters.requiredString("fingerprint");
    }

    @Override
    public Object execute(ActivityContext context, String fingerprint) {
        throw new IllegalStateException("a vote is cast by the activity service, not executed");
    }
}
