/* An exact double-dummy solver for floating bridge (all four hands known).
 *
 * Cards are ints 0-51 (suit * 13 + rank index, clubs..spades); hands are 52-bit masks.
 * The declarer's side is any set of seats (declarer + partner wherever it sits, or the
 * declarer alone); the others defend. Rules handled: following suit, trumps may not be led
 * before they are broken (unless the leader holds only trumps), and the flag
 * trump_in_first_trick (when off, nobody may lead or play a trump to the first trick
 * while holding another card that is legal).
 *
 * The search answers "can the declarer's side take at least T more tricks?" (a zero-window
 * alpha-beta over cards), and the exact value is found by stepping T by one from a guess
 * (the previous card's value, for every card's value). Speed comes from:
 *   - a transposition table of trick-start positions keyed on relative ranks: in each suit
 *     only the order of the cards still out and who holds each matters, so positions that
 *     differ only in which small cards are gone share an entry; an entry holds lower and
 *     upper bounds of the tricks still to come and how many top cards of each suit they
 *     depend on (the relevant ranks), so it serves every position with the same lengths
 *     and the same holders of those cards. Entries are filed by aggregate (leader, flags,
 *     lengths), then by the suits whose top holder they fix and those holders, so a lookup
 *     scans few. The table is kept across calls with the same trump, sides and flags (a
 *     whole game's analysis reuses it), and emptied when full. An aggregate's directory
 *     holds the heads of its first eight lists in its own cache line, so that most probes
 *     touch one line of the index instead of one per list;
 *   - quick tricks: winners the player on lead can cash without giving up the lead, rounds
 *     of a suit counted while every trump-holding opponent must follow, small cards once
 *     the other side is out of the suit, and a partner's winners reached by an entry (a
 *     lower bound for the side on lead), checked before any move is tried;
 *   - later-trick bounds: a seat's trumps that no higher opposing trump is left to beat
 *     win a trick each, whoever leads (its top trumps, and more: K-Q-J against the ace
 *     alone are two), which bounds both sides' tricks; quick tricks count the side suits
 *     as unruffable once the leader's top trumps draw every opponent's; and the side not on
 *     lead takes the coming trick when it holds the top of every suit the leader may lead
 *     and no partner of the leader can ruff;
 *   - second-hand bounds: the trick under way is surely one side's, and (quick tricks
 *     after it) the seat that wins it cashes its top winners in the other suits;
 *   - move ordering (two killer leads by tricks left, then cash winners, lead to a
 *     partner's winner, else low from the shortest suit, not into the last seat's top card;
 *     win cheaply with a card no later opponent beats, low when a later partner wins,
 *     ruff low, discard low);
 *   - equivalent cards merged: cards of one hand in one suit with nothing between them
 *     but cards of the same hand or cards gone in earlier tricks are one move, and so are
 *     cards with cards of the trick under way between them when neither beats it so far;
 *   - equivalence learnt from the search: once a card has been tried without a cut-off,
 *     the same hand's cards of that suit below the lowest relevant card of its answer are
 *     not tried (they give the same answer); a trick won by rank makes the winning card
 *     and the lowest card of its run relevant (the run's cards would have won too).
 *
 * Counters of nodes, table probes and hits by tricks left, and a trace of the root probes,
 * are compiled in with CFLAGS="-O3 -DSOLVER_STATS" (see SOLVER_STATS below).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t u64;

/* Profiling counters and a trace of the root probes, compiled in only when asked:
 * CFLAGS="-O3 -DSOLVER_STATS" python setup.py build_ext --inplace --force
 * (CFLAGS replaces the default flags, -O3 among them, so it must be given again; --force
 * because the build does not notice a change of flags). Rebuild without the flag after. */
#ifdef SOLVER_STATS
#include <stdio.h>
static long long st_nodes[14][4], st_probe[14], st_hit[14], st_qt[14], st_cut[14][14], st_scan, st_clears, st_blocks;
#define STAT(x) do { x; } while (0)
#define TRACE(...) do { if (getenv("SOLVER_TRACE")) fprintf(stderr, __VA_ARGS__); } while (0)
#else
#define STAT(x) do { } while (0)
#define TRACE(...) do { } while (0)
#endif

/* the suit of each card (a table: cheaper than dividing by 13 at every node) */
static const uint8_t SUIT[52] = {0,0,0,0,0,0,0,0,0,0,0,0,0, 1,1,1,1,1,1,1,1,1,1,1,1,1,
                                 2,2,2,2,2,2,2,2,2,2,2,2,2, 3,3,3,3,3,3,3,3,3,3,3,3,3};
#define SUIT_OF(x) ((int)SUIT[(x)])
static const u64 SUITMASK[4] = {0x1fffULL, 0x1fffULL << 13, 0x1fffULL << 26, 0x1fffULL << 39};
#define FULL ((1ULL << 52) - 1)

#if defined(__POPCNT__)
static inline int popc(u64 x) { return __builtin_popcountll(x); }
#else
/* without -mpopcnt the builtin is a library call; this is a few instructions inline */
static inline int popc(u64 x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}
#endif
static inline int lowbit(u64 x) { return __builtin_ctzll(x); }
static inline int highbit(u64 x) { return 63 - __builtin_clzll(x); }

/* ---------------------------------------------------------------- transposition table */

/* A position's "aggregate" is its leader, flags and the number of cards of each suit in
 * each hand. Every aggregate met has a list of entries; an entry holds bounds on the tricks
 * still to come for every position of that aggregate in which, in each suit, the top
 * depth[s] cards still out are held by the same seats as when it was stored (own[s], two
 * bits a card from the top). A lookup scans its aggregate's list: a match costs four
 * masked compares, so an aggregate can hold any number of relevance patterns. Entries live
 * in blocks of one aggregate each; when the pool or the aggregate index fills up, the
 * whole table is emptied and filled again. */
typedef struct {
    uint32_t own[4];
    uint8_t depth[4];
    int8_t lb, ub;
} Entry;

#define BLOCK 4
#define TT_BLOCKS (1u << 20)  /* 1M blocks of 4 entries: 104 MB, touched as filled */
#define TT_AGGS (1u << 19)    /* 8 MB: lists beyond a directory's eight */
typedef struct {
    Entry e[BLOCK];
    int32_t next;      /* the aggregate's next (older) block, or -1 */
    int32_t n;         /* entries in use */
} Block;

typedef struct {
    u64 lengths;
    int32_t head;      /* newest block or -1 */
    uint16_t sub;      /* which list of the aggregate (see tt_probe): one beyond its directory's */
    uint8_t flags;     /* as the key's */
    uint8_t gen;       /* the table's generation it was filled in: an older one is unused */
} Agg;

/* An aggregate's directory: which lists it has (by m, see tt_probe), and the heads of its
 * first lists, all in one cache line; lists beyond those are found in the aggregate index. */
#define INLINE 8
#define TT_DIRS (1u << 17)    /* 8 MB */
typedef struct {
    u64 lengths;
    uint8_t flags, gen, n, pad;
    uint16_t used;     /* the lists in use, a bit for each m */
    uint16_t pad2;
    uint16_t subs[INLINE];
    int32_t heads[INLINE];
} __attribute__((aligned(64))) Dir;

static Dir *dirs = NULL;
static size_t dir_slots = 0, dir_used = 0;
static Block *pool = NULL;
static Agg *agg = NULL;
static size_t pool_size = 0, pool_used = 0;
static size_t agg_slots = 0, agg_used = 0; /* agg_slots is a power of two */
static uint8_t gen = 1;                     /* slots of other generations are empty */
static int tt_trump = -2, tt_tifr = -1;
static int tt_side[4] = {-1, -1, -1, -1};

static void tt_clear(void) {
    if (!pool_used && !agg_used && !dir_used) return; /* already empty */
    STAT(st_clears++; if (pool_used > st_blocks) st_blocks = pool_used);
    /* emptied by moving to the next generation; every slot is reset once in 255 */
    if (++gen == 0) {
        for (size_t i = 0; i < agg_slots; i++) agg[i].gen = 0;
        for (size_t i = 0; i < dir_slots; i++) dirs[i].gen = 0;
        gen = 1;
    }
    pool_used = 0;
    agg_used = 0;
    dir_used = 0;
}

