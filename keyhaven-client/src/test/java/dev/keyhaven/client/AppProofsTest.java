package dev.keyhaven.client;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.client.AppProofs.AppProof;
import org.junit.jupiter.api.Test;

/**
 * The client's verifier on proofs made by Turnkey's own enclaves: the two vectors of {@code @turnkey/crypto}'s
 * {@code proof-tests.ts} (tkhq/sdk), which its {@code verifyAppProofSignature} accepts, and the same malformed ones it
 * rejects.
 */
class AppProofsTest {
    private static final String SCHEME = "SIGNATURE_SCHEME_EPHEMERAL_KEY_P256";
    private static final AppProof TURNKEY_1 = new AppProof(
            SCHEME,
            "043144c138d522996833f9a5352b98da2ba669f1ab3f712b243a1993c89c7d682f2163c4c63c6625c483cd5e8714e9a2039e1ec0"
                    + "5cebadf469a4adb7e721d16e19047b2846a313c6f3c543c23ae9779118c2411b28bd5d76b25572903c360240c841f4c4"
                    + "a3af4a297d770e9d8bceb5e7e5be31a8fe16e571b452e3de99ffcebcb2e1",
            "{\"type\":\"APP_PROOF_TYPE_ADDRESS_DERIVATION\",\"timestampMs\":\"1758058763571\",\"addressDerivationProof\""
                    + ":{\"organizationId\":\"3a2de333-972b-45bf-8a7a-83c4167b81e2\",\"walletId\":\"ad8a06ec-c2f4-55f2-"
                    + "ac43-65991efbfdd1\",\"derivationPath\":\"m/44'/60'/0'/0/0\",\"address\":\"0xb84b4730Cd81Bc82Ee6B1dE"
                    + "6c343Ebd7928138DC\"}}",
            "712bd9b77bd19430c90dbd8fde1d5b1d1d6f18ec7e9534b7a68a42544c76ba75a7cf1fc39583df3bed3ca394b721c6ab1fef8db7"
                    + "794e5ef6a97b1ca45d7a5247");
    private static final AppProof TURNKEY_2 = new AppProof(
            SCHEME,
            "04ab52e052b94bc7f3badb1e0f3500d11062c9f44307bf76091b5c5f48cace9d35caba26028238e391f735c0a74996f98f69c593"
                    + "916aa5fcd6b3c7a56d33b5a31d0435d0354ae36981a010965d13fe6539827be12a17fcbb0fa35586c5b7732c4e8dc6a0"
                    + "efa81e762633f271d05d5440b2d4e97df48912d214c895bc42c7c61d076e",
            "{\"type\":\"APP_PROOF_TYPE_ADDRESS_DERIVATION\",\"timestampMs\":\"1758058843846\",\"addressDerivationProof\""
                    + ":{\"organizationId\":\"81f458bd-f42f-4b8f-b487-9a232afc9767\",\"walletId\":\"568df378-e609-50e2-"
                    + "877d-86e6a7b78f66\",\"derivationPath\":\"m/44'/60'/0'/0/0\",\"address\":\"0x5A1541859016c22265F5CB"
                    + "39fFd1beF6c48D7ea7\"}}",
            "5a3e694a551c6688c1ce5f43de2d0e99b4a77ff03f01b3dddf66ae6c44cb4777583c49f25354511d1d68defd710553be30eab95c"
                    + "2b3c8f7161ed3d792c7a09d7");

    @Test
    void turnkeysOwnProofsVerify() {
        assertThatCode(() -> AppProofs.verifyAppProofSignature(TURNKEY_1)).doesNotThrowAnyException();
        assertThatCode(() -> AppProofs.verifyAppProofSignature(TURNKEY_2)).doesNotThrowAnyException();
    }

    @Test
    void mixedUpProofsDoNot() {
        for (AppProof malformed : new AppProof[] {
            new AppProof(SCHEME, TURNKEY_1.publicKey(), TURNKEY_2.proofPayload(), TURNKEY_2.signature()),
            new AppProof(SCHEME, TURNKEY_2.publicKey(), TURNKEY_1.proofPayload(), TURNKEY_2.signature()),
            new AppProof(SCHEME, TURNKEY_2.publicKey(), TURNKEY_2.proofPayload(), TURNKEY_1.signature())
        }) {
            assertThatThrownBy(() -> AppProofs.verifyAppProofSignature(malformed))
                    .isInstanceOf(AppProofs.VerificationException.class)
                    .hasMessageContaining("does not verify");
        }
    }

    @Test
    void malformedKeysAndSignaturesAreNamed() {
        assertThatThrownBy(() -> AppProofs.verifyAppProofSignature(new AppProof(
                        SCHEME, TURNKEY_1.publicKey().substring(130), TURNKEY_1.proofPayload(), TURNKEY_1.signature())))
                .hasMessageContaining("130-byte");
        assertThatThrownBy(() -> AppProofs.verifyAppProofSignature(new AppProof(
                        SCHEME,
                        TURNKEY_1.publicKey(),
                        TURNKEY_1.proofPayload(),
                        TURNKEY_1.signature().substring(2))))
                .hasMessageContaining("64-byte");
        assertThatThrownBy(() -> AppProofs.verifyAppProofSignature(
                        new AppProof(SCHEME, "zz", TURNKEY_1.proofPayload(), TURNKEY_1.signature())))
                .hasMessageContaining("not hex");
    }
}
