package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ExecutableCheckTest {
    private static boolean known(int... bytes) {
        byte[] magic = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            magic[i] = (byte) bytes[i];
        }
        return ExecutableCheck.knownFormat(magic, magic.length);
    }

    @Test
    void recognisesShebangElfAndMachO() {
        assertThat(known('#', '!', '/', 'b')).isTrue();
        assertThat(known('#', '!')).isTrue();
        assertThat(known(0x7f, 'E', 'L', 'F')).isTrue();
        assertThat(known(0xcf, 0xfa, 0xed, 0xfe)).isTrue();
        assertThat(known(0xca, 0xfe, 0xba, 0xbe)).isTrue();
    }

    @Test
    void rejectsTextAndShortFiles() {
        assertThat(known('e', 'c', 'h', 'o')).isFalse();
        assertThat(known('#', ' ', '!', '/')).isFalse();
        assertThat(known(0x7f, 'E', 'L')).isFalse();
        assertThat(known()).isFalse();
    }
}
