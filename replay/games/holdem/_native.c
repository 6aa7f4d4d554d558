/* Texas hold'em hand values and showdown loops in C: the optional fast path of
 * replay/games/holdem/evaluator.py and equity.py (the pure-Python code there is the reference;
 * the tests check both give the same numbers, bit for bit).
 *
 * A card is rank * 4 + suit (ranks 2..A as 0..12, suits c d h s as 0..3). A hand's value is
 * category << 20 followed by five 4-bit nibbles of deciding ranks, most significant first
 * (evaluator.py's docstring). It is computed from four 13-bit masks of ranks, one per suit.
 *
 *   rank(cards) -> int                       5, 6 or 7 distinct card numbers
 *   showdowns(holes, board, rest, samples, seed) -> (list[float], int)
 *       holes: a list of (a, b) card numbers, -1 for an unknown card; board: the known board
 *       cards; rest: the cards unknown cards are drawn from, in order. samples == 0 enumerates
 *       every deal of the unknown cards (each seat's unknown hole cards an unordered group, in
 *       seat order, then the missing board cards, each group a combination of the unused rest
 *       cards in their order); samples > 0 draws that many deals by a partial Fisher-Yates
 *       shuffle of rest (slots in the same order) driven by Knuth's 64-bit linear congruential
 *       generator from seed (state = state * 6364136223846793005 + 1442695040888963407; the
 *       slot i takes index i + (state >> 33) % (len - i)). Each deal gives 1/k to each of its k best hands. Returns the
 *       sums of the shares per seat and the number of deals.
 *
 * Plain CPython C API, no other dependency.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define NMASK 8192

static int8_t STRAIGHT_TOP[NMASK];  /* top rank of the highest straight, -1 if none */
static int32_t TOP5[NMASK], TOP3[NMASK], TOP2[NMASK];

enum { HIGH_CARD, ONE_PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH };

static void build_tables(void)
{
    for (int mask = 0; mask < NMASK; mask++) {
        int ranks[13], n = 0;
        for (int r = 12; r >= 0; r--)
            if (mask >> r & 1)
                ranks[n++] = r;
        int32_t v5 = 0, v3 = 0, v2 = 0;
        for (int i = 0; i < 5; i++) v5 = v5 << 4 | (i < n ? ranks[i] : 0);
        for (int i = 0; i < 3; i++) v3 = v3 << 4 | (i < n ? ranks[i] : 0);
        for (int i = 0; i < 2; i++) v2 = v2 << 4 | (i < n ? ranks[i] : 0);
        TOP5[mask] = v5; TOP3[mask] = v3; TOP2[mask] = v2;
        STRAIGHT_TOP[mask] = -1;
        for (int top = 12; top >= 3; top--) {
            int need = top >= 4 ? (0x1F << (top - 4)) : (0xF | 1 << 12);
            if ((mask & need) == need) { STRAIGHT_TOP[mask] = (int8_t)top; break; }
        }
    }
}

static inline int high_of(uint32_t mask) { return 31 - __builtin_clz(mask); }

/* the value of the best five of the cards in the four suit masks (at most 7 cards) */
static inline int32_t value_of(uint32_t s0, uint32_t s1, uint32_t s2, uint32_t s3)
{
    uint32_t s[4] = {s0, s1, s2, s3};
    for (int i = 0; i < 4; i++) {
        if (__builtin_popcount(s[i]) >= 5) {
            int top = STRAIGHT_TOP[s[i]];
            if (top >= 0) return STRAIGHT_FLUSH << 20 | top << 16;
            return FLUSH << 20 | TOP5[s[i]];
        }
    }
    uint32_t m1 = s0 | s1 | s2 | s3;
    uint32_t a01 = s0 & s1, a23 = s2 & s3;
    uint32_t m2 = a01 | a23 | ((s0 | s1) & (s2 | s3));
    if (!m2) {
        int top = STRAIGHT_TOP[m1];
        if (top >= 0) return STRAIGHT << 20 | top << 16;
        return TOP5[m1];
    }
    uint32_t quads = a01 & a23;
    if (quads) {
        int q = high_of(quads);
        return QUADS << 20 | q << 16 | high_of(m1 ^ (1u << q)) << 12;
    }
    uint32_t m3 = (a01 & (s2 | s3)) | (a23 & (s0 | s1));
    if (m3) {
        int t = high_of(m3);
        uint32_t bit = 1u << t, rest = m2 ^ bit;
        if (rest) return FULL_HOUSE << 20 | t << 16 | high_of(rest) << 12;
        int top = STRAIGHT_TOP[m1];
        if (top >= 0) return STRAIGHT << 20 | top << 16;
        return TRIPS << 20 | t << 16 | TOP2[m1 ^ bit] << 8;
    }
    int top = STRAIGHT_TOP[m1];
    if (top >= 0) return STRAIGHT << 20 | top << 16;
    int p = high_of(m2);
    uint32_t bit = 1u << p, rest = m2 ^ bit;
    if (rest) {
        int q = high_of(rest);
        uint32_t bits = bit | 1u << q;
        return TWO_PAIR << 20 | p << 16 | q << 12 | high_of(m1 & ~bits) << 8;
    }
    return ONE_PAIR << 20 | p << 16 | TOP3[m1 ^ bit] << 4;
}

