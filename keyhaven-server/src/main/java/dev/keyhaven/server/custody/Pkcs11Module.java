package dev.keyhaven.server.custody;

import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * What SunPKCS11's public API does not offer, asked of the same PKCS#11 module through the JDK's own wrapper
 * ({@code sun.security.pkcs11.wrapper}, module {@code jdk.crypto.cryptoki}): the tokens present and their labels
 * (SunPKCS11's configuration names a slot by number or list index, never by token label, and SoftHSM2 numbers its
 * slots after each token's serial), and a secret key's attributes, so that a key that could leave the token is
 * refused and a new one is created with exactly the attributes a KEK needs.
 *
 * <p>Why this and not something else: the wrapper is the JDK's, already loaded by SunPKCS11 for the same module, and
 * {@code PKCS11.getInstance} hands both SunPKCS11 and us the one instance per library path (a module may be
 * initialized only once per process), so no native code of ours and no second {@code C_Initialize}. Calling the
 * module through {@code java.lang.foreign} would be native binding of our own (structure layouts per platform); a
 * slot index tried one by one cannot read a label at all. The package is not exported, so the JVM must run with
 * {@code --add-exports jdk.crypto.cryptoki/sun.security.pkcs11.wrapper=ALL-UNNAMED}: the jar's manifest says
 * {@code Add-Exports: jdk.crypto.cryptoki/sun.security.pkcs11.wrapper}, and the build passes the flag to tests. It is
 * reached reflectively because javac refuses {@code --add-exports} of a system module together with {@code --release}.
 */
final class Pkcs11Module {
    static final long CKF_OS_LOCKING_OK = 0x2L;
    static final long CKF_TOKEN_INITIALIZED = 0x400L;
    static final long CKF_RW_SESSION = 0x2L;
    static final long CKF_SERIAL_SESSION = 0x4L;
    static final long CKA_CLASS = 0x0L;
    static final long CKA_TOKEN = 0x1L;
    static final long CKA_PRIVATE = 0x2L;
    static final long CKA_LABEL = 0x3L;
    static final long CKA_KEY_TYPE = 0x100L;
    static final long CKA_SENSITIVE = 0x103L;
    static final long CKA_ENCRYPT = 0x104L;
    static final long CKA_DECRYPT = 0x105L;
    static final long CKA_WRAP = 0x106L;
    static final long CKA_UNWRAP = 0x107L;
    static final long CKA_SIGN = 0x108L;
    static final long CKA_VERIFY = 0x10AL;
    static final long CKA_DERIVE = 0x10CL;
    static final long CKA_VALUE_LEN = 0x161L;
    static final long CKA_EXTRACTABLE = 0x162L;
    static final long CKO_SECRET_KEY = 0x4L;
    static final long CKK_AES = 0x1FL;
    static final long CKM_AES_KEY_GEN = 0x1080L;
    static final long CKR_PIN_INCORRECT = 0xA0L;
    static final long CKR_PIN_EXPIRED = 0xA3L;
    static final long CKR_PIN_LOCKED = 0xA4L;

    private static final String WRAPPER = "sun.security.pkcs11.wrapper.";
    static final String ADD_EXPORTS = "--add-exports jdk.crypto.cryptoki/sun.security.pkcs11.wrapper=ALL-UNNAMED";

    private final Path library;
    private final Object pkcs11;
    private final Api api;

    private Pkcs11Module(Path library, Object pkcs11, Api api) {
        this.library = library;
        this.pkcs11 = pkcs11;
        this.api = api;
    }

    /**
     * Loads and initializes the module at {@code library} the way SunPKCS11 does (OS locking, so that SunPKCS11's
     * later {@code getInstance} for the same path finds this very instance), or fails naming why.
     */
    static Pkcs11Module load(Path library) {
        if (!Files.isRegularFile(library)) {
            throw new CustodyException("the PKCS#11 module library " + library + " does not exist");
        }
        Api api = Api.get();
        try {
            Object initArgs = api.initArgs.getDeclaredConstructor().newInstance();
            api.initArgsFlags.setLong(initArgs, CKF_OS_LOCKING_OK);
            Object pkcs11 = api.getInstance.invoke(null, libraryPath(library), null, initArgs, false);
            return new Pkcs11Module(library, pkcs11, api);
        } catch (InvocationTargetException e) {
            throw new CustodyException(
                    "cannot load the PKCS#11 module library " + library + ": " + describe(e.getCause()), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw Api.notAccessible(e);
        }
    }

    /** The path SunPKCS11 is configured with, too: its module cache is keyed by the string, not the file. */
    static String libraryPath(Path library) {
        return library.toAbsolutePath().normalize().toString();
    }

    Path library() {
        return library;
    }

    /** A token present in a slot of this module. */
    record Token(long slot, String label) {}

    /** The initialized tokens present, in slot order; an uninitialized token (SoftHSM2's free slot) has no label. */
    List<Token> tokens() {
        List<Token> tokens = new ArrayList<>();
        for (long slot : (long[]) call(api.getSlotList, true)) {
            Object info = call(api.getTokenInfo, slot);
            try {
                if ((api.tokenFlags.getLong(info) & CKF_TOKEN_INITIALIZED) == 0) {
                    continue;
                }
                // blank padded to 32 characters (PKCS#11 CK_TOKEN_INFO.label)
                tokens.add(new Token(slot, new String((char[]) api.tokenLabel.get(info)).stripTrailing()));
            } catch (IllegalAccessException e) {
                throw Api.notAccessible(e);
            }
        }
        return tokens;
    }

    /** A session of our own on {@code slot}; it sees the token's private objects once SunPKCS11 has logged in. */
    Session openSession(long slot, boolean readWrite) {
        long flags = CKF_SERIAL_SESSION | (readWrite ? CKF_RW_SESSION : 0);
        return new Session((Long) call(api.openSession, slot, flags, null, null));
    }

    /** The PKCS#11 return value ({@code CKR_*}) of the first {@code PKCS11Exception} among the causes, if any. */
    static OptionalLong errorCode(Throwable failure) {
        Class<?> exceptionClass;
        try {
            exceptionClass = Class.forName(WRAPPER + "PKCS11Exception");
        } catch (ClassNotFoundException e) {
            return OptionalLong.empty();
        }
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (exceptionClass.isInstance(t)) {
                try {
                    return OptionalLong.of(
                            (Long) exceptionClass.getMethod("getErrorCode").invoke(t));
                } catch (ReflectiveOperationException e) {
                    return OptionalLong.empty();
                }
            }
        }
        return OptionalLong.empty();
    }

    /** The key attributes a KEK is checked on. */
    record KeyAttributes(long keyType, long valueLength, boolean sensitive, boolean extractable) {}

    /** A PKCS#11 session opened by us; closing it closes the session (the login stays: it is the token's). */
    final class Session implements AutoCloseable {
        private final long id;

        private Session(long id) {
            this.id = id;
        }

        /** The handles of the token secret keys labelled {@code label}. */
        long[] secretKeys(String label) {
            Object template = attributes(
                    attribute(CKA_CLASS, CKO_SECRET_KEY), attribute(CKA_TOKEN, true), attribute(CKA_LABEL, label));
            call(api.findObjectsInit, id, template);
            try {
                return (long[]) call(api.findObjects, id, 16L);
            } finally {
                call(api.findObjectsFinal, id);
            }
        }

        KeyAttributes attributesOf(long key) {
            Object template =
                    attributes(query(CKA_KEY_TYPE), query(CKA_VALUE_LEN), query(CKA_SENSITIVE), query(CKA_EXTRACTABLE));
            call(api.getAttributeValue, id, key, template);
            try {
                // the wrapper puts new attribute objects, holding the values, into the array it was given
                return new KeyAttributes(
                        (Long) api.getLong.invoke(Array.get(template, 0)),
                        (Long) api.getLong.invoke(Array.get(template, 1)),
                        (Boolean) api.getBoolean.invoke(Array.get(template, 2)),
                        (Boolean) api.getBoolean.invoke(Array.get(template, 3)));
            } catch (InvocationTargetException e) {
                throw new CustodyException(
                        "the PKCS#11 module returned an attribute Keyhaven cannot read: " + describe(e.getCause()));
            } catch (IllegalAccessException e) {
                throw Api.notAccessible(e);
            }
        }

        /**
         * Generates an AES-256 token key labelled {@code label} inside the token: private (visible only after
         * login), sensitive and not extractable (its value can never be read or wrapped out), usable to encrypt and
         * decrypt and for nothing else.
         */
        long generateAes256(String label) {
            Object template = attributes(
                    attribute(CKA_CLASS, CKO_SECRET_KEY),
                    attribute(CKA_KEY_TYPE, CKK_AES),
                    attribute(CKA_VALUE_LEN, 32L),
                    attribute(CKA_TOKEN, true),
                    attribute(CKA_PRIVATE, true),
                    attribute(CKA_LABEL, label),
                    attribute(CKA_SENSITIVE, true),
                    attribute(CKA_EXTRACTABLE, false),
                    attribute(CKA_ENCRYPT, true),
                    attribute(CKA_DECRYPT, true),
                    attribute(CKA_WRAP, false),
                    attribute(CKA_UNWRAP, false),
                    attribute(CKA_SIGN, false),
                    attribute(CKA_VERIFY, false),
                    attribute(CKA_DERIVE, false));
            try {
                Object mechanism = api.mechanism.newInstance(CKM_AES_KEY_GEN);
                return (Long) call(api.generateKey, id, mechanism, template);
            } catch (ReflectiveOperationException e) {
                throw Api.notAccessible(e);
            }
        }

        @Override
        public void close() {
            call(api.closeSession, id);
        }
    }

    private Object attribute(long type, Object value) {
        try {
            return switch (value) {
                case Boolean b -> api.booleanAttribute.newInstance(type, b);
                case Long l -> api.longAttribute.newInstance(type, l);
                case String s -> api.objectAttribute.newInstance(type, s);
                default -> throw new IllegalArgumentException("attribute value " + value.getClass());
            };
        } catch (ReflectiveOperationException e) {
            throw Api.notAccessible(e);
        }
    }

    private Object query(long type) {
        try {
            return api.queryAttribute.newInstance(type);
        } catch (ReflectiveOperationException e) {
            throw Api.notAccessible(e);
        }
    }

    private Object attributes(Object... attributes) {
        Object array = Array.newInstance(api.attribute, attributes.length);
        for (int i = 0; i < attributes.length; i++) {
            Array.set(array, i, attributes[i]);
        }
        return array;
    }

    /** Calls the module; a PKCS#11 error becomes a CustodyException naming the call and its CKR_ code. */
    private Object call(Method method, Object... args) {
        try {
            return method.invoke(pkcs11, args);
        } catch (InvocationTargetException e) {
            throw new CustodyException(
                    "PKCS#11 " + method.getName() + " failed in " + library + ": " + describe(e.getCause()),
                    e.getCause());
        } catch (IllegalAccessException e) {
            throw Api.notAccessible(e);
        }
    }

    /** A wrapper failure in one line: PKCS11Exception's message is the CKR_ name (no secret is ever in it). */
    static String describe(Throwable failure) {
        String message = failure.getMessage();
        return message == null || message.isBlank() ? failure.getClass().getSimpleName() : message.strip();
    }

    /** The wrapper's classes and members, looked up once. */
    private record Api(
            Method getInstance,
            Class<?> initArgs,
            Field initArgsFlags,
            Method getSlotList,
            Method getTokenInfo,
            Field tokenFlags,
            Field tokenLabel,
            Method openSession,
            Method closeSession,
            Method findObjectsInit,
            Method findObjects,
            Method findObjectsFinal,
            Method getAttributeValue,
            Method generateKey,
            Class<?> attribute,
            Constructor<?> booleanAttribute,
            Constructor<?> longAttribute,
            Constructor<?> objectAttribute,
            Constructor<?> queryAttribute,
            Method getBoolean,
            Method getLong,
            Constructor<?> mechanism) {

        private static volatile Api instance;

        static Api get() {
            Api api = instance;
            if (api == null) {
                api = lookUp();
                instance = api;
            }
            return api;
        }

        private static Api lookUp() {
            try {
                Class<?> pkcs11 = Class.forName(WRAPPER + "PKCS11");
                Class<?> initArgs = Class.forName(WRAPPER + "CK_C_INITIALIZE_ARGS");
                Class<?> tokenInfo = Class.forName(WRAPPER + "CK_TOKEN_INFO");
                Class<?> attribute = Class.forName(WRAPPER + "CK_ATTRIBUTE");
                Class<?> mechanism = Class.forName(WRAPPER + "CK_MECHANISM");
                Class<?> notify = Class.forName(WRAPPER + "CK_NOTIFY");
                Class<?> attributes = attribute.arrayType();
                if (!pkcs11.getModule().isExported(pkcs11.getPackageName(), Pkcs11Module.class.getModule())) {
                    throw new IllegalAccessException("package not exported");
                }
                return new Api(
                        pkcs11.getMethod("getInstance", String.class, String.class, initArgs, boolean.class),
                        initArgs,
                        initArgs.getField("flags"),
                        pkcs11.getMethod("C_GetSlotList", boolean.class),
                        pkcs11.getMethod("C_GetTokenInfo", long.class),
                        tokenInfo.getField("flags"),
                        tokenInfo.getField("label"),
                        pkcs11.getMethod("C_OpenSession", long.class, long.class, Object.class, notify),
                        pkcs11.getMethod("C_CloseSession", long.class),
                        pkcs11.getMethod("C_FindObjectsInit", long.class, attributes),
                        pkcs11.getMethod("C_FindObjects", long.class, long.class),
                        pkcs11.getMethod("C_FindObjectsFinal", long.class),
                        pkcs11.getMethod("C_GetAttributeValue", long.class, long.class, attributes),
                        pkcs11.getMethod("C_GenerateKey", long.class, mechanism, attributes),
                        attribute,
                        attribute.getConstructor(long.class, boolean.class),
                        attribute.getConstructor(long.class, long.class),
                        attribute.getConstructor(long.class, Object.class),
                        attribute.getConstructor(long.class),
                        attribute.getMethod("getBoolean"),
                        attribute.getMethod("getLong"),
                        mechanism.getConstructor(long.class));
            } catch (ClassNotFoundException e) {
                throw new CustodyException(
                        "this Java has no PKCS#11 support (module jdk.crypto.cryptoki): use a full JDK or JRE", e);
            } catch (ReflectiveOperationException e) {
                throw notAccessible(e);
            }
        }

        static CustodyException notAccessible(ReflectiveOperationException e) {
            return new CustodyException(
                    "the JVM does not let Keyhaven reach the JDK's PKCS#11 wrapper: run java with " + ADD_EXPORTS
                            + " (java -jar keyhaven.jar adds it from the jar's manifest)",
                    e);
        }
    }
}
