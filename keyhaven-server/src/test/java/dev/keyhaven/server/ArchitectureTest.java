package dev.keyhaven.server;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackages;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.simpleNameEndingWith;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.SecretKeyAccess;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The dependency rules of DESIGN.md and ARCHITECTURE.md, enforced. */
class ArchitectureTest {
    private static final String ROOT = "dev.keyhaven.server";
    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(ROOT);
    }

    @Test
    void packagesFormNoCycles() {
        slices().matching(ROOT + ".(*)..").should().beFreeOfCycles().check(classes);
    }

    @Test
    void onlyTheApplicationKnowsTheStore() {
        noClasses()
                .that()
                .resideOutsideOfPackages(ROOT + ".app..", ROOT + ".store..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage(ROOT + ".store..")
                .check(classes);
    }

    @Test
    void nothingButTheApplicationDependsOnTheApplication() {
        noClasses()
                .that()
                .resideOutsideOfPackage(ROOT + ".app..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage(ROOT + ".app..")
                .check(classes);
    }

    @Test
    void onlyTheApplicationAssemblesFeatures() {
        // Each feature's *Feature class builds its handlers and queries from what it is given; features never
        // assemble one another, so the wiring's order is the one place their dependencies show.
        noClasses()
                .that()
                .resideOutsideOfPackage(ROOT + ".app..")
                .should()
                .dependOnClassesThat(simpleNameEndingWith("Feature").and(resideInAPackage(ROOT + "..")))
                .check(classes);
    }

    @Test
    void theApplicationReachesFeatureHandlersOnlyThroughTheirFeature() {
        // The activity engine's own handlers (votes) and the handler interface are not a feature's.
        noClasses()
                .that()
                .resideInAPackage(ROOT + ".app..")
                .should()
                .dependOnClassesThat(simpleNameEndingWith("Handler")
                        .and(resideInAPackage(ROOT + ".."))
                        .and(resideOutsideOfPackage(ROOT + ".activity..")))
                .check(classes);
    }

    @Test
    void theHttpLayerTouchesNeitherStorageNorKeys() {
        noClasses()
                .that()
                .resideInAPackage(ROOT + ".http..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        ROOT + ".store..",
                        ROOT + ".tx..",
                        "java.sql..",
                        "dev.keyhaven.crypto..",
                        "dev.keyhaven.chains..")
                .check(classes);
    }

    @Test
    void handlersAndFeaturesNeverSeeHttp() {
        noClasses()
                .that()
                .resideOutsideOfPackages(ROOT + ".http..", ROOT + ".app..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(ROOT + ".http..", "io.helidon..")
                .check(classes);
    }

    @Test
    void theActivityEngineKnowsNoFeature() {
        noClasses()
                .that()
                .resideInAPackage(ROOT + ".activity..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        ROOT + ".user..",
                        ROOT + ".organization..",
                        ROOT + ".policy..",
                        ROOT + ".webauthn..",
                        ROOT + ".auth..",
                        ROOT + ".wallet..",
                        ROOT + ".privatekey..",
                        ROOT + ".signing..",
                        ROOT + ".custody..",
                        ROOT + ".export..",
                        ROOT + ".keyimport..",
                        ROOT + ".recovery..",
                        ROOT + ".mail..",
                        ROOT + ".webhook..",
                        ROOT + ".otp..",
                        ROOT + ".session..",
                        ROOT + ".authproxy..",
                        ROOT + ".sms..",
                        ROOT + ".oidc..",
                        ROOT + ".oauthlogin..",
                        ROOT + ".oauth2..",
                        ROOT + ".proof..",
                        ROOT + ".tvc..",
                        ROOT + ".smartcontract..")
                .check(classes);
    }

    @Test
    void onlySigningContractInterfacesAndThePolicyVocabularyReadTransactions() {
        // keyhaven-chains parses hostile bytes; its callers are the features whose inputs are transactions and
        // contract interfaces, and the policy vocabulary that declares what policies may read of them.
        noClasses()
                .that()
                .resideOutsideOfPackages(ROOT + ".signing..", ROOT + ".smartcontract..", ROOT + ".policy..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.keyhaven.chains..")
                .check(classes);
    }

    @Test
    void smsKnowsNoFeature() {
        classes()
                .that()
                .resideInAPackage(ROOT + ".sms..")
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage(ROOT + ".sms..", "java..")
                .check(classes);
    }

    @Test
    void mailKnowsNoFeature() {
        classes()
                .that()
                .resideInAPackage(ROOT + ".mail..")
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage(ROOT + ".mail..", "java..", "jakarta.mail..", "org.slf4j..")
                .check(classes);
    }

    @Test
    void rememberedStateBuildsOnTransactionsAlone() {
        classes()
                .that()
                .resideInAPackage(ROOT + ".state..")
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage(ROOT + ".state..", ROOT + ".tx..", "java..")
                .check(classes);
    }

    @Test
    void theSharedVocabularyDependsOnNothingElseInTheServer() {
        noClasses()
                .that()
                .resideInAPackage(ROOT + ".api..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        ROOT + ".activity..",
                        ROOT + ".auth..",
                        ROOT + ".user..",
                        ROOT + ".organization..",
                        ROOT + ".policy..",
                        ROOT + ".store..",
                        ROOT + ".http..",
                        ROOT + ".webauthn..",
                        ROOT + ".tx..",
                        ROOT + ".custody..",
                        ROOT + ".wallet..",
                        ROOT + ".privatekey..",
                        ROOT + ".signing..",
                        ROOT + ".webhook..")
                .check(classes);
    }

    @Test
    void onlyCustodyHandlesPrivateKeyMaterial() {
        // Features hold public keys and sealed blobs; opening, deriving and signing happen in custody. The app's
        // key files (the root user's API key pair, written once at bootstrap) are the one other holder.
        noClasses()
                .that()
                .resideOutsideOfPackages(ROOT + ".custody..", ROOT + ".app..")
                .should()
                .dependOnClassesThat()
                .haveFullyQualifiedName("dev.keyhaven.crypto.SecretBytes")
                .orShould()
                .dependOnClassesThat()
                .haveFullyQualifiedName("dev.keyhaven.crypto.hd.Mnemonic")
                .orShould()
                .dependOnClassesThat()
                .haveFullyQualifiedName("dev.keyhaven.crypto.hd.HdKeys")
                .orShould()
                .dependOnClassesThat()
                .haveFullyQualifiedName("dev.keyhaven.crypto.sign.PayloadSigner")
                .orShould()
                .dependOnClassesThat()
                .haveFullyQualifiedName("dev.keyhaven.crypto.bundle.TurnkeyHpke")
                .check(classes);
    }

    @Test
    void custodyKnowsNoFeature() {
        // Custody holds keys and hands out handles; each protocol built on them (OTP bundles, OAuth 2.0 client
        // secrets, webhook signatures, session and OIDC tokens) lives in its feature, which depends on custody.
        noClasses()
                .that()
                .resideInAPackage(ROOT + ".custody..")
                .should()
                .dependOnClassesThat(resideInAPackage(ROOT + "..")
                        .and(resideOutsideOfPackages(ROOT + ".custody..", ROOT + ".api..", ROOT + ".tx..")))
                .check(classes);
    }

    @Test
    void onlyCryptoAndCustodyReadSecretBytes() {
        // Tink's rule: reading key material takes an access token, and only the packages allowed to see key bytes
        // may take it. Checked over every module the server is built from (crypto, policy, chains, client, server).
        JavaClasses everything = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.keyhaven");
        assertThat(everything.contain("dev.keyhaven.client.ApiKeyStamper"))
                .as("the other modules are imported too")
                .isTrue();
        noClasses()
                .that()
                .resideOutsideOfPackages("dev.keyhaven.crypto..", ROOT + ".custody..")
                .should()
                .dependOnClassesThat()
                .haveFullyQualifiedName(SecretKeyAccess.class.getName())
                .orShould()
                .callMethod(SecretBytes.class, "apply", SecretKeyAccess.class, Function.class)
                .check(everything);
    }

    @Test
    void onlyTheStoreUsesJdbc() {
        noClasses()
                .that()
                .resideOutsideOfPackage(ROOT + ".store..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("java.sql..", "javax.sql..", "com.zaxxer..", "org.flywaydb..")
                .check(classes);
    }
}