/* ---- rank(cards) ---- */

static PyObject *cards_error(PyObject *seq)
{
    PyObject *list = PySequence_List(seq);
    if (list == NULL) return NULL;
    PyErr_Format(PyExc_ValueError, "cards must be distinct numbers 0..51: %R", list);
    Py_DECREF(list);
    return NULL;
}

static PyObject *py_rank(PyObject *self, PyObject *cards)
{
    PyObject *fast = PySequence_Fast(cards, "cards must be a sequence of card numbers");
    if (fast == NULL) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n < 5 || n > 7) {
        Py_DECREF(fast);
        return PyErr_Format(PyExc_ValueError, "a hand is 5, 6 or 7 cards, not %zd", n);
    }
    uint32_t s[4] = {0, 0, 0, 0};
    int bad = 0;
    PyObject **items = PySequence_Fast_ITEMS(fast);
    for (Py_ssize_t i = 0; i < n; i++) {
        long c = PyLong_AsLong(items[i]);
        if (c == -1 && PyErr_Occurred()) { Py_DECREF(fast); return NULL; }
        if (c < 0 || c > 51) { bad = 1; break; }
        uint32_t bit = 1u << (c >> 2);
        if (s[c & 3] & bit) { bad = 1; break; }
        s[c & 3] |= bit;
    }
    if (bad) {
        PyObject *r = cards_error(fast);
        Py_DECREF(fast);
        return r;
    }
    Py_DECREF(fast);
    return PyLong_FromLong(value_of(s[0], s[1], s[2], s[3]));
}

/* ---- showdowns ---- */

#define MAXSEATS 23
#define MAXSLOTS (2 * MAXSEATS + 5)

typedef struct {
    int nseats;
    int hole[MAXSEATS][2];     /* -1 unknown, filled per deal */
    int board[5], nboard;      /* known board cards first, unknown slots after */
    int nslots;
    int *slot[MAXSLOTS];       /* where each unknown card goes, in slot order */
    int group_end[MAXSLOTS];   /* for slot i, one past the last slot of its group */
    int ngroups;
    int rest[52], nrest;
    double *totals;
    long long deals;
} Table;

static void showdown(Table *t)
{
    uint32_t b[4] = {0, 0, 0, 0};
    for (int i = 0; i < 5; i++) b[t->board[i] & 3] |= 1u << (t->board[i] >> 2);
    int32_t best = -1, values[MAXSEATS];
    int winners = 0;
    for (int p = 0; p < t->nseats; p++) {
        uint32_t s[4] = {b[0], b[1], b[2], b[3]};
        int c0 = t->hole[p][0], c1 = t->hole[p][1];
        s[c0 & 3] |= 1u << (c0 >> 2);
        s[c1 & 3] |= 1u << (c1 >> 2);
        int32_t v = value_of(s[0], s[1], s[2], s[3]);
        values[p] = v;
        if (v > best) { best = v; winners = 1; }
        else if (v == best) winners++;
    }
    double share = 1.0 / winners;
    for (int p = 0; p < t->nseats; p++)
        if (values[p] == best) t->totals[p] += share;
    t->deals++;
}

/* slot i of a group takes rest cards from index start on (unused ones), increasing */
static void enumerate_from(Table *t, int i, int start, uint64_t used)
{
    if (i == t->nslots) { showdown(t); return; }
    int group_start = (i == 0 || t->group_end[i - 1] == i);
    if (group_start) start = 0;
    int left_in_group = t->group_end[i] - i - 1;  /* slots after this one in the group */
    for (int k = start; k < t->nrest - left_in_group; k++) {
        int c = t->rest[k];
        if (used >> c & 1) continue;
        *t->slot[i] = c;
        enumerate_from(t, i + 1, k + 1, used | (uint64_t)1 << c);
    }
}

static inline uint64_t lcg_next(uint64_t *state)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return *state >> 33;
}

static int read_card(PyObject *o, int *out, int allow_unknown)
{
    long c = PyLong_AsLong(o);
    if (c == -1 && PyErr_Occurred()) return -1;
    if ((c < 0 && !(allow_unknown && c == -1)) || c > 51) {
        PyErr_Format(PyExc_ValueError, "not a card number: %ld", c);
        return -1;
    }
    *out = (int)c;
    return 0;
}

