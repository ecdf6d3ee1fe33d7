import java.util.HashSet;
import java.util.Set;

/**
 * Cards as the protocol writes them: rank then suit ("As", "Td"), a second
 * copy of a card of the added suit with a quote after it ("7c'"). A card is
 * an int: 52 * copy + 4 * (rank - 2) + suit, ranks 2..14, suits d c h s = 0..3.
 */
final class Cards {
    private static final String RANKS = "23456789TJQKA";
    private static final String SUITS = "dchs";

    private Cards() {
    }

    static int rank(int card) {
        return (card % 52) / 4 + 2;
    }

    static int suit(int card) {
        return card % 4;
    }

    /** Reads space-separated cards of the house's deck; throws on anything else. */
    static int[] parse(Object value, int count) {
        if (!(value instanceof String text)) {
            throw new IllegalArgumentException("cards must be text");
        }
        String[] parts = text.trim().split(" +");
        if (parts.length != count) {
            throw new IllegalArgumentException("expected " + count + " cards, got " + parts.length);
        }
        int[] out = new int[count];
        Set<Integer> seen = new HashSet<>();
        for (int k = 0; k < count; k++) {
            out[k] = card(parts[k]);
            if (!seen.add(out[k])) {
                throw new IllegalArgumentException("card " + parts[k] + " given twice");
            }
        }
        return out;
    }

    private static int card(String text) {
        boolean copy = text.endsWith("'");
        String face = copy ? text.substring(0, text.length() - 1) : text;
        int rank = face.length() == 2 ? RANKS.indexOf(face.charAt(0)) : -1;
        int suit = face.length() == 2 ? SUITS.indexOf(face.charAt(1)) : -1;
        if (rank < 0 || suit < 0) {
            throw new IllegalArgumentException("not a card: " + text);
        }
        if (copy && suit != House.ADDED_SUIT) {
            throw new IllegalArgumentException("no second copy of " + face + " in this deck");
        }
        return (copy ? 52 : 0) + 4 * rank + suit;
    }
}
