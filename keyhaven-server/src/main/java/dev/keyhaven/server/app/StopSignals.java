package dev.keyhaven.server.app;

import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/**
 * The operator's request to stop: SIGTERM (service managers, {@code kill}) or SIGINT (Ctrl-C). Left to the JVM, these
 * run the shutdown hooks and end the process with status 128 + signal, which service managers report as a failure;
 * handled here, {@code serve} stops in order on its main thread and exits 0. The JDK has no public signal API;
 * {@code sun.misc.Signal} in {@code jdk.unsupported} is the one kept for exactly this use (JEP 260), hence the
 * compiler's "internal proprietary API" warning.
 */
final class StopSignals {
    private static final Logger LOG = LoggerFactory.getLogger(StopSignals.class);
    private static final String[] NAMES = {"TERM", "INT"};

    private final CountDownLatch received = new CountDownLatch(1);
    private volatile String signal = "";

    private StopSignals() {
    }

    /**
     * Takes over SIGTERM and SIGINT. A signal the JVM will not hand over (for example under {@code -Xrs}) keeps its
     * default behaviour, which the caller's shutdown hook covers.
     */
    static StopSignals install() {
        StopSignals signals = new StopSignals();
        for (String name : NAMES) {
            try {
                Signal.handle(new Signal(name), signals::onSignal);
            } catch (IllegalArgumentException unavailable) {
                LOG.atWarn().addKeyValue("signal", "SIG" + name).addKeyValue("reason", unavailable.getMessage())
                        .log("cannot handle signal; it will stop the JVM through its shutdown hooks instead");
            }
        }
        return signals;
    }

    private void onSignal(Signal received) {
        if (this.received.getCount() == 0) {
            LOG.atInfo().addKeyValue("signal", "SIG" + received.getName()).log("already stopping");
            return;
        }
        signal = "SIG" + received.getName();
        this.received.countDown();
    }

    /** Blocks until a stop signal arrives and returns its name ({@code SIGTERM}, {@code SIGINT}). */
    String await() throws InterruptedException {
        received.await();
        return signal;
    }
}