static int tt_alloc(size_t blocks, size_t aggs) {
    Block *b = (Block *)malloc(blocks * sizeof(Block));
    Agg *a = (Agg *)calloc(aggs, sizeof(Agg)); /* generation 0: every slot empty */
    Dir *d = NULL;
    if (posix_memalign((void **)&d, 64, TT_DIRS * sizeof(Dir))) d = NULL;
    if (!b || !a || !d) { free(b); free(a); free(d); return -1; }
    memset(d, 0, TT_DIRS * sizeof(Dir));
    free(pool); free(agg); free(dirs);
    pool = b; agg = a; dirs = d;
    pool_size = blocks; agg_slots = aggs; dir_slots = TT_DIRS;
    tt_clear();
    return 0;
}

/* ---------------------------------------------------------------- the search context */

/* A trick-start position as the table sees it: the number of cards of each suit in each
 * hand (4 bits each, hand p suit s at bit 16p + 4s), per suit the holders of the cards
 * still out from the top (2 bits each), and the leader and flags. */
typedef struct {
    u64 lengths;
    uint32_t own[4];
    uint8_t flags;
} Key;

typedef struct {
    u64 hand[4];
    int killer[14];  /* by tricks left: the lead that last gave a cut-off (-1: none yet) */
    int killer2[14]; /* and the one before it */
    int trump;      /* 0-3, or -1 for no trumps */
    int side[4];    /* 1 = the declarer's side */
    int tifr;       /* rule flag trump_in_first_trick */
    int broken;     /* a trump has been played */
    int first;      /* the trick under way is the game's first */
    int leader;
    int len;        /* cards in the trick under way */
    int left;       /* tricks left, the one under way included */
    int tcard[4];
    u64 gone;       /* cards played in finished tricks (or before the position) */
    Key key;        /* lengths and holders at the start of the trick under way */
    long long nodes;
} Ctx;

/* Seat p's cards in suit s at the start of the trick under way (exact for p's suits the
 * trick has not taken a card of yet: at a trick's start, every suit). */
static inline int slen(const Ctx *c, int p, int s) { return (int)((c->key.lengths >> (16 * p + 4 * s)) & 15); }

static u64 legal_mask(const Ctx *c, int p) {
    u64 h = c->hand[p];
    if (c->len) {
        int led = SUIT_OF(c->tcard[0]);
        u64 f = h & SUITMASK[led];
        if (f) return f;
        if (c->first && c->trump >= 0 && !c->tifr) {
            u64 nt = h & ~SUITMASK[c->trump];
            if (nt) return nt;
        }
        return h;
    }
    if (c->trump < 0) return h;
    u64 a = h;
    if (!c->broken || (c->first && !c->tifr)) {
        u64 nt = a & ~SUITMASK[c->trump];
        if (nt) a = nt;
    }
    return a;
}

/* index in the trick (0-3) of the card winning it so far */
static inline int winning_index(const int *cards, int n, int trump) {
    int best = 0, bc = cards[0];
    for (int i = 1; i < n; i++) {
        int cc = cards[i];
        int s = SUIT_OF(cc), bs = SUIT_OF(bc);
        if (s == bs) {
            if (cc > bc) { best = i; bc = cc; }
        } else if (s == trump && bs != trump) {
            best = i; bc = cc;
        }
    }
    return best;
}

/* The holders of suit s's cards still out, from the top, 2 bits each. */
/* Tables for suit_own: a 13-bit rank set reversed (ace first); the bits of v at the set
 * bits of m, packed down (7-bit m and v); the bits set in 7 bits; 7 bits spread to every
 * other bit. Filled when the module is loaded. */
static uint16_t rev13[1 << 13];
static uint8_t pack7[128][128];
static uint8_t count7[128];
static uint16_t spread7[128];

static void init_tables(void) {
    for (int x = 0; x < (1 << 13); x++) {
        int r = 0;
        for (int i = 0; i < 13; i++) if ((x >> i) & 1) r |= 1 << (12 - i);
        rev13[x] = (uint16_t)r;
    }
    for (int m = 0; m < 128; m++) {
        int n = 0;
        for (int i = 0; i < 7; i++) n += (m >> i) & 1;
        count7[m] = (uint8_t)n;
        for (int v = 0; v < 128; v++) {
            int o = 0, j = 0;
            for (int i = 0; i < 7; i++)
                if ((m >> i) & 1) o |= ((v >> i) & 1) << j++;
            pack7[m][v] = (uint8_t)o;
        }
    }
    for (int x = 0; x < 128; x++) {
        int o = 0;
        for (int i = 0; i < 7; i++) if ((x >> i) & 1) o |= 1 << (2 * i);
        spread7[x] = (uint16_t)o;
    }
}

static inline uint32_t pack13(uint32_t v, uint32_t m) {
    return pack7[m & 127][v & 127] | ((uint32_t)pack7[m >> 7][v >> 7] << count7[m & 127]);
}

static inline uint32_t spread13(uint32_t x) {
    return spread7[x & 127] | ((uint32_t)spread7[x >> 7] << 14);
}

/* The holders of suit s's cards still out, from the top, 2 bits each. */
static inline uint32_t suit_own(const Ctx *c, int s) {
    int sh = 13 * s;
    u64 x1 = c->hand[1] | c->hand[3], x2 = c->hand[2] | c->hand[3];
    uint32_t rem = (uint32_t)(((c->hand[0] | c->hand[1] | c->hand[2] | c->hand[3]) >> sh) & 0x1fff);
    uint32_t r = rev13[rem];
    uint32_t a = pack13(rev13[(x1 >> sh) & rem], r), b = pack13(rev13[(x2 >> sh) & rem], r);
    return spread13(a) | (spread13(b) << 1);
}

/* c->key from scratch, for the start of the trick under way (its cards put back). */
static void init_key(Ctx *c) {
    for (int k = 0; k < c->len; k++) c->hand[(c->leader + k) & 3] |= 1ULL << c->tcard[k];
    u64 L = 0;
    for (int p = 0; p < 4; p++)
        for (int s = 0; s < 4; s++)
            L |= (u64)popc(c->hand[p] & SUITMASK[s]) << (16 * p + 4 * s);
    c->key.lengths = L;
    for (int s = 0; s < 4; s++) c->key.own[s] = suit_own(c, s);
    for (int k = 0; k < c->len; k++) c->hand[(c->leader + k) & 3] &= ~(1ULL << c->tcard[k]);
}

/* After a trick: the key of the next trick's start from this trick's (the trick's cards
 * already out of the hands), recomputing only the suits played to. */
static inline void next_key(Ctx *c) {
    int touched = 0;
    for (int k = 0; k < 4; k++) {
        int card = c->tcard[k], s = SUIT_OF(card);
        c->key.lengths -= 1ULL << (16 * ((c->leader + k) & 3) + 4 * s);
        touched |= 1 << s;
    }
    for (int s = 0; s < 4; s++)
        if ((touched >> s) & 1) c->key.own[s] = suit_own(c, s);
}

static inline u64 mix(u64 h) {
    /* one multiply, the high bits folded down: enough spread for a power-of-two table */
    h *= 0x9e3779b97f4a7c15ULL;
    return h ^ (h >> 29) ^ (h >> 41);
}

static inline uint32_t depth_mask(int d) { return d >= 16 ? 0xffffffffu : ((1u << (2 * d)) - 1); }

static inline int agg_full(void) { return agg_used * 4 > agg_slots * 3; }

/* The aggregate's slot: found, or (create) a new one; NULL when absent (or the index is full). */
static Agg *agg_find(const Key *k, int sub, int create) {
    size_t i = mix(k->lengths ^ ((u64)k->flags << 56) ^ ((u64)sub << 40)) & (agg_slots - 1);
    for (;;) {
        Agg *a = &agg[i];
        if (a->gen != gen) {
            if (!create || agg_full()) return NULL;
            a->lengths = k->lengths;
            a->flags = k->flags;
            a->gen = gen;
            a->sub = (uint16_t)sub;
            a->head = -1;
            agg_used++;
            return a;
        }
        if (a->flags == k->flags && a->lengths == k->lengths && a->sub == sub) return a;
        i = (i + 1) & (agg_slots - 1);
    }
}

