package dev.keyhaven.policy.time;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.Set;

/**
 * {@code CronSpan(cron, duration, tz)}: the union of the windows {@code [fire, fire + duration)} over every instant
 * {@code fire} at which the cron schedule fires in the time zone. The duration is elapsed time, so on a daylight-saving
 * night a window's local end moves (Turnkey's example: {@code 0 22 * * *} for 8h in New York ends at 7:00 after
 * spring-forward).
 *
 * <p>Turnkey does not say how fires behave where the zone's clocks jump; the choice here is that daylight saving never
 * removes a fire. The schedule fires whenever the wall clock shows a matching minute, so a local time repeated by
 * fall-back fires at both occurrences (and {@code * * * * *} for 1m stays active through the repeated hour). A local
 * time skipped by spring-forward fires at the instant it would have had under the old offset, i.e. as late into the
 * new time as it lay in the gap (02:30 fires at 03:30 after a one-hour jump).
 */
public final class CronSpan {
    // Only region names (the IANA database), not ZoneId's other spellings such as "+05:00" or "GMT+1".
    private static final Set<String> IANA_ZONES = Set.copyOf(ZoneId.getAvailableZoneIds());

    private final CronSchedule schedule;
    private final Duration duration;
    private final ZoneId zone;
    private final String durationText;

    private CronSpan(CronSchedule schedule, Duration duration, ZoneId zone, String durationText) {
        this.schedule = schedule;
        this.duration = duration;
        this.zone = zone;
        this.durationText = durationText;
    }

    /** @throws IllegalArgumentException naming the first argument that does not parse */
    public static CronSpan parse(String cron, String duration, String zone) {
        CronSchedule schedule = CronSchedule.parse(cron);
        Duration span = SpanDuration.parse(duration);
        if (!IANA_ZONES.contains(zone)) {
            throw new IllegalArgumentException("'" + zone + "' is not an IANA time zone name like America/New_York");
        }
        return new CronSpan(schedule, span, ZoneId.of(zone), duration);
    }

    /** Whether {@code now} lies in a window, i.e. the schedule fired in {@code (now - duration, now]}. */
    public boolean contains(Instant now) {
        return firesWithin(now.minus(duration), now);
    }

    public String cron() {
        return schedule.toString();
    }

    public String duration() {
        return durationText;
    }

    public String zone() {
        return zone.getId();
    }

    /**
     * Whether a fire lies in {@code (opensAfter, now]}, found by walking the schedule's local date-times downwards from
     * the latest local time {@code now} can have to the earliest {@code opensAfter} can have, under the largest and the
     * smallest offset in use around them. Every local time in between whose fire falls inside is found; those that map
     * outside (within an offset change of either end) are skipped.
     */
    private boolean firesWithin(Instant opensAfter, Instant now) {
        ZoneRules rules = zone.getRules();
        int[] offsets = offsetRange(rules, opensAfter, now);
        LocalDateTime from = localMinute(now, offsets[1]);
        LocalDateTime downTo = localMinute(opensAfter, offsets[0]);
        for (LocalDate date = from.toLocalDate(); !date.isBefore(downTo.toLocalDate()); date = date.minusDays(1)) {
            if (!schedule.matchesDate(date)) {
                continue;
            }
            boolean firstDay = date.equals(from.toLocalDate());
            for (int hour = schedule.hourAtOrBefore(firstDay ? from.getHour() : 23);
                    hour >= 0;
                    hour = schedule.hourAtOrBefore(hour - 1)) {
                boolean firstHour = firstDay && hour == from.getHour();
                for (int minute = schedule.minuteAtOrBefore(firstHour ? from.getMinute() : 59);
                        minute >= 0;
                        minute = schedule.minuteAtOrBefore(minute - 1)) {
                    LocalDateTime local = date.atTime(hour, minute);
                    if (local.isBefore(downTo)) {
                        return false;
                    }
                    if (firesWithin(local, rules, opensAfter, now)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** Whether local time {@code local} fires inside {@code (opensAfter, now]}, at either occurrence if it repeats. */
    private static boolean firesWithin(LocalDateTime local, ZoneRules rules, Instant opensAfter, Instant now) {
        ZoneOffsetTransition transition = rules.getTransition(local);
        if (transition == null) {
            return within(local.toInstant(rules.getOffset(local)), opensAfter, now);
        }
        return within(local.toInstant(transition.getOffsetBefore()), opensAfter, now)
                || (transition.isOverlap() && within(local.toInstant(transition.getOffsetAfter()), opensAfter, now));
    }

    private static boolean within(Instant fire, Instant opensAfter, Instant now) {
        return fire.isAfter(opensAfter) && !fire.isAfter(now);
    }

    /** The smallest and largest offset (seconds) in use from a day before {@code start} to a day after {@code end}. */
    private static int[] offsetRange(ZoneRules rules, Instant start, Instant end) {
        Instant earliest = start.minus(1, ChronoUnit.DAYS);
        int min = rules.getOffset(earliest).getTotalSeconds();
        int max = min;
        ZoneOffsetTransition transition = rules.nextTransition(earliest);
        Instant latest = end.plus(1, ChronoUnit.DAYS);
        while (transition != null && !transition.getInstant().isAfter(latest)) {
            int offset = transition.getOffsetAfter().getTotalSeconds();
            min = Math.min(min, offset);
            max = Math.max(max, offset);
            transition = rules.nextTransition(transition.getInstant());
        }
        return new int[] {min, max};
    }

    private static LocalDateTime localMinute(Instant instant, int offsetSeconds) {
        return LocalDateTime.ofInstant(instant, ZoneOffset.ofTotalSeconds(offsetSeconds))
                .truncatedTo(ChronoUnit.MINUTES);
    }

    @Override
    public String toString() {
        return "CronSpan('" + cron() + "', '" + durationText + "', '" + zone() + "')";
    }
}
