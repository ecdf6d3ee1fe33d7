import java.util.List;
import java.util.Map;

/**
 * The one house this engine plays, whatever rules a request carries: 十三水
 * on 加一色 (the clubs enter twice, 65 cards, up to five seats) as a banker
 * game with the horse card. The hello sends RULES whole; house.toml is the
 * same data as a rules file. The ranking and the settlement read their
 * figures from it here.
 */
final class House {
    static final String RULES = """
        {"name": "java-house",
         "description": "The Java example engine's house: shisanshui on an added suit of clubs, a banker game with the horse card Ah, no naturals.",
         "tie_break": "none", "suit_order": "shcd", "flush_compare": "ranks", "wheel": "low",
         "foul_check": "allow-equal", "row_points": 1, "overall_point": 0,
         "royalty_mode": "winner", "royalty_adds": false,
         "scoop": {"multiplier": 2, "bonus": 0, "multiply_royalties": true},
         "sweep_all": {"multiplier": 4, "bonus": 0, "min_players": 3},
         "foul": {"mode": "scoop", "points": 0, "pays_royalties": true},
         "surrender": {"enabled": false, "cost": 0},
         "naturals": {"resolve": "higher-wins", "ties": "push", "enabled": []},
         "royalties": {"top": {"trips": 3},
                       "middle": {"full-house": 2, "quads": 8, "straight-flush": 10, "royal-flush": 10},
                       "bottom": {"quads": 4, "straight-flush": 5, "royal-flush": 5},
                       "middle_five_of_a_kind": 20, "bottom_five_of_a_kind": 10},
         "horse": {"card": "Ah", "multiplier": 2},
         "banker": {"enabled": true, "wins_ties": false, "max_multiplier": 3},
         "money": {"stake": 1, "rake_basis_points": 0, "rake_minimum_pot": 0,
                   "rake_cap_per_pot": 0, "rake_cap_per_round": 0},
         "deck": {"added_suits": "c"}}
        """;
    static final Map<String, Object> DATA = table(Json.parse(RULES));
    static final int ADDED_SUIT = 1; // clubs
    static final int SEATS = 5; // 65 cards deal five hands of 13
    static final int HORSE_RANK = 14;
    static final int HORSE_SUIT = 2; // the ace of hearts

    private House() {
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> table(Object value) {
        return (Map<String, Object>) value;
    }

    /** An integer knob by dotted name: "scoop.multiplier". */
    static long number(String dotted) {
        Object value = DATA;
        for (String part : dotted.split("\\.")) {
            value = table(value).get(part);
        }
        return (Long) value;
    }

    static boolean flag(String dotted) {
        String[] parts = dotted.split("\\.");
        return (Boolean) table(DATA.get(parts[0])).get(parts[1]);
    }

    /** The royalty of a row's hand: its category's entry, five of a kind apart. */
    static long royalty(String row, int[] key) {
        Map<String, Object> royalties = table(DATA.get("royalties"));
        if (key[0] == Hand.FIVE_OF_A_KIND) {
            Object five = royalties.get(row + "_five_of_a_kind");
            return five == null ? 0 : (Long) five;
        }
        Object points = table(royalties.get(row)).get(Hand.CATEGORIES[key[0]]);
        return points == null ? 0 : (Long) points;
    }

    /** The knob claims of the hello: the house's own value of each knob it plays apart. */
    static Map<String, Object> claims() {
        return Map.ofEntries(
            Map.entry("deck.added_suits", List.of("c")),
            Map.entry("deck.decks", List.of(1L)),
            Map.entry("deck.jokers", List.of(0L)),
            Map.entry("royalties.middle_five_of_a_kind", List.of(20L)),
            Map.entry("royalties.bottom_five_of_a_kind", List.of(10L)),
            Map.entry("horse.card", List.of("Ah")),
            Map.entry("horse.multiplier", List.of(2L)),
            Map.entry("banker.enabled", List.of(true)),
            Map.entry("banker.max_multiplier", List.of(3L)),
            Map.entry("naturals.enabled", List.of(List.of())),
            Map.entry("surrender.enabled", List.of(false)));
    }
}