static inline int entry_matches(const Entry *e, const uint32_t *own) {
    return (own[0] & depth_mask(e->depth[0])) == e->own[0] && (own[1] & depth_mask(e->depth[1])) == e->own[1] &&
           (own[2] & depth_mask(e->depth[2])) == e->own[2] && (own[3] & depth_mask(e->depth[3])) == e->own[3];
}

/* The relevant cards of an entry, as cards of the position: the top depth[s] of each suit. */
static u64 depth_cards(const Ctx *c, const uint8_t *depth) {
    u64 all = c->hand[0] | c->hand[1] | c->hand[2] | c->hand[3];
    u64 out = 0;
    for (int s = 0; s < 4; s++) {
        int d = depth[s];
        if (!d) continue;
        uint32_t rem = (uint32_t)((all >> (13 * s)) & 0x1fff);
        uint32_t r = rev13[rem];             /* the ace at bit 0 */
        for (int i = 1; i < d && r; i++) r &= r - 1;
        if (!r) { out |= (u64)rem << (13 * s); continue; }
        int lowest = 12 - lowbit(r);         /* rank of the d-th card from the top */
        out |= (u64)(rem & ~((1u << lowest) - 1)) << (13 * s);
    }
    return out;
}

/* An aggregate's entries are kept in lists by the suits in which they fix the holder of
 * the top card (a 4-bit set m; a suit with no card out counts as fixed), filed under m and
 * those holders: a lookup scans, for each m in use (the aggregate's directory, sub 0), only
 * the list whose holders are its own. */
static inline int sub_of(const Key *k, int m) {
    int sub = 0x1000 | (m << 8);
    for (int s = 0; s < 4; s++)
        if ((m >> s) & 1) sub |= (int)(k->own[s] & 3) << (2 * s);
    return sub;
}

static Dir *dir_find(const Key *k, int create) {
    size_t i = mix(k->lengths ^ ((u64)k->flags << 56)) & (dir_slots - 1);
    for (;;) {
        Dir *d = &dirs[i];
        if (d->gen != gen) {
            if (!create || dir_used * 4 > dir_slots * 3) return NULL;
            d->lengths = k->lengths;
            d->flags = k->flags;
            d->gen = gen;
            d->n = 0;
            d->used = 0;
            dir_used++;
            return d;
        }
        if (d->flags == k->flags && d->lengths == k->lengths) return d;
        i = (i + 1) & (dir_slots - 1);
    }
}

/* The head of the aggregate's list `sub` (created empty when asked), or NULL. */
static int32_t *list_head(Dir *d, const Key *k, int sub, int create) {
    for (int i = 0; i < d->n; i++)
        if (d->subs[i] == sub) return &d->heads[i];
    if (d->n < INLINE) {
        if (!create) return NULL;
        d->subs[d->n] = (uint16_t)sub;
        d->heads[d->n] = -1;
        return &d->heads[d->n++];
    }
    Agg *a = agg_find(k, sub, create);
    return a ? &a->head : NULL;
}

static int scan(const Ctx *c, const int32_t *head, const Key *k, int target, int *result, u64 *rel) {
    if (!head) return 0;
    for (int32_t b = *head; b >= 0; b = pool[b].next) {
        const Block *blk = &pool[b];
        for (int i = 0; i < blk->n; i++) {
            const Entry *e = &blk->e[i];
            STAT(st_scan++);
            if ((e->lb < target && e->ub >= target) || !entry_matches(e, k->own)) continue;
            /* the first entry that decides (the newest) */
            *result = e->lb >= target;
            *rel = depth_cards(c, e->depth);
            return 1;
        }
    }
    return 0;
}

/* Does the table decide "at least target tricks"? Then *result is the answer and *rel the
 * cards it depends on. */
/* SPREAD4[m]: two bits for each suit in the 4-bit set m */
static const uint16_t SPREAD4[16] = {0x00, 0x03, 0x0c, 0x0f, 0x30, 0x33, 0x3c, 0x3f,
                                     0xc0, 0xc3, 0xcc, 0xcf, 0xf0, 0xf3, 0xfc, 0xff};

static int tt_probe(const Ctx *c, const Key *k, int target, int *result, u64 *rel) {
    Dir *dir = dir_find(k, 0);
    if (!dir) return 0;
    /* the holder of each suit's top card, two bits a suit: sub_of() for every m at once */
    int tops = (int)((k->own[0] & 3) | ((k->own[1] & 3) << 2) | ((k->own[2] & 3) << 4) | ((k->own[3] & 3) << 6));
    for (uint32_t used = dir->used; used; used &= used - 1) {
        int m = __builtin_ctz(used);
        if (scan(c, list_head(dir, k, 0x1000 | (m << 8) | (tops & SPREAD4[m]), 0), k, target, result, rel)) return 1;
    }
    return 0;
}

static void tt_store(const Ctx *c, const Key *k, int lower, int bound, u64 rel, int left) {
    uint8_t depth[4];
    uint32_t own[4];
    u64 all = c->hand[0] | c->hand[1] | c->hand[2] | c->hand[3];
    int m = 0;
    for (int s = 0; s < 4; s++) {
        u64 r = rel & SUITMASK[s];
        depth[s] = r ? (uint8_t)popc(all & SUITMASK[s] & ~((1ULL << lowbit(r)) - 1)) : 0;
        own[s] = k->own[s] & depth_mask(depth[s]);
        if (depth[s] || !(all & SUITMASK[s])) m |= 1 << s;
    }
    int sub = sub_of(k, m);
    Dir *dir = dir_find(k, 1);
    int32_t *head = dir ? list_head(dir, k, sub, 1) : NULL;
    if (!head || (*head < 0 && pool_used >= pool_size)) {
        tt_clear(); /* full: start again */
        dir = dir_find(k, 1);
        head = list_head(dir, k, sub, 1);
    }
    dir->used |= (uint16_t)(1 << m);
    if (*head >= 0) {
        for (int32_t b = *head; b >= 0; b = pool[b].next) {
            Block *blk = &pool[b];
            for (int i = 0; i < blk->n; i++) {
                Entry *e = &blk->e[i];
                if (memcmp(e->depth, depth, 4) || memcmp(e->own, own, sizeof(own))) continue;
                if (lower) { if (bound > e->lb) e->lb = (int8_t)bound; }
                else if (bound < e->ub) e->ub = (int8_t)bound;
                return;
            }
        }
    }
    if (*head < 0 || pool[*head].n == BLOCK) {
        if (pool_used >= pool_size) {
            tt_clear();
            dir = dir_find(k, 1);
            dir->used |= (uint16_t)(1 << m);
            head = list_head(dir, k, sub, 1);
        }
        int32_t nb = (int32_t)pool_used++;
        pool[nb].next = *head;
        pool[nb].n = 0;
        *head = nb;
    }
    Block *blk = &pool[*head];
    Entry *e = &blk->e[blk->n++];
    memcpy(e->own, own, sizeof(own));
    memcpy(e->depth, depth, 4);
    e->lb = lower ? (int8_t)bound : 0;
    e->ub = lower ? (int8_t)left : (int8_t)bound;
}

/* ---------------------------------------------------------------- bounds */

/* The seat holding `card` (which some seat holds). */
static inline int holder(const Ctx *c, int card) {
    int h = 0;
    while (!((c->hand[h] >> card) & 1)) h++;
    return h;
}

/* The top n cards of a set. */
static inline u64 keep_top(u64 cards, int n) {
    for (int i = popc(cards) - n; i > 0; i--) cards &= cards - 1;
    return cards;
}

/* Rounds of side suit s side S can cash before an opponent ruffs: while every opponent
 * holding a trump still follows (13: no trumps, or nobody on the other side holds one). */
