import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The protocol loop of docs/conformance.md: JSON Lines in, one answer per
 * request in order, flushed whenever no complete request is waiting. The
 * ops: hello, compare, category, foul, settle; every other op is
 * unsupported. A bad request is an "invalid" error, a failure of the engine
 * an "internal" one: the loop never stops on either.
 */
public final class Engine {
    private Engine() {
    }

    public static void main(String[] args) throws IOException {
        Hand.overflow = List.of(args).contains("--overflow");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (!line.isBlank()) {
                out.write(Json.write(answer(line)));
                out.write('\n');
            }
            if (!in.ready()) {
                out.flush();
            }
        }
        out.flush();
    }

    static Map<String, Object> answer(String line) {
        Map<String, Object> response = new LinkedHashMap<>();
        Map<String, Object> request;
        try {
            request = House.table(Json.parse(line));
        } catch (IllegalArgumentException | ClassCastException ex) {
            response.put("id", null);
            response.put("error", error("invalid", String.valueOf(ex.getMessage())));
            return response;
        }
        response.put("id", request.get("id"));
        try {
            response.put("result", result(request));
        } catch (UnsupportedOperationException ex) {
            response.put("error", error("unsupported", ex.getMessage()));
        } catch (IllegalArgumentException | ClassCastException | NullPointerException ex) {
            response.put("error", error("invalid", String.valueOf(ex.getMessage())));
        } catch (RuntimeException ex) {
            response.put("error", error("internal", ex.toString()));
        }
        return response;
    }

    private static Object result(Map<String, Object> request) {
        String op = String.valueOf(request.get("op"));
        return switch (op) {
            case "hello" -> hello();
            case "compare" -> (long) Hand.compare(hand(request.get("a")), hand(request.get("b")));
            case "category" -> Hand.category(hand(request.get("hand")));
            case "foul" -> Settle.fouls(new int[][] {
                Cards.parse(request.get("top"), 3),
                Cards.parse(request.get("middle"), 5),
                Cards.parse(request.get("bottom"), 5),
            });
            case "settle" -> Map.of("points", Settle.points(House.table(request.get("round"))));
            default -> throw new UnsupportedOperationException("op '" + op + "' is not supported");
        };
    }

    private static int[] hand(Object cards) {
        int count = cards instanceof String s ? s.trim().split(" +").length : 0;
        if (count != 3 && count != 5) {
            throw new IllegalArgumentException("a hand is 3 or 5 cards");
        }
        return Cards.parse(cards, count);
    }

    private static Map<String, Object> hello() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("protocol", 1L);
        out.put("engine", "capsa-java-example");
        out.put("version", "1.0");
        out.put("ops", List.of("compare", "category", "foul", "settle"));
        out.put("money", false);
        out.put("cards", "text");
        out.put("rules", House.DATA);
        out.put("knobs", House.claims());
        return out;
    }

    private static Map<String, Object> error(String kind, String message) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("kind", kind);
        out.put("message", message);
        return out;
    }
}
