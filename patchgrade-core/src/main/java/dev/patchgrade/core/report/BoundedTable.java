package dev.patchgrade.core.report;

import java.util.function.Consumer;

/**
 * A console table that never holds more than {@code limit} rows: either the first {@code limit} offered
 * (the rest only counted), or, when every row is wanted, printed a block of {@code limit} at a time.
 */
public final class BoundedTable {
    private final String[] header;
    private final int limit;
    private final boolean printAll;
    private final Consumer<String> out;
    private ConsoleTable table;
    private int held;
    private long shown;
    private long dropped;

    public BoundedTable(int limit, boolean printAll, Consumer<String> out, String... header) {
        this.header = header.clone();
        this.limit = limit;
        this.printAll = printAll;
        this.out = out;
        this.table = new ConsoleTable(header);
    }

    public void row(String... cells) {
        if (held >= limit) {
            if (!printAll) {
                dropped++;
                return;
            }
            flush();
        }
        table.row(cells);
        held++;
        shown++;
    }

    /** A line under the last row (a first differing line, say): shown only when that row was. */
    public void continuation(String... cells) {
        if (dropped == 0 && held > 0) {
            table.row(cells);
        }
    }

    /** Prints what is held. */
    public void flush() {
        if (held > 0) {
            table.lines().forEach(out);
        }
        table = new ConsoleTable(header);
        held = 0;
    }

    public long shown() {
        return shown;
    }

    public long dropped() {
        return dropped;
    }
}