static inline int safe_rounds(const Ctx *c, int S, int s) {
    int cap = 13;
    if (c->trump < 0) return cap;
    for (int q = 0; q < 4; q++) {
        if (c->side[q] == S || !(c->hand[q] & SUITMASK[c->trump])) continue;
        int len = slen(c, q, s);
        if (len < cap) cap = len;
    }
    return cap;
}

/* Top winners in suit s held by seat p: its cards from the top of what is still out,
 * down to the first card someone else holds. */
static inline int top_run_cards(const Ctx *c, int p, int s, u64 all, u64 *cards) {
    u64 rem = all & SUITMASK[s];
    u64 mine = c->hand[p] & SUITMASK[s];
    int n = 0;
    while (rem) {
        int top = highbit(rem);
        if (!((mine >> top) & 1)) break;
        n++;
        rem &= ~(1ULL << top);
        *cards |= 1ULL << top;
    }
    return n;
}

static inline int top_run(const Ctx *c, int p, int s, u64 all) {
    u64 unused = 0;
    return top_run_cards(c, p, s, all, &unused);
}

/* Tricks the leader's side takes for sure by cashing the leader's top winners, then, where
 * a partner holds the top of a suit the leader can lead, crossing to it and cashing the
 * partner's top winners. Rounds of a suit are safe while every seat of the other side that
 * holds a trump still holds a card of the suit (it must follow); the trump suit is safe
 * when trumps may be led (broken, or the leader holds nothing else). */
static int quick_tricks(const Ctx *c, u64 *rel) {
    if (c->first && c->trump >= 0 && !c->tifr) return 0;
    int L = c->leader;
    u64 all = c->hand[0] | c->hand[1] | c->hand[2] | c->hand[3];
    int cap[4];
    for (int s = 0; s < 4; s++) {
        if (s == c->trump) { cap[s] = (c->broken || !(c->hand[L] & ~SUITMASK[s])) ? 13 : 0; continue; }
        cap[s] = safe_rounds(c, c->side[L], s);
    }
    /* drawing trumps: when L may lead trumps and its top trumps outnumber every opponent's
       trumps, L cashes them first (its partners cannot overtake them) and nobody can ruff
       afterwards; the count depends on those top trumps, which are counted below anyway */
    if (c->trump >= 0 && cap[c->trump]) {
        int most = 0;
        for (int q = 0; q < 4; q++) {
            if (c->side[q] == c->side[L]) continue;
            int lq = slen(c, q, c->trump);
            if (lq > most) most = lq;
        }
        if (most && top_run(c, L, c->trump, all) >= most)
            for (int s = 0; s < 4; s++) cap[s] = 13;
    }
    int n = 0;
    u64 lrel = 0;
    for (int s = 0; s < 4; s++) {
        u64 mine = c->hand[L] & SUITMASK[s];
        if (!cap[s] || !mine) continue;
        int r = top_run_cards(c, L, s, all, &lrel);
        n += r < cap[s] ? r : cap[s];
        /* length: once the other side is out of the suit (and cannot ruff: cap 13), the
           leader's small cards win too, if no partner can overtake them (then the leader
           keeps the lead throughout) */
        int len = slen(c, L, s);
        if (cap[s] < 13 || len <= r) continue;
        int longest = 0;
        u64 mates = 0;
        for (int q = 0; q < 4; q++) {
            if (q == L) continue;
            if (c->side[q] == c->side[L]) { mates |= c->hand[q] & SUITMASK[s]; continue; }
            int lq = slen(c, q, s);
            if (lq > longest) longest = lq;
        }
        if (r < longest) continue;
        int lowest = lowbit(mine);
        if (mates) {
            if (highbit(mates) > lowest) continue;
            lrel |= 1ULL << lowest;
        }
        n += len - r;
    }
    /* crossing: after cashing its own winners, L leads a suit whose top card a partner P
       holds; P wins and cashes its own top winners in safe suits. P must be able to keep
       its winners while L cashes: it needs as many other cards as L has winners. */
    int best_extra = 0;
    u64 best_rel = 0;
    for (int P = 0; P < 4; P++) {
        if (P == L || c->side[P] != c->side[L]) continue;
        u64 prel = 0;
        int pw = 0, entry = 0;
        for (int s = 0; s < 4; s++) {
            if (!cap[s]) continue;
            int r = top_run_cards(c, P, s, all, &prel);
            if (r > cap[s]) r = cap[s];
            pw += r;
            if (r && (c->hand[L] & SUITMASK[s])) entry = 1;
        }
        if (entry && pw && popc(c->hand[P]) - pw >= n && pw > best_extra) { best_extra = pw; best_rel = prel; }
        /* or through a suit whose top cards L holds and whose next ones are P's (A-x
           facing K-Q-x): L cashes its own, then leads the suit again to P's, last. P needs
           small cards to follow L's winners in it, and to keep its winners meanwhile. */
        int sp = popc(c->hand[P]);
        for (int s = 0; s < 4; s++) {
            if (!cap[s]) continue;
            u64 ls = c->hand[L] & SUITMASK[s], ps = c->hand[P] & SUITMASK[s];
            if (!ls || !ps) continue;
            u64 lrun = 0;
            int rl = top_run_cards(c, L, s, all, &lrun);
            if (!rl || popc(ls) <= rl || rl >= cap[s]) continue;
            u64 pcards = 0;
            int rp = top_run_cards(c, P, s, all & ~lrun, &pcards); /* P's, once L's are gone */
            if (!rp || popc(ps) < rl + rp) continue;
            if (rl + rp > cap[s]) {
                rp = cap[s] - rl;
                pcards = keep_top(pcards, rp);
            }
            int extra = rp + pw; /* P's run in s is 0: L holds its top */
            if (sp - extra < n || extra <= best_extra) continue;
            best_extra = extra;
            best_rel = prel | pcards;
        }
    }
    *rel |= lrel | best_rel;
    n += best_extra;
    int left = popc(c->hand[L]);
    return n > left ? left : n;
}

/* Tricks a side takes for sure with one seat's trumps: a trump loses only to a higher trump
 * played to the same trick, and each card of the other side's can beat at most one of the
 * seat's trumps (one card a trick from each seat), while every card is played by the last
 * trick. So, walking the trumps still out from the top, a trump of the seat survives unless
 * an opposing trump above it is still unused to beat it: the survivors are sure tricks (two
 * seats of one side could spend theirs on one trick, so only the best single seat counts).
 * With the seat's top trumps alone this is the top run. The answer depends on the trumps
 * from the top down to the last survivor counted. */
static int sure_trump_tricks(const Ctx *c, int side, u64 *rel) {
    if (c->trump < 0) return 0;
    u64 all = c->hand[0] | c->hand[1] | c->hand[2] | c->hand[3];
    u64 opp = 0;
    for (int q = 0; q < 4; q++)
        if (c->side[q] != side) opp |= c->hand[q];
    int best = 0;
    u64 bestcards = 0;
    for (int q = 0; q < 4; q++) {
        if (c->side[q] != side) continue;
        u64 mine = c->hand[q] & SUITMASK[c->trump];
        if (!mine) continue;
        u64 rest = all & SUITMASK[c->trump];
        int killers = 0, alive = 0;
        while (rest && mine) {
            int top = highbit(rest);
            u64 bit = 1ULL << top;
            rest &= ~bit;
            if (opp & bit) killers++;
            else if (mine & bit) {
                mine &= ~bit;
                if (killers) killers--;
                else if (++alive > best) { best = alive; bestcards = (all & SUITMASK[c->trump]) & ~(bit - 1); }
            }
        }
    }
    *rel |= bestcards;
    return best;
}

/* Does the side not on lead surely win the trick about to start? It does when, in every
 * suit the leader may lead, the top card still out is the other side's (its holder follows
 * with it) and no partner of the leader could ruff it (void in the suit, holding a trump).
 * *rel gets those top cards. */
