package dev.patchgrade.core.cases;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ShardTest {
    private static List<Case> cases(int count) {
        List<Case> cases = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            cases.add(new Case("case-" + i, List.of(), null, null, i + 1));
        }
        return cases;
    }

    @Test
    void shardsPartitionTheCasesExactly() {
        List<Case> all = cases(1000);
        Set<String> seen = new HashSet<>();
        int total = 0;
        for (int k = 1; k <= 4; k++) {
            List<Case> part = select(Shard.parse(k + "/4"), all);
            assertThat(part.size()).as("shard %d is roughly a quarter", k).isBetween(180, 320);
            part.forEach(c -> assertThat(seen.add(c.id())).isTrue());
            total += part.size();
        }
        assertThat(total).isEqualTo(1000);
    }

    @Test
    void membershipDoesNotDependOnOrder() {
        List<Case> all = cases(200);
        List<Case> shuffled = new ArrayList<>(all);
        Collections.reverse(shuffled);
        Set<String> a = new HashSet<>(select(Shard.parse("2/3"), all).stream().map(Case::id).toList());
        Set<String> b = new HashSet<>(select(Shard.parse("2/3"), shuffled).stream().map(Case::id).toList());
        assertThat(a).isEqualTo(b);
    }

    @Test
    void noShardMeansEverything() {
        assertThat(Shard.parse(null)).isEqualTo(Shard.ALL);
        assertThat(select(Shard.parse(" "), cases(5))).hasSize(5);
        assertThat(Shard.parse("1/1").all()).isTrue();
        assertThat(Shard.parse("2/4").label()).isEqualTo("shard-2-of-4");
    }

    @ParameterizedTest
    @ValueSource(strings = {"3/2", "0/2", "1/0", "a/b", "1", "1/2/3", "-1/2"})
    void rejectsMalformedShards(String text) {
        assertThatThrownBy(() -> Shard.parse(text)).hasMessageContaining("the shard setting must be K/N").hasMessageContaining(text);
    }

    private static List<Case> select(Shard shard, List<Case> cases) {
        return cases.stream().filter(c -> shard.selects(c.id())).toList();
    }
}
