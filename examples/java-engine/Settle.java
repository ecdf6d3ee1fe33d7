import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Settlement of docs/rules.md ("Settlement", "Banker games") under the
 * house: only the banker's pairs are played, each from the banker's side;
 * a pair's points are its base (fouls, then rows), times the horse
 * multiplier when one seat of the pair holds the ace of hearts, times the
 * other seat's multiplier. Points only: the house plays for no money.
 */
final class Settle {
    private static final String[] ROWS = {"top", "middle", "bottom"};

    private final int[][][] rows; // seat -> row -> cards
    private final boolean[] fouled;
    private final int banker;
    private final long[] multipliers;

    private Settle(int[][][] rows, int banker, long[] multipliers) {
        this.rows = rows;
        this.banker = banker;
        this.multipliers = multipliers;
        this.fouled = new boolean[rows.length];
        for (int seat = 0; seat < rows.length; seat++) {
            fouled[seat] = fouls(rows[seat]);
        }
    }

    static boolean fouls(int[][] seat) {
        return Hand.compare(seat[1], seat[2]) > 0 || Hand.compare(seat[0], seat[1]) > 0;
    }

    /** The points of each seat of a round (the settle op's "round"). */
    static List<Long> points(Map<String, Object> round) {
        List<?> seats = (List<?>) round.get("seats");
        if (seats == null || seats.size() < 2 || seats.size() > House.SEATS) {
            throw new IllegalArgumentException("a round has 2 to " + House.SEATS + " seats");
        }
        int[][][] rows = new int[seats.size()][][];
        Set<Integer> dealt = new HashSet<>();
        for (int s = 0; s < seats.size(); s++) {
            Map<String, Object> seat = House.table(seats.get(s));
            if (Boolean.TRUE.equals(seat.get("surrender"))) {
                throw new IllegalArgumentException("seat " + s + " surrenders: the house has no surrender");
            }
            rows[s] = new int[3][];
            for (int r = 0; r < 3; r++) {
                rows[s][r] = Cards.parse(seat.get(ROWS[r]), r == 0 ? 3 : 5);
                for (int card : rows[s][r]) {
                    if (!dealt.add(card)) {
                        throw new IllegalArgumentException("a card is dealt twice");
                    }
                }
            }
        }
        Object banker = round.get("banker");
        if (!(banker instanceof Long b) || b < 0 || b >= seats.size()) {
            throw new IllegalArgumentException("a banker game names its banker's seat");
        }
        return new Settle(rows, (int) (long) b, multipliers(round, seats.size(), (int) (long) b)).settle();
    }

    private static long[] multipliers(Map<String, Object> round, int count, int banker) {
        long[] out = new long[count];
        List<?> given = (List<?>) round.get("multipliers");
        long most = House.number("banker.max_multiplier");
        for (int s = 0; s < count; s++) {
            out[s] = given == null ? 1 : (Long) given.get(s);
            boolean ok = s == banker ? out[s] == 1 : out[s] >= 1 && out[s] <= most;
            if (!ok || (given != null && given.size() != count)) {
                throw new IllegalArgumentException("seat " + s + "'s multiplier " + out[s]);
            }
        }
        return out;
    }

    private List<Long> settle() {
        long[] points = new long[rows.length];
        boolean swept = sweepsAll();
        for (int other = 0; other < rows.length; other++) {
            if (other == banker) {
                continue;
            }
            long pair = base(other, swept);
            if (holdsHorse(banker) != holdsHorse(other)) {
                pair *= House.number("horse.multiplier");
            }
            pair *= multipliers[other];
            points[banker] += pair;
            points[other] -= pair;
        }
        List<Long> out = new ArrayList<>();
        for (long p : points) {
            out.add(p);
        }
        return out;
    }

    /** Whether the banker wins every row against every other seat (a foul counts). */
    private boolean sweepsAll() {
        if (rows.length < House.number("sweep_all.min_players") || fouled[banker]) {
            return false;
        }
        for (int other = 0; other < rows.length; other++) {
            if (other != banker && !fouled[other] && wins(banker, other) != 3) {
                return false;
            }
        }
        return true;
    }

    private int wins(int seat, int other) {
        int won = 0;
        for (int r = 0; r < 3; r++) {
            won += Hand.compare(rows[seat][r], rows[other][r]) > 0 ? 1 : 0;
        }
        return won;
    }

    private boolean holdsHorse(int seat) {
        for (int[] row : rows[seat]) {
            for (int card : row) {
                if (Cards.rank(card) == House.HORSE_RANK && Cards.suit(card) == House.HORSE_SUIT) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The pair's base from the banker's side: fouls, else the rows. */
    private long base(int other, boolean swept) {
        if (fouled[banker] && fouled[other]) {
            return 0;
        }
        if (fouled[other]) {
            return foulAmount(banker, swept);
        }
        if (fouled[banker]) {
            return -foulAmount(other, false);
        }
        long[] rowPoints = new long[2];
        long[] royalties = new long[2];
        int[] won = new int[2];
        int[] seats = {banker, other};
        long rowPoint = House.number("row_points");
        for (int r = 0; r < 3; r++) {
            int c = Hand.compare(rows[banker][r], rows[other][r]);
            if (c == 0) {
                continue;
            }
            int w = c > 0 ? 0 : 1;
            won[w]++;
            long royalty = House.royalty(ROWS[r], Hand.key(rows[seats[w]][r]));
            if (royalty > rowPoint) { // royalty_adds = false: in place of the row point
                royalties[w] += royalty;
            } else {
                rowPoints[w] += rowPoint;
            }
        }
        long rowsNet = rowPoints[0] - rowPoints[1];
        long royNet = royalties[0] - royalties[1];
        if (won[0] == 3 || won[1] == 3) {
            boolean sweep = won[0] == 3 && swept;
            long m = House.number(sweep ? "sweep_all.multiplier" : "scoop.multiplier");
            long b = House.number(sweep ? "sweep_all.bonus" : "scoop.bonus");
            long roy = House.flag("scoop.multiply_royalties") ? royNet * m : royNet;
            return rowsNet * m + roy + (won[0] == 3 ? b : -b);
        }
        return rowsNet + royNet;
    }

    /** What a fouled seat pays ``to`` (mode "scoop", royalties paid, multiplied). */
    private long foulAmount(int to, boolean swept) {
        long m = House.number(swept ? "sweep_all.multiplier" : "scoop.multiplier");
        long b = House.number(swept ? "sweep_all.bonus" : "scoop.bonus");
        long amount = 3 * House.number("row_points") * m + b;
        long royalties = 0;
        for (int r = 0; r < 3; r++) {
            royalties += House.royalty(ROWS[r], Hand.key(rows[to][r]));
        }
        return amount + (House.flag("scoop.multiply_royalties") ? royalties * m : royalties);
    }
}