static int other_side_takes_trick(const Ctx *c, u64 *rel) {
    int L = c->leader;
    u64 all = c->hand[0] | c->hand[1] | c->hand[2] | c->hand[3];
    u64 legal = legal_mask(c, L), tops = 0;
    for (int s = 0; s < 4; s++) {
        if (!(legal & SUITMASK[s])) continue;
        int top = highbit(all & SUITMASK[s]);
        int h = holder(c, top);
        if (c->side[h] == c->side[L]) return 0;
        if (c->trump >= 0 && s != c->trump)
            for (int q = 0; q < 4; q++)
                if (q != L && c->side[q] == c->side[L] && !(c->hand[q] & SUITMASK[s]) &&
                    (c->hand[q] & SUITMASK[c->trump]))
                    return 0;
        tops |= 1ULL << top;
    }
    *rel |= tops;
    return 1;
}

/* Does the leader's side surely take the trick about to start by a partner's ruff? It does
 * when the leader may lead a side suit that a partner is void in and holds trumps for, and
 * every opponent must follow it (not in the first trick, where a trump may be barred). The
 * answer depends on no rank. */
static int partner_ruffs_trick(const Ctx *c) {
    int L = c->leader, tr = c->trump, ls = c->side[L];
    if (tr < 0 || c->first) return 0;
    u64 legal = legal_mask(c, L);
    for (int s = 0; s < 4; s++) {
        if (s == tr || !(legal & SUITMASK[s])) continue;
        int ruffer = 0, follow = 1;
        for (int q = 0; q < 4; q++) {
            if (q == L) continue;
            if (c->side[q] == ls) { if (!(c->hand[q] & SUITMASK[s]) && (c->hand[q] & SUITMASK[tr])) ruffer = 1; }
            else if (!(c->hand[q] & SUITMASK[s])) follow = 0;
        }
        if (ruffer && follow) return 1;
    }
    return 0;
}

/* Does side S surely win the trick under way (at least one card played)? It does when no
 * seat of the other side still to play can ruff, the trick is not won by a ruff so far, and
 * either S is winning it with a card no later opponent can beat, or a seat of S still to
 * play holds a card of the suit led above the card winning so far and above every later
 * opponent's, or can ruff. *rel gets the card whose rank decides it. */
static int side_wins_trick(const Ctx *c, int S, u64 *rel, int *winner) {
    int trump = c->trump, len = c->len;
    int led = SUIT_OF(c->tcard[0]);
    int wi = winning_index(c->tcard, len, trump), wcard = c->tcard[wi];
    if (SUIT_OF(wcard) != led) return 0; /* ruffed so far */
    int wseat = (c->leader + wi) & 3;
    int best_s = -1, s_ruffs = 0, top_o = -1, best_seat = -1, overtakes = 0;
    for (int k = len; k < 4; k++) {
        int q = (c->leader + k) & 3;
        u64 f = c->hand[q] & SUITMASK[led];
        int can_ruff = !f && trump >= 0 && led != trump && (c->hand[q] & SUITMASK[trump]);
        if (c->side[q] == S) {
            if (f && highbit(f) > best_s) { best_s = highbit(f); best_seat = q; }
            if (f && lowbit(f) > wcard) overtakes = 1; /* must beat its partner's card */
            /* in the first trick a trump may be barred while the seat holds another card */
            if (can_ruff && c->first && !c->tifr && (c->hand[q] & ~SUITMASK[trump])) can_ruff = 0;
            s_ruffs |= can_ruff;
        } else {
            if (can_ruff) return 0;
            if (f && highbit(f) > top_o) top_o = highbit(f);
        }
    }
    if (c->side[wseat] == S && wcard > top_o) { *rel = 1ULL << wcard; *winner = overtakes ? -1 : wseat; return 1; }
    if (best_s > wcard && best_s > top_o) { *rel = 1ULL << best_s; *winner = best_seat; return 1; }
    if (s_ruffs) { *rel = 0; *winner = -1; return 1; }
    return 0;
}

/* ---------------------------------------------------------------- move generation */

typedef struct { int card; int score; } Move;

/* Two cards hi > lo of one suit in seat p's hand are one move when nothing lies between
 * them but p's own cards and cards gone in finished tricks; or cards of the trick under way
 * too, when hi does not beat the card winning the trick so far (neither does lo: both lose
 * this trick, whatever comes after, and once the trick is gone the two are adjacent). */
static inline int card_beats(int x, int wcard, int trump) {
    if (SUIT_OF(x) == SUIT_OF(wcard)) return x > wcard;
    return SUIT_OF(x) == trump;
}

static inline int one_move(const Ctx *c, u64 same, int hi, int lo) {
    u64 between = ((1ULL << hi) - 1) & ~((1ULL << (lo + 1)) - 1);
    u64 rest = between & ~same;
    if (!rest) return 1;
    if (!c->len) return 0;
    u64 tmask = 0;
    for (int k = 0; k < c->len; k++) tmask |= 1ULL << c->tcard[k];
    if (rest & ~tmask) return 0;
    return !card_beats(hi, c->tcard[winning_index(c->tcard, c->len, c->trump)], c->trump);
}

