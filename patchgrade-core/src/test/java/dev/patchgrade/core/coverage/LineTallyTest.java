package dev.patchgrade.core.coverage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Counts merged over cases: sums, the cases that ran each line in file order, and only the changed lines kept. */
class LineTallyTest {
    private static final List<PatchDiff.FileChange> FILES = PatchDiff.parse("""
            diff --git a/a.c b/a.c
            --- a/a.c
            +++ b/a.c
            @@ -1 +1,3 @@
            -x
            +a1
            +a2
            +a3
            diff --git a/b.h b/b.h
            --- a/b.h
            +++ b/b.h
            @@ -7 +7 @@
            -y
            +b7
            """);

    private static LineTally.CaseCounts counts(Object... fileLineCount) {
        Map<Integer, Map<Integer, Long>> byFile = new TreeMap<>();
        for (int i = 0; i < fileLineCount.length; i += 3) {
            byFile.computeIfAbsent((Integer) fileLineCount[i], f -> new TreeMap<>()).put((Integer) fileLineCount[i + 1], ((Number) fileLineCount[i + 2]).longValue());
        }
        return new LineTally.CaseCounts(byFile);
    }

    @Test
    void countsAddUpAndEachLineNamesTheCasesThatRanIt() {
        LineTally tally = new LineTally(FILES);
        tally.add(1, "one", counts(0, 1, 2, 0, 2, 0, 0, 3, 0));
        tally.add(2, "two", counts(0, 1, 5, 0, 2, 0, 0, 3, 0));
        tally.add(3, "three", LineTally.CaseCounts.none());
        List<FileCoverage> result = tally.result();
        FileCoverage a = result.get(0);
        assertThat(a.known()).isTrue();
        assertThat(a.executableLines()).containsExactly(1, 2, 3);
        assertThat(a.run()).containsExactly(1);
        assertThat(a.notRun()).containsExactly(2, 3);
        assertThat(a.executable().get(0)).isEqualTo(new FileCoverage.LineRun(1, 7, 2, List.of("one", "two")));
        assertThat(a.executable().get(1).cases()).isZero();
        assertThat(result.get(1).known()).isFalse();
        assertThat(result.get(1).executable()).isEmpty();
        assertThat(tally.cases()).isEqualTo(3);
    }

    @Test
    void linesThePatchDidNotChangeAreNotKept() {
        LineTally tally = new LineTally(FILES);
        tally.add(1, "one", counts(0, 1, 1, 0, 40, 9, 1, 7, 1, 1, 8, 3));
        assertThat(tally.result().get(0).executableLines()).containsExactly(1);
        assertThat(tally.result().get(1).executableLines()).containsExactly(7);
    }

    @Test
    void aLineNamesTheFirstCasesInFileOrderWhateverOrderTheyCameIn() {
        int cases = LineTally.CASES_NAMED + 15;
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < cases; i++) {
            order.add(i);
        }
        Collections.shuffle(order, new Random(7));
        LineTally tally = new LineTally(FILES);
        for (int i : order) {
            tally.add(i, "case-" + i, counts(0, 2, 1));
        }
        FileCoverage.LineRun line = tally.result().get(0).executable().get(0);
        assertThat(line.cases()).isEqualTo(cases);
        assertThat(line.count()).isEqualTo(cases);
        assertThat(line.firstCases()).hasSize(LineTally.CASES_NAMED).first().isEqualTo("case-0");
        assertThat(line.firstCases()).last().isEqualTo("case-" + (LineTally.CASES_NAMED - 1));
    }

    @Test
    void casesAddedFromManyThreadsAtOnceSumAsWhenAddedOneByOne() throws Exception {
        Random random = new Random(11);
        List<LineTally.CaseCounts> all = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            all.add(counts(0, 1 + random.nextInt(3), random.nextInt(3), 1, 7, random.nextInt(2)));
        }
        LineTally serial = new LineTally(FILES);
        for (int i = 0; i < all.size(); i++) {
            serial.add(i, "c" + i, all.get(i));
        }
        LineTally parallel = new LineTally(FILES);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        for (int i = all.size() - 1; i >= 0; i--) {
            int n = i;
            pool.submit(() -> parallel.add(n, "c" + n, all.get(n)));
        }
        pool.shutdown();
        assertThat(pool.awaitTermination(1, TimeUnit.MINUTES)).isTrue();
        assertThat(parallel.result()).isEqualTo(serial.result());
        assertThat(serial.result().get(0).executable().stream().mapToLong(FileCoverage.LineRun::count).sum())
                .isEqualTo(all.stream().mapToLong(c -> c.byFile().getOrDefault(0, Map.of()).values().stream().mapToLong(Long::longValue).sum()).sum());
    }
}
