/**
 * The time functions of the policy language, usable on their own: {@link dev.keyhaven.policy.time.Rfc3339} for
 * {@code Timestamp('<rfc3339>')}, and {@link dev.keyhaven.policy.time.CronSpan} (a
 * {@link dev.keyhaven.policy.time.CronSchedule}, a duration and a time zone) for
 * {@code CronSpan('<cron>', '<duration>', '<tz>')}. Each parser throws {@link java.lang.IllegalArgumentException}
 * with a message naming the problem; the evaluator reports it as an {@code INVALID_ARGUMENT} error.
 */
package dev.keyhaven.policy.time;