/* The moves of seat p: one card per run of equivalent cards, with an ordering score. */
static int gen_moves(const Ctx *c, int p, Move *out) {
    u64 legal = legal_mask(c, p);
    if (!(legal & (legal - 1))) { /* one card: nothing to order */
        out[0].card = lowbit(legal);
        out[0].score = 0;
        return 1;
    }
    u64 h = c->hand[p];
    u64 same = h | c->gone;        /* cards that do not separate two of p's cards */
    u64 all = c->hand[0] | c->hand[1] | c->hand[2] | c->hand[3];
    int n = 0;
    int trump = c->trump;
    int len = c->len;
    int led = len ? SUIT_OF(c->tcard[0]) : -1;
    int wi = 0, wcard = -1, wsuit = -1, wseat = -1, partner_winning = 0;
    if (len) {
        wi = winning_index(c->tcard, len, trump);
        wcard = c->tcard[wi];
        wsuit = SUIT_OF(wcard);
        wseat = (c->leader + wi) & 3;
        partner_winning = c->side[wseat] == c->side[p];
    }
    /* whether the current winner can still be beaten by a seat yet to play from the other side */
    int winner_safe = 0;
    if (len && partner_winning) {
        winner_safe = 1;
        for (int k = len + 1; k < 4; k++) {
            int q = (c->leader + k) & 3;
            if (c->side[q] == c->side[p]) continue;
            u64 hq = c->hand[q];
            int ws = SUIT_OF(wcard);
            if (hq & SUITMASK[led]) {
                if (ws == led && (hq & SUITMASK[led]) && highbit(hq & SUITMASK[led]) > wcard) winner_safe = 0;
            } else if (trump >= 0 && (hq & SUITMASK[trump])) {
                if (ws != trump || highbit(hq & SUITMASK[trump]) > wcard) winner_safe = 0;
            }
        }
    }
    /* second and third hand following suit: can a later opponent beat the trick (a higher
       card of the suit led, or a ruff), and will a later partner win it anyway? */
    int later_opp_top = -1, later_opp_ruff = 0, mate_covers = 0;
    if ((len == 1 || len == 2) && !(partner_winning && winner_safe) && wsuit == led && (h & SUITMASK[led])) {
        int later_mate_top = -1;
        for (int k = len + 1; k < 4; k++) {
            int q = (c->leader + k) & 3;
            u64 f = c->hand[q] & SUITMASK[led];
            int top = f ? highbit(f) : -1;
            if (c->side[q] != c->side[p]) {
                if (top > later_opp_top) later_opp_top = top;
                if (!f && trump >= 0 && led != trump && (c->hand[q] & SUITMASK[trump])) later_opp_ruff = 1;
            } else if (top > later_mate_top) later_mate_top = top;
        }
        mate_covers = !partner_winning && !later_opp_ruff && later_mate_top > wcard && later_mate_top > later_opp_top;
    }
    u64 tmask = 0, mates = 0;
    for (int k = 0; k < len; k++) tmask |= 1ULL << c->tcard[k];
    if (!len)
        for (int q = 0; q < 4; q++)
            if (q != p && c->side[q] == c->side[p]) mates |= c->hand[q];
    for (int s = 0; s < 4; s++) {
        u64 cards = legal & SUITMASK[s];
        if (!cards) continue;
        int stop = (int)((h >> highbit(all & SUITMASK[s])) & 1); /* p holds the suit's top card */
        /* walk from the top: runs of equivalent cards */
        int runs_seen = 0;
        while (cards) {
            int top = highbit(cards);
            int low = top;
            u64 rest = cards & ~(1ULL << top);
            while (rest) {
                int nx = highbit(rest);
                u64 between = ((1ULL << low) - 1) & ~((1ULL << (nx + 1)) - 1) & ~same;
                /* as one_move(): only trick cards between, and low does not beat the trick */
                if (between && (!len || (between & ~tmask) || card_beats(low, wcard, trump))) break;
                low = nx;
                rest &= ~(1ULL << nx);
            }
            cards = rest;
            int base = 13 * s, rank_hi = top - base, rank_lo = low - base;
            int score, card;
            if (!len) {
                /* leading */
                int winners = runs_seen == 0 && stop > 0;
                card = top;
                if (winners) score = 1000 + rank_hi;
                else {
                    /* who holds the top of the suit: a partner's winner is a good lead */
                    if ((mates >> highbit(all & SUITMASK[s])) & 1) {
                        /* to a partner's winner, from a long suit first */
                        score = 800 - rank_lo + 8 * slen(c, p, s); card = low;
                    } else {
                        /* low from the shortest suit first */
                        score = 400 - rank_lo - 15 * slen(c, p, s); card = low;
                        if (s == trump) score -= 100;
                        /* where the top card and the second best sit (1: next to play, 3: last) */
                        u64 sx = all & SUITMASK[s];
                        int t1 = highbit(sx), r1 = (holder(c, t1) - p) & 3;
                        u64 sx2 = sx & ~(1ULL << t1);
                        int h2 = sx2 ? holder(c, highbit(sx2)) : -1;
                        if (r1 == 3) score -= 10; /* into the last seat's top card */
                        else if (r1 == 1 && h2 >= 0 && c->side[h2] == c->side[p] && ((h2 - p) & 3) > 1)
                            score += 31; /* through it towards a partner's second best: a finesse */
                    }
                }
            } else {
                int beats;
                if (s == wsuit) beats = top > wcard;
                else beats = (s == trump);
                if ((partner_winning && winner_safe) || mate_covers) {
                    score = 500 - rank_lo; card = low;
                    if (s != led && s == trump) score -= 200; /* do not ruff partner's trick */
                } else if (beats && s == led && len < 3 && (later_opp_ruff || top < later_opp_top)) {
                    /* it beats the trick so far, but a later opponent can beat it */
                    int lowbeats = low > wcard;
                    card = lowbeats ? low : top;
                    score = (partner_winning ? 150 : 250) - (card - base);
                } else if (beats) {
                    /* win as cheaply as possible: the lowest card of the run still wins */
                    int lowbeats;
                    if (s == wsuit) lowbeats = low > wcard;
                    else lowbeats = (s == trump);
                    card = lowbeats ? low : top;
                    if (len == 3 || (runs_seen == 0 && stop > 0)) score = 900 - (card - base);
                    else if (len == 1) score = 300 - (card - base); /* second hand: the cheapest win */
                    else score = 700 - (card - base);
                    if (s != led) score -= 50; /* a ruff */
                } else {
                    score = 200 - rank_lo; card = low;
                    if (s != led && s == trump) score -= 100; /* a trump that does not win */
                }
            }
            out[n].card = card;
            out[n].score = score;
            n++;
            runs_seen++;
        }
    }
    /* insertion sort, best first */
    for (int i = 1; i < n; i++) {
        Move m = out[i];
        int j = i - 1;
        while (j >= 0 && out[j].score < m.score) { out[j + 1] = out[j]; j--; }
        out[j + 1] = m;
    }
    return n;
}

/* ---------------------------------------------------------------- the search */

/* Can the declarer's side take at least `target` tricks from the trick under way on?
 * `rel` receives the cards whose ranks the answer depends on (the rest count by number). */
static int search(Ctx *c, int target, u64 *rel) {
    c->nodes++;
    STAT(st_nodes[popc(c->hand[(c->leader + 3) & 3])][c->len]++);
    *rel = 0;
    if (target <= 0) return 1;
    int len = c->len;
    int left = c->left;
    if (target > left) return 0;
    if (len == 1) {
        /* the trick under way is one side's for sure, and the seat that wins it then cashes
           its top winners in the other suits (side suits for their safe rounds, trumps once
           broken): enough when that side needs no more tricks than these (or the other side
           then cannot reach its target) */
        u64 wrel;
        int w;
        for (int S = 1; S >= 0; S--) {
            int need = S ? target : left - target + 1; /* tricks S must take to decide */
            if (!side_wins_trick(c, S, &wrel, &w)) continue;
            int got = 1;
            if (need > 1 && w >= 0) {
                u64 all = c->hand[0] | c->hand[1] | c->hand[2] | c->hand[3];
                int led = SUIT_OF(c->tcard[0]), trump = c->trump;
                for (int s = 0; s < 4 && got < need; s++) {
                    if (s == led) continue;
                    /* (the trick's lengths are the trick start's: s is not the suit led) */
                    int cap = s == trump ? (c->broken ? 13 : 0) : safe_rounds(c, S, s);
                    if (!cap) continue;
                    u64 cards = 0;
                    int r = top_run_cards(c, w, s, all, &cards);
                    if (r > cap) {
                        r = cap;
                        cards = keep_top(cards, cap); /* only those count: their ranks matter */
                    }
                    wrel |= cards;
                    got += r;
                }
            }
            if (got >= need) { *rel = wrel; return S; }
        }
    }
    Key key;
    if (len == 0) {
        key = c->key;
        key.flags = (uint8_t)(0x80 | (c->leader << 2) | (c->broken << 1) | c->first);
        int known;
        STAT(st_probe[left]++);
        if (tt_probe(c, &key, target, &known, rel)) { STAT(st_hit[left]++); return known; }
        /* lower bounds of both sides' tricks: quick tricks and top trumps */
        int ls = c->side[c->leader];
        u64 qrel = 0, trel = 0, orel = 0;
        int lead_lb = quick_tricks(c, &qrel);
        int t1 = sure_trump_tricks(c, ls, &trel);
        if (t1 > lead_lb) { lead_lb = t1; qrel = trel; }
        if (!lead_lb && partner_ruffs_trick(c)) { lead_lb = 1; qrel = 0; }
        int other_lb = sure_trump_tricks(c, !ls, &orel);
        if (!other_lb) { u64 wrel = 0; if (other_side_takes_trick(c, &wrel)) { other_lb = 1; orel = wrel; } }
        int blb = ls ? lead_lb : other_lb;
        int bub = left - (ls ? other_lb : lead_lb);
        u64 lbr = ls ? qrel : orel, ubr = ls ? orel : qrel;
        STAT(if (blb >= target || bub < target) st_qt[left]++);
        if (blb >= target) { *rel = lbr; tt_store(c, &key, 1, blb, lbr, left); return 1; }
        if (bub < target) { *rel = ubr; tt_store(c, &key, 0, bub, ubr, left); return 0; }
    }
    int p = (c->leader + len) & 3;
    int maxi = c->side[p];
    Move moves[14];
    int n = gen_moves(c, p, moves);
    if (len == 0 && n > 1) {
        int at = 0;
        for (int pass = 0; pass < 2; pass++) {
            int kc = pass ? c->killer2[left] : c->killer[left];
            if (kc < 0) continue;
            for (int i = at; i < n; i++)
                if (moves[i].card == kc) {
                    Move m = moves[i];
                    memmove(&moves[at + 1], &moves[at], (i - at) * sizeof(Move));
                    moves[at++] = m;
                    break;
                }
        }
    }
    int result = maxi ? 0 : 1;
    u64 allrel = 0;
    /* cards of a suit below skip[s] play like a card already tried (see below) */
    int skip[4] = {0, 0, 0, 0};
    for (int i = 0; i < n; i++) {
        int card = moves[i].card;
        u64 bit = 1ULL << card;
        if (card < skip[SUIT_OF(card)]) continue;
        int old_broken = c->broken;
        c->hand[p] &= ~bit;
        c->tcard[len] = card;
        if (SUIT_OF(card) == c->trump) c->broken = 1;
        int r;
        u64 crel = 0;
        if (len == 3) {
            int wi = winning_index(c->tcard, 4, c->trump);
            int w = (c->leader + wi) & 3;
            int old_leader = c->leader, old_first = c->first;
            int saved[4]; /* the next trick writes over these slots */
            memcpy(saved, c->tcard, sizeof(saved));
            u64 tbits = 0;
            for (int k = 0; k < 4; k++) tbits |= 1ULL << c->tcard[k];
            c->gone |= tbits;
            Key saved_key = c->key;
            next_key(c);
            c->leader = w;
            c->len = 0;
            c->first = 0;
            c->left = left - 1;
            r = search(c, target - c->side[w], &crel);
            c->left = left;
            c->key = saved_key;
            c->gone &= ~tbits;
            memcpy(c->tcard, saved, sizeof(saved));
            c->leader = old_leader;
            c->first = old_first;
            c->len = 3;
            /* the winning card's rank mattered if it beat a card of its own suit; and so did
               the ranks of the winner's cards it was one move with (they would have won
               too): the lowest of them is relevant (as DDS's winning rank and its sequence) */
            int wc = c->tcard[wi];
            for (int k = 0; k < 4; k++)
                if (k != wi && SUIT_OF(c->tcard[k]) == SUIT_OF(wc)) {
                    crel |= 1ULL << wc;
                    u64 own = c->hand[w], same = own | c->gone;
                    int low = wc;
                    for (int x = wc - 1; x >= 13 * SUIT_OF(wc) && ((same >> x) & 1); x--)
                        if ((own >> x) & 1) low = x;
                    crel |= 1ULL << low;
                    break;
                }
        } else {
            c->len = len + 1;
            r = search(c, target, &crel);
            c->len = len;
        }
        c->hand[p] |= bit;
        c->broken = old_broken;
        STAT(if ((maxi && r) || (!maxi && !r)) st_cut[left][i < 13 ? i : 13]++);
        if (((maxi && r) || (!maxi && !r)) && len == 0 && c->killer[left] != card) { c->killer2[left] = c->killer[left]; c->killer[left] = card; }
        if (maxi && r) { result = 1; allrel = crel; break; }
        if (!maxi && !r) { result = 0; allrel = crel; break; }
        allrel |= crel;
        /* The answer after this card depends on no rank of its suit at or below it: every
           card of the suit below its lowest relevant card counts by number only, so another
           card of p's in that suit below that card (swapping the two changes nothing above
           it) gives the same answer, and need not be tried. */
        {
            int s = SUIT_OF(card);
            u64 r_s = crel & SUITMASK[s];
            int t = r_s ? lowbit(r_s) : 13 * s + 13;
            if (card < t && t > skip[s]) skip[s] = t;
        }
    }
    *rel = allrel;
    if (len == 0) {
        if (result) tt_store(c, &key, 1, target, allrel, left);
        else tt_store(c, &key, 0, target - 1, allrel, left);
    }
    return result;
}

