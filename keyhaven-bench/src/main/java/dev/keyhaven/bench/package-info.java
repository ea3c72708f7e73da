/**
 * The load driver behind BENCHMARKS.md: it starts the real server jar on each store, prepares stamped requests ahead
 * of time (so the driver's own signing does not compete with the server during measurement), and drives a closed
 * loop of concurrent clients, reporting throughput and latency percentiles.
 */
package dev.keyhaven.bench;
