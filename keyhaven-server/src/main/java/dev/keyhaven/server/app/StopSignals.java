package dev.keyhaven.server.app;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's request to stop: SIGTERM (service managers, {@code kill}) or SIGINT (Ctrl-C). Left to the JVM, these
 * run the shutdown hooks and end the process with status 128 + signal, which service managers report as a failure;
 * handled here, {@code serve} stops in order on its main thread and exits 0. The JDK has no public signal API;
 * {@code sun.misc.Signal} in {@code jdk.unsupported} is the one kept for exactly this use (JEP 260). It is reached
 * reflectively: named in source, it draws the compiler's "internal proprietary API" warning, which no
 * {@code @SuppressWarnings} silences, and the build fails on every warning.
 */
final class StopSignals {
    private static final Logger LOG = LoggerFactory.getLogger(StopSignals.class);
    private static final String[] NAMES = {"TERM", "INT"};

    private final CountDownLatch received = new CountDownLatch(1);
    private volatile String signal = "";

    private StopSignals() {}

    /**
     * Takes over SIGTERM and SIGINT. A signal the JVM will not hand over (for example under {@code -Xrs}) keeps its
     * default behaviour, which the caller's shutdown hook covers.
     */
    static StopSignals install() {
        StopSignals signals = new StopSignals();
        for (String name : NAMES) {
            try {
                handle(name, signals::onSignal);
            } catch (IllegalArgumentException unavailable) {
                LOG.atWarn()
                        .addKeyValue("signal", "SIG" + name)
                        .addKeyValue("reason", unavailable.getMessage())
                        .log("cannot handle signal; it will stop the JVM through its shutdown hooks instead");
            }
        }
        return signals;
    }

    /**
     * {@code sun.misc.Signal.handle(new Signal(name), handler)}, with {@code handler} given the signal's name.
     *
     * @throws IllegalArgumentException when the JVM will not hand this signal over (as {@code Signal} does)
     */
    private static void handle(String name, Consumer<String> handler) {
        try {
            Class<?> signalClass = Class.forName("sun.misc.Signal");
            Class<?> handlerType = Class.forName("sun.misc.SignalHandler");
            Object signal = signalClass.getConstructor(String.class).newInstance(name);
            // SignalHandler has the one method, handle(Signal); the Object methods answer by identity.
            Object proxy = Proxy.newProxyInstance(
                    StopSignals.class.getClassLoader(),
                    new Class<?>[] {handlerType},
                    (self, method, args) -> switch (method.getName()) {
                        case "handle" -> {
                            handler.accept(name);
                            yield null;
                        }
                        case "equals" -> self == args[0];
                        case "hashCode" -> System.identityHashCode(self);
                        default -> "StopSignals handler for SIG" + name;
                    });
            signalClass.getMethod("handle", signalClass, handlerType).invoke(null, signal, proxy);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof IllegalArgumentException unavailable) {
                throw unavailable;
            }
            throw new IllegalStateException("cannot handle SIG" + name, e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("sun.misc.Signal is not available", e);
        }
    }

    private void onSignal(String name) {
        if (this.received.getCount() == 0) {
            LOG.atInfo().addKeyValue("signal", "SIG" + name).log("already stopping");
            return;
        }
        signal = "SIG" + name;
        this.received.countDown();
    }

    /** Blocks until a stop signal arrives and returns its name ({@code SIGTERM}, {@code SIGINT}). */
    String await() throws InterruptedException {
        received.await();
        return signal;
    }
}