/* The exact number of tricks, found from a guess by moving the zero window: a probe at
 * the guess, then a binary search of what is left. */
static int exact(Ctx *c, int guess) {
    int last = (c->leader + 3) & 3;
    int lo = 0, hi = popc(c->hand[last]);
    int probe = guess < 1 ? 1 : guess;
    while (lo < hi) {
        if (probe <= lo) probe = lo + 1;
        if (probe > hi) probe = hi;
        u64 rel;
        int r_ = search(c, probe, &rel);
        TRACE("  probe %d -> %d (nodes so far %lld)\n", probe, r_, c->nodes);
        /* values move little from the guess: step by one, up after a success, down after a failure */
        if (r_) { lo = probe; probe = probe + 1; } else { hi = probe - 1; probe = probe - 1; }
    }
    return lo;
}

/* Play one card from the position (the root), counting a finished trick's winner. Returns
 * the tricks the declarer's side gained (0/1). */
static int play_root(Ctx *c, int card) {
    int p = (c->leader + c->len) & 3;
    c->hand[p] &= ~(1ULL << card);
    c->tcard[c->len++] = card;
    if (SUIT_OF(card) == c->trump) c->broken = 1;
    if (c->len == 4) {
        int w = (c->leader + winning_index(c->tcard, 4, c->trump)) & 3;
        for (int k = 0; k < 4; k++) c->gone |= 1ULL << c->tcard[k];
        c->leader = w;
        c->len = 0;
        c->first = 0;
        c->left--;
        init_key(c);
        return c->side[w];
    }
    return 0;
}

/* ---------------------------------------------------------------- Python interface */

static int parse_position(PyObject *args, Ctx *c) {
    unsigned long long h[4];
    int trump, sidemask, leader, broken, first, tifr;
    PyObject *trick;
    if (!PyArg_ParseTuple(args, "(KKKK)iiiOppp", &h[0], &h[1], &h[2], &h[3], &trump, &sidemask,
                          &leader, &trick, &broken, &first, &tifr))
        return -1;
    memset(c, 0, sizeof(*c));
    for (int i = 0; i < 14; i++) c->killer[i] = c->killer2[i] = -1;
    u64 seen = 0;
    for (int i = 0; i < 4; i++) {
        if (h[i] & ~FULL) { PyErr_SetString(PyExc_ValueError, "a hand holds bits beyond the 52 cards"); return -1; }
        if (seen & h[i]) { PyErr_SetString(PyExc_ValueError, "a card is in two hands"); return -1; }
        seen |= h[i];
        c->hand[i] = h[i];
        c->side[i] = (sidemask >> i) & 1;
    }
    if (trump < -1 || trump > 3) { PyErr_SetString(PyExc_ValueError, "trump must be -1 (no trumps) or 0-3"); return -1; }
    if (leader < 0 || leader > 3) { PyErr_SetString(PyExc_ValueError, "leader must be 0-3"); return -1; }
    if (sidemask <= 0 || sidemask >= 15) { PyErr_SetString(PyExc_ValueError, "the declarer's side must be one to three seats"); return -1; }
    c->trump = trump; c->leader = leader; c->broken = broken; c->first = first; c->tifr = tifr;
    PyObject *seq = PySequence_Fast(trick, "trick must be a sequence of cards");
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > 3) { Py_DECREF(seq); PyErr_SetString(PyExc_ValueError, "a trick under way holds at most 3 cards"); return -1; }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(seq); return -1; }
        if (v < 0 || v > 51 || (seen >> v) & 1) { Py_DECREF(seq); PyErr_SetString(PyExc_ValueError, "a trick card is not a card, or is also in a hand"); return -1; }
        seen |= 1ULL << v;
        c->tcard[i] = (int)v;
    }
    Py_DECREF(seq);
    c->len = (int)n;
    /* every seat must hold the same number of cards once the trick is completed */
    int base = popc(c->hand[leader]);
    for (int k = 0; k < 4; k++) {
        int q = (leader + k) & 3;
        int want = k < n ? base : base + 1;
        if (n == 0) want = base;
        if (popc(c->hand[q]) != want) {
            PyErr_SetString(PyExc_ValueError, "the hands do not hold matching numbers of cards for this trick");
            return -1;
        }
    }
    if (base == 0 && n == 0) { /* nothing left: fine, value 0 */ }
    c->gone = FULL & ~seen;
    c->left = popc(c->hand[(leader + 3) & 3]);
    init_key(c);
    /* keep the table when trump, sides and flags are those it was filled under */
    if (!pool) { if (tt_alloc(TT_BLOCKS, TT_AGGS) < 0) { PyErr_NoMemory(); return -1; } }
    if (tt_trump != trump || tt_tifr != tifr || memcmp(tt_side, c->side, sizeof(tt_side))) {
        tt_clear();
        tt_trump = trump; tt_tifr = tifr;
        memcpy(tt_side, c->side, sizeof(tt_side));
    }
    return 0;
}

