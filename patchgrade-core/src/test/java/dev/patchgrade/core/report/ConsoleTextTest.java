package dev.patchgrade.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ConsoleTextTest {
    @Test
    void escapesWhatAConsoleWouldObeyAndKeepsTheLinesPatchgradeWrote() {
        String spoof = "case a: drift\n  /x\u001b[2K\r[INFO] BUILD SUCCESS\u009b1A\u202e\u2028\u0085\t\ud800!";
        assertThat(ConsoleText.safe(spoof)).isEqualTo("case a: drift\n  /x\\x1b[2K\\x0d[INFO] BUILD SUCCESS\\x9b1A\\u202e\\u2028\\x85\t\\ud800!");
    }

    @Test
    void readableTextIsReturnedAsItIs() {
        String text = "stdout line 1: gold <caf\u00e9 \ud83d\ude00> | candidate <a\\x1b[1m>";
        assertThat(ConsoleText.safe(text)).isSameAs(text);
        assertThat(ConsoleText.safe(null)).isNull();
    }
}
