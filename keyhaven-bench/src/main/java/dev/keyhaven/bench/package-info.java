/**
 * The load driver behind BENCHMARKS.md: it starts the real server jar on each store, prepares stamped requests ahead
 * of time (so the driver's own signing does not compete with the server during measurement), drives a closed loop of
 * concurrent clients to find the peak throughput and an open loop at a fraction of it for latency, and reports
 * throughput, latency percentiles and CPU per request. The JMH benchmarks of the raw crypto are in
 * {@code dev.keyhaven.bench.jmh}.
 */
package dev.keyhaven.bench;