static PyObject *py_solve(PyObject *self, PyObject *args) {
    Ctx c;
    if (parse_position(args, &c) < 0) return NULL;
    int last = (c.leader + 3) & 3;
    int v = exact(&c, popc(c.hand[last]) / 2);
    return Py_BuildValue("iL", v, c.nodes);
}

/* Every legal card with the tricks the declarer's side takes from the trick under way on
 * after playing it: a list of (card, tricks). */
/* The legal cards equivalent to `card` (its run) for seat p at the root. */
static u64 run_of(const Ctx *c, int p, int card, u64 legal) {
    u64 same = c->hand[p] | c->gone;
    u64 cards = c->hand[p] & SUITMASK[SUIT_OF(card)];
    u64 run = 1ULL << card;
    for (int x = card;;) { /* up */
        u64 above = cards & ~((2ULL << x) - 1);
        if (!above) break;
        int y = lowbit(above);
        if (!one_move(c, same, y, x)) break;
        run |= 1ULL << y;
        x = y;
    }
    for (int x = card;;) { /* down */
        u64 below = cards & ((1ULL << x) - 1);
        if (!below) break;
        int y = highbit(below);
        if (!one_move(c, same, x, y)) break;
        run |= 1ULL << y;
        x = y;
    }
    return run & legal;
}

/* What an analysis needs, cheaper than every card's exact value: the best value, the cards
 * that reach it, and the exact value of one card (the card played, or -1). Other cards are
 * only compared with the best so far, one or two zero-window searches each. */
static PyObject *py_best_cards(PyObject *self, PyObject *args) {
    if (PyTuple_GET_SIZE(args) != 9) { PyErr_SetString(PyExc_TypeError, "best_cards takes 9 arguments"); return NULL; }
    PyObject *head = PyTuple_GetSlice(args, 0, 8);
    if (!head) return NULL;
    Ctx c;
    int rc = parse_position(head, &c);
    Py_DECREF(head);
    if (rc < 0) return NULL;
    long played = PyLong_AsLong(PyTuple_GET_ITEM(args, 8));
    if (played == -1 && PyErr_Occurred()) return NULL;
    int p = (c.leader + c.len) & 3;
    int maxi = c.side[p];
    u64 legal = legal_mask(&c, p);
    Move moves[14];
    int n = gen_moves(&c, p, moves);
    /* the played card's run first: its value must be exact */
    if (played >= 0 && played < 52 && ((legal >> played) & 1)) {
        for (int i = 0; i < n; i++) {
            if ((run_of(&c, p, moves[i].card, legal) >> played) & 1) {
                Move m = moves[i];
                memmove(&moves[1], &moves[0], i * sizeof(Move));
                moves[0] = m;
                break;
            }
        }
    }
    int guess = popc(c.hand[(c.leader + 3) & 3]) / 2;
    int best = -1, played_value = -1;
    u64 bestmask = 0;
    long long nodes = 0;
    for (int i = 0; i < n; i++) {
        Ctx d = c;
        int card = moves[i].card;
        u64 run = run_of(&c, p, card, legal);
        int g = play_root(&d, card);
        u64 rel;
        if (best < 0) {
            best = g + exact(&d, guess - g);
            bestmask = run;
            if (played >= 0 && ((run >> played) & 1)) played_value = best;
        } else if (maxi) {
            if (!search(&d, best - g, &rel)) { /* worse */ }
            else if (search(&d, best + 1 - g, &rel)) { best = g + exact(&d, best + 1 - g); bestmask = run; }
            else bestmask |= run;
        } else {
            if (search(&d, best + 1 - g, &rel)) { /* worse */ }
            else if (!search(&d, best - g, &rel)) { best = g + exact(&d, best - 1 - g); bestmask = run; }
            else bestmask |= run;
        }
        nodes += d.nodes;
    }
    PyObject *cards = PyList_New(0);
    if (!cards) return NULL;
    while (bestmask) {
        int cc = lowbit(bestmask);
        bestmask &= bestmask - 1;
        PyObject *v = PyLong_FromLong(cc);
        if (!v || PyList_Append(cards, v) < 0) { Py_XDECREF(v); Py_DECREF(cards); return NULL; }
        Py_DECREF(v);
    }
    return Py_BuildValue("(iNiL)", best, cards, played_value, nodes);
}

static PyObject *py_card_values(PyObject *self, PyObject *args) {
    Ctx c;
    if (parse_position(args, &c) < 0) return NULL;
    int p = (c.leader + c.len) & 3;
    u64 legal = legal_mask(&c, p);
    Move moves[14];
    int n = gen_moves(&c, p, moves);
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    int guess = popc(c.hand[(c.leader + 3) & 3]) / 2;
    long long nodes = 0;
    for (int i = 0; i < n; i++) {
        Ctx d = c;
        int card = moves[i].card;
        int gained = play_root(&d, card);
        TRACE("card %d gained %d guess %d\n", card, gained, guess - gained);
        int v = gained + exact(&d, guess - gained);
        nodes += d.nodes;
        guess = v;
        /* every card of the run has this value */
        u64 run = run_of(&c, p, card, legal);
        while (run) {
            int cc = lowbit(run);
            run &= run - 1;
            PyObject *t = Py_BuildValue("(ii)", cc, v);
            if (!t || PyList_Append(out, t) < 0) { Py_XDECREF(t); Py_DECREF(out); return NULL; }
            Py_DECREF(t);
        }
    }
    PyObject *res = Py_BuildValue("(NL)", out, nodes);
    return res;
}

static PyObject *py_clear(PyObject *self, PyObject *noargs) {
    tt_clear();
    tt_trump = -2;
    Py_RETURN_NONE;
}

#ifdef SOLVER_STATS
static PyObject *py_stats(PyObject *self, PyObject *noargs) {
    PyObject *d = PyList_New(0);
    for (int l = 0; l < 14; l++) {
        PyObject *cut = PyList_New(0);
        for (int i = 0; i < 14; i++) PyList_Append(cut, PyLong_FromLongLong(st_cut[l][i]));
        PyList_Append(d, Py_BuildValue("(iLLLLLLLN)", l, st_nodes[l][0], st_nodes[l][1], st_nodes[l][2], st_nodes[l][3], st_probe[l], st_hit[l], st_qt[l], cut));
    }
    fprintf(stderr, "entries scanned %lld, clears %lld, most blocks %lld, blocks now %zu, aggs %zu\n", st_scan, st_clears, st_blocks, pool_used, agg_used);
    st_scan = st_clears = st_blocks = 0;
    memset(st_nodes, 0, sizeof st_nodes); memset(st_probe, 0, sizeof st_probe); memset(st_hit, 0, sizeof st_hit); memset(st_qt, 0, sizeof st_qt); memset(st_cut, 0, sizeof st_cut);
    return d;
}
#endif

static PyMethodDef methods[] = {
#ifdef SOLVER_STATS
    {"stats", py_stats, METH_NOARGS, "search counters by tricks left (a profiling build only)"},
#endif
    {"solve", py_solve, METH_VARARGS,
     "solve((h0,h1,h2,h3), trump, side_mask, leader, trick, broken, first, trump_in_first_trick)"
     " -> (tricks, nodes)"},
    {"card_values", py_card_values, METH_VARARGS,
     "card_values(same arguments) -> ([(card, tricks), ...], nodes)"},
    {"best_cards", py_best_cards, METH_VARARGS,
     "best_cards(same arguments, played card or -1) -> (best tricks, [best cards], played card's tricks, nodes)"},
    {"clear", py_clear, METH_NOARGS, "Empty the transposition table."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_dds", "The native double-dummy search of floating bridge.", -1, methods,
};

PyMODINIT_FUNC PyInit__dds(void) {
    init_tables();
    return PyModule_Create(&module);
}
