package dev.patchgrade.core.digest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SafeNamesTest {
    @Test
    void plainIdsKeepTheirName() {
        assertThat(SafeNames.jsonFile("1.005")).isEqualTo("1.005.json");
        assertThat(SafeNames.jsonFile("tenths-neg-15")).isEqualTo("tenths-neg-15.json");
    }

    @Test
    void nothingDangerousReachesTheFileSystem() {
        for (String id : List.of("../x", "a/b", "..", ".", ".hidden", "nul\u0000byte", "tab\there", "line\nbreak", "é", "/etc/passwd", "")) {
            String name = SafeNames.jsonFile(id);
            assertThat(name).as(id).matches("[A-Za-z0-9_][A-Za-z0-9._~-]*\\.json").doesNotContain("/").doesNotContain("..");
        }
    }

    @Test
    void veryLongIdsAreShortened() {
        String name = SafeNames.jsonFile("x".repeat(4000));
        assertThat(name.length()).isLessThan(100);
    }

    @Test
    void differentIdsNeverShareAFile() {
        List<String> ids = List.of("a/b", "a_b", "a?b", "a b", "x".repeat(4000), "x".repeat(4001), "..", "_.", "a_b~0000000000");
        Set<String> names = new HashSet<>();
        for (String id : ids) {
            assertThat(names.add(SafeNames.jsonFile(id))).as(id).isTrue();
        }
    }
}
