package dev.patchgrade.core.coverage;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * What gcov says about one data file: for each source file it covers, every line it knows as executable and how
 * often that line ran. Read from gcc's {@code gcov --json-format --stdout} (one JSON document a line, one per data
 * file), or from the classic text listing of {@code gcov --stdout} where the tool has no JSON
 * ({@code llvm-cov gcov}).
 */
public final class GcovOutput {
    private static final ObjectMapper JSON = new ObjectMapper();

    private GcovOutput() {}

    /**
     * One source file of a data file.
     *
     * @param file where the source is, absolute and normalised
     * @param counts how often each executable line ran, by line number; a line gcov does not list is not executable
     */
    public record Source(Path file, Map<Integer, Long> counts) {}

    /**
     * @param dataFile the {@code .gcda} gcov read, as gcov names it ({@code null} in the text listing)
     */
    public record Data(String dataFile, List<Source> sources) {}

    /**
     * Reads gcov's JSON documents one by one, handing each on as it is read.
     *
     * @param directory where relative source names resolve when a document gives no {@code current_working_directory}
     * @throws IllegalArgumentException where the output is not gcov's JSON
     */
    public static void readJson(InputStream in, Path directory, Consumer<Data> each) throws IOException {
        try (MappingIterator<JsonNode> documents = JSON.readerFor(JsonNode.class).readValues(in)) {
            while (documents.hasNextValue()) {
                each.accept(document(documents.nextValue(), directory));
            }
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not gcov's JSON (" + e.getOriginalMessage() + ")", e);
        } catch (RuntimeException e) {
            if (e.getCause() instanceof JsonProcessingException json) {
                throw new IllegalArgumentException("not gcov's JSON (" + json.getOriginalMessage() + ")", e);
            }
            throw e;
        }
    }

    static Data document(JsonNode document, Path directory) {
        if (!document.isObject() || !document.path("files").isArray()) {
            throw new IllegalArgumentException("a gcov JSON document without a \"files\" array: " + abbreviate(document.toString()));
        }
        String cwd = document.path("current_working_directory").asText("");
        Path base = cwd.isEmpty() ? directory : path(cwd, directory);
        List<Source> sources = new ArrayList<>();
        for (JsonNode file : document.path("files")) {
            String name = file.path("file").asText("");
            if (name.isEmpty()) {
                throw new IllegalArgumentException("a gcov JSON file entry without a \"file\" name: " + abbreviate(file.toString()));
            }
            Map<Integer, Long> counts = new TreeMap<>();
            for (JsonNode line : file.path("lines")) {
                JsonNode number = line.get("line_number");
                JsonNode count = line.get("count");
                if (number == null || !number.canConvertToInt() || count == null || !count.isNumber()) {
                    throw new IllegalArgumentException("a gcov JSON line without a numeric line_number and count in " + name + ": "
                            + abbreviate(line.toString()));
                }
                // A line listed more than once (a template's instantiations, functions on one line) ran as often as all of them.
                counts.merge(number.asInt(), Math.max(0, count.asLong()), Long::sum);
            }
            sources.add(new Source(path(name, base), counts));
        }
        JsonNode data = document.get("data_file");
        return new Data(data == null ? null : data.asText(), sources);
    }

    /**
     * Reads the text listing of {@code gcov --stdout}: a {@code -:0:Source:NAME} header per source, then one record a
     * line, {@code COUNT:LINE:TEXT}, with {@code -} for a line that is not executable and {@code #####} or
     * {@code =====} for one that never ran. The blocks a listing repeats for each template instantiation (line
     * numbers going back) are not counted twice.
     *
     * @param directory where the tool ran: relative source names resolve against it
     */
    public static void readText(InputStream in, Path directory, Consumer<Data> each) throws IOException {
        List<Source> sources = new ArrayList<>();
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        Path file = null;
        Map<Integer, Long> counts = null;
        int last = 0;
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
            int first = line.indexOf(':');
            int second = first < 0 ? -1 : line.indexOf(':', first + 1);
            if (second < 0) {
                continue; // separators and instantiation names between blocks
            }
            String count = line.substring(0, first).strip();
            int number;
            try {
                number = Integer.parseInt(line.substring(first + 1, second).strip());
            } catch (NumberFormatException e) {
                continue;
            }
            String rest = line.substring(second + 1);
            if (number == 0) {
                if (rest.startsWith("Source:")) {
                    if (file != null) {
                        sources.add(new Source(file, counts));
                    }
                    file = path(rest.substring("Source:".length()), directory);
                    counts = new TreeMap<>();
                    last = 0;
                }
                continue;
            }
            if (file == null || count.equals("-") || count.startsWith("|")) {
                continue;
            }
            if (number <= last) {
                continue; // an instantiation's block repeats lines already counted
            }
            last = number;
            Long ran = runs(count);
            if (ran == null) {
                throw new IllegalArgumentException("a gcov listing line whose count is not a number: " + abbreviate(line));
            }
            counts.put(number, ran);
        }
        if (file != null) {
            sources.add(new Source(file, counts));
        }
        each.accept(new Data(null, sources));
    }

    /** {@code #####}/{@code =====} never ran; a number may carry {@code *} (a block of the line never ran). */
    private static Long runs(String count) {
        if (count.startsWith("#####") || count.startsWith("=====")) {
            return 0L;
        }
        String digits = count.endsWith("*") ? count.substring(0, count.length() - 1) : count;
        try {
            return Long.parseLong(digits);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Path path(String name, Path base) {
        try {
            Path path = Path.of(name);
            return (path.isAbsolute() || base == null ? path : base.resolve(path)).toAbsolutePath().normalize();
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException("gcov names a source that is no path: " + abbreviate(name), e);
        }
    }

    private static String abbreviate(String text) {
        return text.length() <= 200 ? text : text.substring(0, 200) + "...";
    }
}
