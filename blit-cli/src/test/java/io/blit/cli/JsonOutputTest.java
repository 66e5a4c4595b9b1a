package io.blit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.cli.BlitCliRun.Result;
import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.queue.NamedTailer;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * {@code --json} of status, stats, consumers and check (one object), and of dump and tail (one object per record),
 * parsed by a JSON library: every field docs/operations.md lists as the contract is there, of its type, with the value
 * the text output gives.
 */
class JsonOutputTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    @Test
    void statusIsOneObjectOfTheDocumentedFields() {
        Path queue = raw(3);
        Result status = BlitCliRun.run("replicate", "status", "--dir", queue.toString(), "--json");
        assertEquals(0, status.code(), status.err());
        JsonNode node = one(status);
        assertFields(node, "queue_id", "term", "term_start", "fence_term", "end", "role", "serving");
        assertTrue(node.get("serving").isNull(), "no source serves it");
        assertEquals(3, node.get("end").asLong());
        assertEquals(0, node.get("term").asLong());
        assertEquals("primary", node.get("role").asString());
        assertTrue(node.get("queue_id").isNull() || node.get("queue_id").isString(), node.toString());
        assertEquals(BlitCliRun.run("replicate", "status", "--dir", queue.toString()).out().split(" ")[1],
                node.get("queue_id").isNull() ? "-" : node.get("queue_id").asString(), "the id the line gives");
    }

    @Test
    void consumersIsOneObjectListingEveryConsumerWithEveryField() {
        Path queue = raw(10);
        try (BlitQueue<Void> open = BlitQueue.openRaw(queue); NamedTailer<Void> risk = open.tailer("risk")) {
            risk.seek(4);
            risk.commit();
            open.tailer("audit").close();
            JsonNode node = one(BlitCliRun.run("consumers", "--dir", queue.toString(), "--json"));
            assertFields(node, "consumers");
            JsonNode consumers = node.get("consumers");
            assertEquals(2, consumers.size());
            for (JsonNode consumer : consumers) {
                assertFields(consumer, "name", "committed", "lag", "holder_pid", "last_commit");
            }
            JsonNode held = consumers.get(0);
            assertEquals("risk", held.get("name").asString());
            assertEquals(3, held.get("committed").asLong());
            assertEquals(6, held.get("lag").asLong());
            assertEquals(ProcessHandle.current().pid(), held.get("holder_pid").asLong());
            Instant.parse(held.get("last_commit").asString());
            JsonNode idle = consumers.get(1);
            assertEquals(-1, idle.get("committed").asLong());
            assertTrue(idle.get("holder_pid").isNull() && idle.get("last_commit").isNull(), idle.toString());
        }
        JsonNode none = one(BlitCliRun.run("consumers", "--dir", raw(0, "empty").toString(), "--json"));
        assertEquals(0, none.get("consumers").size());
    }

    @Test
    void statsIsOneObjectPerSample() {
        Path queue = raw(7);
        try (BlitQueue<Void> open = BlitQueue.openRaw(queue); NamedTailer<Void> risk = open.tailer("risk")) {
            risk.seek(2);
            risk.commit();
        }
        Result stats = BlitCliRun.run("stats", "--dir", queue.toString(), "--json", "--watch", "--count", "2");
        assertEquals(0, stats.code(), stats.err());
        assertEquals(2, stats.lines().size(), stats.out());
        for (String line : stats.lines()) {
            JsonNode node = parse(line);
            assertFields(node, "time", "end", "files", "bytes", "rate", "consumers");
            Instant.parse(node.get("time").asString());
            assertEquals(7, node.get("end").asLong());
            assertEquals(1, node.get("files").asLong());
            assertTrue(node.get("bytes").asLong() > 0 && node.get("rate").isNumber(), node.toString());
            JsonNode consumer = node.get("consumers").get(0);
            assertFields(consumer, "name", "committed", "lag");
            assertEquals(1, consumer.get("committed").asLong());
            assertEquals(5, consumer.get("lag").asLong());
        }
    }

    @Test
    void checkIsOneObjectWithTheSameExitCodeWholeOrDamaged() throws IOException {
        Path queue = raw(50);
        Result whole = BlitCliRun.run("check", "--dir", queue.toString(), "--json");
        assertEquals(0, whole.code(), whole.err());
        JsonNode ok = one(whole);
        assertFields(ok, "ok", "records", "problems", "abandoned");
        assertTrue(ok.get("ok").asBoolean());
        assertEquals(50, ok.get("records").asLong());
        assertEquals(0, ok.get("problems").size());
        assertEquals(0, ok.get("abandoned").size());
        try (Stream<Path> files = Files.list(queue);
             RandomAccessFile file = new RandomAccessFile(files.filter(f -> f.getFileName().toString()
                     .startsWith("segment-")).findFirst().orElseThrow().toFile(), "rw")) {
            file.seek(8192); // the first record's header word, after the header and checkpoint pages
            file.writeLong(-1);
        }
        Result damaged = BlitCliRun.run("check", "--dir", queue.toString(), "--json");
        assertEquals(1, damaged.code(), damaged.err());
        JsonNode failed = one(damaged);
        assertFields(failed, "ok", "records", "problems", "abandoned");
        assertFalse(failed.get("ok").asBoolean());
        assertTrue(failed.get("records").isNull(), failed.toString());
        assertEquals(1, failed.get("problems").size());
        String text = BlitCliRun.run("check", "--dir", queue.toString()).out().strip();
        assertEquals(text, "check failed: " + failed.get("problems").get(0).asString(), "what the line says");
    }

    @Test
    void dumpAndTailPrintOneObjectPerRecordWithEveryFieldOfTheType() {
        Path queue = tmp.resolve("typed");
        try (BlitQueue<JsonQuote> open = BlitQueue.open(queue, JsonQuote.class);
             Appender<JsonQuote> appender = open.appender()) {
            JsonQuote quote = new JsonQuote();
            for (int n = 0; n < 3; n++) {
                quote.id = Long.MAX_VALUE - n;
                quote.price = n == 2 ? Double.NaN : n + 0.5;
                quote.ratio = 0.1f;
                quote.count = -n;
                quote.level = (short) 300;
                quote.flags = (byte) -2;
                quote.side = 'B';
                quote.live = n == 1;
                appender.append(quote);
            }
        }
        Result dump = BlitCliRun.run("dump", "--dir", queue.toString(), "--json");
        assertEquals(0, dump.code(), dump.err());
        assertEquals(3, dump.lines().size(), "only records on stdout: " + dump.out());
        assertTrue(dump.err().contains("# 3 records"), "the # lines on stderr: " + dump.err());
        for (int n = 0; n < 3; n++) {
            JsonNode record = parse(dump.lines().get(n));
            assertFields(record, "index", "type", "appended", "damaged", "fields");
            assertEquals(n, record.get("index").asLong());
            assertEquals("JsonQuote", record.get("type").asString());
            Instant.parse(record.get("appended").asString());
            assertFalse(record.get("damaged").asBoolean());
            JsonNode fields = record.get("fields");
            assertEquals(new TreeSet<>(Set.of("id", "price", "ratio", "count", "level", "flags", "side", "live")),
                    names(fields));
            assertEquals(Long.MAX_VALUE - n, fields.get("id").asLong());
            assertEquals(-n, fields.get("count").asInt());
            assertEquals(300, fields.get("level").asInt());
            assertEquals(-2, fields.get("flags").asInt());
            assertEquals('B', fields.get("side").asInt());
            assertEquals(n == 1, fields.get("live").asBoolean());
            assertEquals("0.1", fields.get("ratio").asString());
        }
        assertEquals(0.5, parse(dump.lines().get(0)).get("fields").get("price").asDouble());
        assertEquals("NaN", parse(dump.lines().get(2)).get("fields").get("price").asString());
        Result tail = BlitCliRun.run("tail", "--dir", queue.toString(), "--json", "--from", "1", "--count", "1");
        assertEquals(0, tail.code(), tail.err());
        assertEquals(List.of(dump.lines().get(1)), tail.lines(), "tail's object is dump's");
    }

    @Test
    void aRawRecordIsItsLengthAndBytesInHex() {
        Path queue = raw(2);
        Result dump = BlitCliRun.run("dump", "--dir", queue.toString(), "--json");
        assertEquals(0, dump.code(), dump.err());
        JsonNode record = parse(dump.lines().get(1));
        assertFields(record, "index", "type", "appended", "damaged", "length", "bytes");
        assertTrue(record.get("type").isNull(), record.toString());
        assertEquals(8, record.get("length").asLong());
        assertEquals("0100000000000000", record.get("bytes").asString());
    }

    @Test
    void theWriterEscapesWhatJsonRequires() {
        String tricky = "a\"b\\c\nd\te\u0001f\u2028g é";
        String text = new JsonWriter().beginObject().member("s", tricky).name("n").nullValue()
                .name("inf").value(Double.POSITIVE_INFINITY).name("list").beginArray().value(1L).value(true)
                .beginObject().endObject().beginArray().endArray().endArray().endObject().toString();
        JsonNode node = parse(text);
        assertEquals(tricky, node.get("s").asString());
        assertTrue(node.get("n").isNull());
        assertEquals("Infinity", node.get("inf").asString());
        assertEquals("[1,true,{},[]]", node.get("list").toString());
    }

    private Path raw(int count) {
        return raw(count, "q");
    }

    private Path raw(int count, String name) {
        Path queue = tmp.resolve(name);
        BlitCliRun.appendRaw(queue, Math.max(count, 0));
        return queue;
    }

    /** The one line a command printed, parsed: exactly one JSON object. */
    private static JsonNode one(Result result) {
        assertEquals(1, result.lines().size(), result.out() + result.err());
        return parse(result.lines().getFirst());
    }

    private static JsonNode parse(String line) {
        JsonNode node = JSON.readTree(line);
        assertTrue(node.isObject() || node.isArray(), line);
        return node;
    }

    private static void assertFields(JsonNode node, String... fields) {
        assertTrue(node.isObject(), node.toString());
        assertEquals(new TreeSet<>(List.of(fields)), names(node), node.toString());
    }

    private static Set<String> names(JsonNode node) {
        Set<String> names = new TreeSet<>();
        node.propertyNames().forEach(names::add);
        return names;
    }
}