static PyObject *py_showdowns(PyObject *self, PyObject *args)
{
    PyObject *holes, *board, *rest;
    long long samples;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "OOOLK", &holes, &board, &rest, &samples, &seed)) return NULL;
    Table t;
    memset(&t, 0, sizeof t);
    PyObject *fh = PySequence_Fast(holes, "holes must be a sequence");
    if (fh == NULL) return NULL;
    t.nseats = (int)PySequence_Fast_GET_SIZE(fh);
    if (t.nseats < 1 || t.nseats > MAXSEATS) {
        Py_DECREF(fh);
        return PyErr_Format(PyExc_ValueError, "1..%d seats, not %d", MAXSEATS, t.nseats);
    }
    uint64_t seen = 0;
    int group_sizes[MAXSLOTS], ngroups = 0;
    for (int p = 0; p < t.nseats; p++) {
        PyObject *pair = PySequence_Fast(PySequence_Fast_GET_ITEM(fh, p), "a hole must be a sequence");
        if (pair == NULL) { Py_DECREF(fh); return NULL; }
        if (PySequence_Fast_GET_SIZE(pair) != 2) {
            Py_DECREF(pair); Py_DECREF(fh);
            return PyErr_Format(PyExc_ValueError, "a hole is two cards");
        }
        int unknown = 0;
        for (int j = 0; j < 2; j++) {
            if (read_card(PySequence_Fast_GET_ITEM(pair, j), &t.hole[p][j], 1) < 0) {
                Py_DECREF(pair); Py_DECREF(fh); return NULL;
            }
            if (t.hole[p][j] < 0) t.slot[t.nslots++] = &t.hole[p][j], unknown++;
            else seen |= (uint64_t)1 << t.hole[p][j];
        }
        if (unknown) group_sizes[ngroups++] = unknown;
        Py_DECREF(pair);
    }
    Py_DECREF(fh);
    PyObject *fb = PySequence_Fast(board, "board must be a sequence");
    if (fb == NULL) return NULL;
    t.nboard = (int)PySequence_Fast_GET_SIZE(fb);
    if (t.nboard > 5) { Py_DECREF(fb); return PyErr_Format(PyExc_ValueError, "a board is at most 5 cards"); }
    for (int i = 0; i < t.nboard; i++) {
        if (read_card(PySequence_Fast_GET_ITEM(fb, i), &t.board[i], 0) < 0) { Py_DECREF(fb); return NULL; }
        seen |= (uint64_t)1 << t.board[i];
    }
    Py_DECREF(fb);
    if (t.nboard < 5) {
        for (int i = t.nboard; i < 5; i++) t.slot[t.nslots++] = &t.board[i];
        group_sizes[ngroups++] = 5 - t.nboard;
    }
    for (int g = 0, i = 0; g < ngroups; g++) {
        for (int k = 0; k < group_sizes[g]; k++, i++) t.group_end[i] = i - k + group_sizes[g];
    }
    PyObject *fr = PySequence_Fast(rest, "rest must be a sequence");
    if (fr == NULL) return NULL;
    t.nrest = (int)PySequence_Fast_GET_SIZE(fr);
    if (t.nrest > 52) { Py_DECREF(fr); return PyErr_Format(PyExc_ValueError, "rest is at most 52 cards"); }
    uint64_t in_rest = 0;
    for (int i = 0; i < t.nrest; i++) {
        if (read_card(PySequence_Fast_GET_ITEM(fr, i), &t.rest[i], 0) < 0) { Py_DECREF(fr); return NULL; }
        uint64_t bit = (uint64_t)1 << t.rest[i];
        if ((seen | in_rest) & bit) {
            Py_DECREF(fr);
            return PyErr_Format(PyExc_ValueError, "card %d is twice among the holes, the board and rest", t.rest[i]);
        }
        in_rest |= bit;
    }
    Py_DECREF(fr);
    if (t.nslots > t.nrest) return PyErr_Format(PyExc_ValueError, "%d unknown cards to draw from %d", t.nslots, t.nrest);
    double totals[MAXSEATS] = {0};
    t.totals = totals;
    if (samples < 0) return PyErr_Format(PyExc_ValueError, "samples must be >= 0");

    Py_BEGIN_ALLOW_THREADS
    if (samples == 0) {
        enumerate_from(&t, 0, 0, 0);
    } else {
        uint64_t state = seed;
        for (long long s = 0; s < samples; s++) {
            for (int i = 0; i < t.nslots; i++) {
                int span = t.nrest - i;
                int j = i + (int)(lcg_next(&state) % (uint64_t)span);
                int c = t.rest[j];
                t.rest[j] = t.rest[i];
                t.rest[i] = c;
                *t.slot[i] = c;
            }
            showdown(&t);
        }
    }
    Py_END_ALLOW_THREADS

    PyObject *list = PyList_New(t.nseats);
    if (list == NULL) return NULL;
    for (int p = 0; p < t.nseats; p++) {
        PyObject *f = PyFloat_FromDouble(totals[p]);
        if (f == NULL) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, p, f);
    }
    return Py_BuildValue("(NL)", list, t.deals);
}

static PyMethodDef methods[] = {
    {"rank", py_rank, METH_O, "rank(cards) -> int: the value of the best five of 5..7 cards."},
    {"showdowns", py_showdowns, METH_VARARGS,
     "showdowns(holes, board, rest, samples, seed) -> (share sums per seat, deals)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_native", "Texas hold'em hand values and showdown loops in C.", -1, methods,
};

PyMODINIT_FUNC PyInit__native(void)
{
    build_tables();
    return PyModule_Create(&module);
}
