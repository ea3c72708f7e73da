package dev.keyhaven.bench;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import java.util.stream.IntStream;

/**
 * The serialised requests of one scenario. A constant source repeats one request (queries); a unique source hands
 * out request 0, 1, 2, … exactly once each, across every phase run with it, so no body is ever sent twice (for
 * activities a repeated body is an idempotent resubmission, which costs the server much less).
 *
 * <p>Requests of a unique source are stamped ahead of time by {@link #prepare}, in parallel, before a phase starts,
 * so the driver does not compete with the server for CPU while measuring. A phase that outruns its preparation gets
 * its requests stamped on demand; {@link #madeOnDemand()} counts those so the report can say so.
 */
final class RequestSource implements IntFunction<byte[]> {
    private final byte[] constant;
    private final IntFunction<byte[]> make;
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicLong onDemand = new AtomicLong();
    private volatile byte[][] prepared = new byte[0][];
    private volatile int preparedFrom;

    private RequestSource(byte[] constant, IntFunction<byte[]> make) {
        this.constant = constant;
        this.make = make;
    }

    static RequestSource constant(byte[] request) {
        return new RequestSource(request, null);
    }

    /** {@code make} builds and serialises request {@code i}; it must be safe to call from several threads. */
    static RequestSource unique(IntFunction<byte[]> make) {
        return new RequestSource(null, make);
    }

    /** Stamps the next {@code count} requests now (replacing any unused prepared ones). Not during a phase. */
    void prepare(int count) {
        if (constant != null) {
            return;
        }
        int from = next.get();
        prepared = new byte[0][];
        byte[][] made = IntStream.range(0, count)
                .parallel()
                .mapToObj(i -> make.apply(from + i))
                .toArray(byte[][]::new);
        preparedFrom = from;
        prepared = made;
    }

    /** The next request; the driver's own counter is ignored. */
    @Override
    public byte[] apply(int ignored) {
        if (constant != null) {
            return constant;
        }
        int i = next.getAndIncrement();
        byte[][] ready = prepared;
        int offset = i - preparedFrom;
        if (offset >= 0 && offset < ready.length) {
            byte[] request = ready[offset];
            ready[offset] = null; // sent once; let it go
            return request;
        }
        onDemand.incrementAndGet();
        return make.apply(i);
    }

    long madeOnDemand() {
        return onDemand.get();
    }
}
