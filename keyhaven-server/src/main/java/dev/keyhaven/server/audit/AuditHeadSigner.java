package dev.keyhaven.server.audit;

import dev.keyhaven.client.AuditChain;
import dev.keyhaven.client.AuditLogVerifier.SignedHead;
import dev.keyhaven.server.custody.ServerIdentity;
import dev.keyhaven.server.tx.Transactor;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Signs the head of every chain that has moved since it was last signed, with Keyhaven's identity key, every
 * {@link #INTERVAL} while the server serves. A signed head fixes every entry up to it: rewriting the chain before it
 * would take the identity key, which only the KEK opens. Several servers on one database may sign the same head; the
 * second signature is dropped.
 */
public final class AuditHeadSigner implements AutoCloseable {
    /** How often heads are signed: the window in which the newest entries are protected only by the chain. */
    public static final Duration INTERVAL = Duration.ofSeconds(10);

    private static final Logger LOG = LoggerFactory.getLogger(AuditHeadSigner.class);

    private final Transactor transactor;
    private final AuditLogRepository log;
    private final ServerIdentity identity;
    private final Clock clock;
    private ScheduledExecutorService timer;

    public AuditHeadSigner(Transactor transactor, AuditLogRepository log, ServerIdentity identity, Clock clock) {
        this.transactor = transactor;
        this.log = log;
        this.identity = identity;
        this.clock = clock;
    }

    /** Starts signing every {@link #INTERVAL}. */
    public synchronized void start() {
        if (timer != null) {
            return;
        }
        timer = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("keyhaven-audit-heads").daemon().factory());
        timer.scheduleWithFixedDelay(this::signQuietly, 0, INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void signQuietly() {
        try {
            signHeads();
        } catch (RuntimeException e) {
            // The next round signs what this one could not (the database may be briefly unavailable).
            LOG.warn("signing audit heads failed: {}", e.toString());
        }
    }

    /** Signs every head that has moved since its last signature; returns how many it signed. */
    public int signHeads() {
        List<AuditLogRepository.Head> unsigned = transactor.read(log::unsignedHeads);
        Instant now = clock.instant();
        for (AuditLogRepository.Head head : unsigned) {
            String hash = head.hash().orElseThrow();
            byte[] signature = identity.sign(AuditChain.headStatement(head.organizationId(), head.seq(), hash)
                    .getBytes(StandardCharsets.UTF_8));
            SignedHead signed = new SignedHead(
                    head.organizationId(), head.seq(), hash, HexFormat.of().formatHex(signature), now.toString());
            transactor.write(tx -> {
                log.insertSignedHead(tx, signed, now);
                return null;
            });
        }
        return unsigned.size();
    }

    @Override
    public synchronized void close() {
        if (timer != null) {
            timer.shutdownNow();
            timer = null;
        }
    }
}
