package dev.patchgrade.core.report;

import java.util.ArrayList;
import java.util.List;

/** A plain-text table for the Maven console: left-aligned columns padded to their widest cell. */
public final class ConsoleTable {
    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();

    public ConsoleTable(String... header) {
        this.header = List.of(header);
    }

    public ConsoleTable row(String... cells) {
        if (cells.length != header.size()) {
            throw new IllegalArgumentException("expected " + header.size() + " cells, got " + cells.length);
        }
        rows.add(List.of(cells));
        return this;
    }

    public List<String> lines() {
        int[] widths = new int[header.size()];
        for (int i = 0; i < widths.length; i++) {
            widths[i] = header.get(i).length();
            for (List<String> row : rows) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        List<String> lines = new ArrayList<>();
        lines.add(format(header, widths));
        StringBuilder rule = new StringBuilder();
        for (int i = 0; i < widths.length; i++) {
            rule.append(i == 0 ? "" : "  ").append("-".repeat(widths[i]));
        }
        lines.add(rule.toString());
        for (List<String> row : rows) {
            lines.add(format(row, widths));
        }
        return lines;
    }

    private static String format(List<String> cells, int[] widths) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < cells.size(); i++) {
            String cell = cells.get(i);
            line.append(i == 0 ? "" : "  ").append(cell);
            if (i < cells.size() - 1) {
                line.append(" ".repeat(widths[i] - cell.length()));
            }
        }
        return line.toString();
    }
}
