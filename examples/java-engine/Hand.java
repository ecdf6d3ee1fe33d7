import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Hand ranking of docs/rules.md ("Hand ranking", "Copies, five of a kind and
 * jokers") for the house: no suit tie-break, A-2-3-4-5 the lowest straight,
 * flushes by ranks. A hand's key is [category, ranks in significance order];
 * a flush's key also holds its kind (0 plain, 1 a pair, 2 two pairs) before
 * its ranks. Keys compare element by element, the longer winning a prefix.
 */
final class Hand {
    static final String[] CATEGORIES = {
        "high-card", "pair", "two-pair", "trips", "straight", "flush",
        "full-house", "quads", "straight-flush", "royal-flush", "five-of-a-kind",
    };
    static final int STRAIGHT = 4;
    static final int FLUSH = 5;
    static final int STRAIGHT_FLUSH = 8;
    static final int ROYAL_FLUSH = 9;
    static final int FIVE_OF_A_KIND = 10;
    /**
     * With --overflow the engine ranks as an engine whose scores overflow from
     * one category into the next: two pair above a straight (a ranking
     * defect, for the kit to name). Off by default.
     */
    static boolean overflow = false;

    private Hand() {
    }

    /** The key of a hand of 3 or 5 cards. */
    static int[] key(int[] cards) {
        int[] count = new int[15];
        for (int card : cards) {
            count[Cards.rank(card)]++;
        }
        // ranks by group size, then rank, largest first: [size, rank] pairs
        List<int[]> groups = new ArrayList<>();
        for (int rank = 14; rank >= 2; rank--) {
            if (count[rank] > 0) {
                groups.add(new int[] {count[rank], rank});
            }
        }
        groups.sort((x, y) -> x[0] != y[0] ? y[0] - x[0] : y[1] - x[1]);
        int[] ranks = new int[groups.size()];
        for (int k = 0; k < ranks.length; k++) {
            ranks[k] = groups.get(k)[1];
        }
        int top = groups.get(0)[0];
        int second = groups.size() > 1 ? groups.get(1)[0] : 0;
        if (cards.length == 3) {
            return with(top == 3 ? 3 : top == 2 ? 1 : 0, ranks);
        }
        if (top == 5) {
            return with(FIVE_OF_A_KIND, ranks);
        }
        boolean flush = Arrays.stream(cards).map(Cards::suit).distinct().count() == 1;
        int straight = groups.size() == 5 ? straightTop(ranks) : 0;
        if (flush && straight > 0) {
            return new int[] {straight == 14 ? ROYAL_FLUSH : STRAIGHT_FLUSH, straight};
        }
        if (top == 4) {
            return with(7, ranks);
        }
        if (top == 3 && second == 2) {
            return with(6, ranks);
        }
        if (flush) {
            int pairs = (int) groups.stream().filter(g -> g[0] == 2).count();
            int[] out = new int[ranks.length + 2];
            out[0] = FLUSH;
            out[1] = top == 3 ? 3 : pairs;
            System.arraycopy(ranks, 0, out, 2, ranks.length);
            return out;
        }
        if (straight > 0) {
            return new int[] {STRAIGHT, straight};
        }
        if (top == 3) {
            return with(3, ranks);
        }
        if (top == 2) {
            return with(second == 2 ? 2 : 1, ranks);
        }
        return with(0, ranks);
    }

    /** The top card of a straight (5 for A-2-3-4-5), 0 for none; ranks distinct, high first. */
    private static int straightTop(int[] ranks) {
        if (ranks[0] - ranks[4] == 4) {
            return ranks[0];
        }
        if (ranks[0] == 14 && ranks[1] == 5 && ranks[4] == 2) {
            return 5;
        }
        return 0;
    }

    private static int[] with(int category, int[] ranks) {
        int[] out = new int[ranks.length + 1];
        out[0] = category;
        System.arraycopy(ranks, 0, out, 1, ranks.length);
        return out;
    }

    /** 1 when a ranks above b, -1 below, 0 equal (3 cards against 5 too). */
    static int compare(int[] a, int[] b) {
        int[] x = key(a);
        int[] y = key(b);
        if (overflow && x[0] != y[0] && (x[0] == 2 || y[0] == 2) && Math.max(x[0], y[0]) <= STRAIGHT) {
            return x[0] == 2 ? 1 : -1; // the defect: two pair above trips and straights
        }
        for (int k = 0; k < Math.min(x.length, y.length); k++) {
            if (x[k] != y[k]) {
                return x[k] > y[k] ? 1 : -1;
            }
        }
        return Integer.compare(x.length, y.length);
    }

    static String category(int[] cards) {
        return CATEGORIES[key(cards)[0]];
    }
}
