/* The move generator's search loop, compiled: every legal play of a rack on a position, with its score.

   The same algorithm as engine/movegen/generator.py (Appel and Jacobson's anchors over the lexicon's packed DAWG:
   cross-check sets, left parts of rack tiles, extension to the right through the anchor), run over the index's two
   flat buffers as they are on disk. A node reference packs its first edge (ref >> 7), its edge count (ref >> 1 & 63)
   and whether a word ends there (ref & 1); a node's edges are sorted by letter code.

   It scores each play as engine/scoring.py does without premiums_for_all (the Python module never calls it then):
   the main word with the premiums under the new tiles, each cross word likewise, the bingo bonus for a full rack.
   engine/movegen/fast.py builds the engine's Play only for the plays a caller looks at; the tests compare every
   play and score with the pure-Python generator and with engine.scoring.

   generate(labels, targets, root, board, blank_tiles, values, letter_mult, word_mult, letter_values, counts,
            blanks, rack_size, bingo, keep)
     board: 225 bytes, the letter code of the tile on each square (0 empty, 255 a letter the lexicon lacks);
     blank_tiles: 225 bytes, 1 where the board's tile is a blank; values: 225 bytes, the face value of each board
     tile (0 for blanks); letter_mult, word_mult: 225 bytes, the premium layout; letter_values: a byte per letter
     code, its face value from the rack; counts: a byte per letter code, the rack's tiles; keep: 0 for every play,
     n > 0 for the n best.
   primary (64 unsigned 16-bit ranks, native order), secondary (64 bytes), digraph, first, second: each letter code's
   alphabetical ranks as engine.tiles.TileSet.sort_key gives them, and the Czech "ch" (digraph: its primary rank,
   first and second: the codes of C and H; -1 where the language has none).
   Returns the plays best first in engine.movegen.move.rank_key's order (only the keep best with keep > 0), each
   (score, direction, line, start, end, placed, word): direction 0 across, 1 down; line the row
   (across) or column (down); start..end the main word's squares along the line; placed a bytes of (position,
   code, blank) triples in reading order; word a bytes of the main word's letter codes, 0x80 added for a blank. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SIZE 15
#define CELLS (SIZE * SIZE)
#define CENTRE (7 * SIZE + 7)
#define FOREIGN 255
#define MAX_CODES 64
#define MAX_TILES SIZE

typedef struct {
    int score;
    uint8_t direction, line, start, end, count;
    uint8_t pos[MAX_TILES], code[MAX_TILES], blank[MAX_TILES];
    /* the rank key's alphabetical part: the main word's primary letters and their accents (see rank()) */
    uint8_t n_primary;
    uint16_t primary[SIZE];
    uint8_t secondary[SIZE];
} Found;

typedef struct {
    uint16_t primary[MAX_CODES];
    uint8_t secondary[MAX_CODES];
    int digraph, first, second; /* Czech "ch": its primary rank, and the codes of C and H (-1: no digraph) */
} Collation;

typedef struct {
    const uint8_t *labels;
    Py_ssize_t n_labels;
    const uint32_t *targets;
    uint32_t root;
    const uint8_t *board, *board_blank, *values, *lm, *wm, *letter_value;
    int counts[MAX_CODES];
    int blanks, rack_size, bingo;
    uint64_t rack_letters; /* bit c: the rack has a tile c at the start (enough for a mask's first test) */
    /* the line being searched */
    int direction, line, anchor;
    int cells[SIZE];
    uint8_t codes[SIZE];
    uint64_t masks[SIZE];
    int cross[SIZE]; /* the perpendicular tiles' face values, -1 where there are none */
    uint8_t is_anchor[SIZE];
    /* the play being built */
    int placed;
    uint8_t pos[MAX_TILES], code[MAX_TILES], blank[MAX_TILES];
    /* what was found */
    Found *found;
    Py_ssize_t n_found, cap_found;
    int failed;
} Search;

static inline uint32_t child_of(const Search *s, uint32_t node, int code) {
    Py_ssize_t first = node >> 7, end = first + (node >> 1 & 63);
    if (end > s->n_labels) return 0;
    for (Py_ssize_t i = first; i < end; i++) {
        int label = s->labels[i];
        if (label == code) return s->targets[i];
        if (label > code) return 0;
    }
    return 0;
}

static void record(Search *s, int start, int end) {
    if (s->direction == 1 && s->placed == 1 && s->cross[s->pos[0]] >= 0)
        return; /* a one-tile play with an across neighbour: the across pass has it, as its main word */
    int base = 0, mult = 1, total = 0, k = 0;
    for (int p = start; p <= end; p++) {
        int cell = s->cells[p];
        if (k < s->placed && s->pos[k] == p) {
            int v = s->blank[k] ? 0 : s->letter_value[s->code[k]];
            int lv = v * s->lm[cell], w = s->wm[cell];
            base += lv;
            mult *= w;
            if (s->cross[p] >= 0) total += (s->cross[p] + lv) * w;
            k++;
        } else {
            base += s->values[cell];
        }
    }
    total += base * mult;
    if (s->placed == s->rack_size) total += s->bingo;
    if (s->n_found == s->cap_found) {
        Py_ssize_t cap = s->cap_found ? s->cap_found * 2 : 1024;
        Found *more = realloc(s->found, (size_t)cap * sizeof(Found));
        if (!more) {
            s->failed = 1;
            return;
        }
        s->found = more;
        s->cap_found = cap;
    }
    Found *f = &s->found[s->n_found++];
    f->score = total;
    f->direction = (uint8_t)s->direction;
    f->line = (uint8_t)s->line;
    f->start = (uint8_t)start;
    f->end = (uint8_t)end;
    f->count = (uint8_t)s->placed;
    memcpy(f->pos, s->pos, (size_t)s->placed);
    memcpy(f->code, s->code, (size_t)s->placed);
    memcpy(f->blank, s->blank, (size_t)s->placed);
}

typedef void (*Step)(Search *s, uint32_t node, int pos, int start);
static void extend(Search *s, uint32_t node, int pos, int start);
static void left_part(Search *s, uint32_t node, int pos, int start);

/* Each edge first..end-1 whose letter ``mask`` allows, with a rack tile of that letter and then with a blank, put
   on square ``pos``; ``next`` goes on from the edge's node to the next square. */
static void place_each(Search *s, Py_ssize_t first, Py_ssize_t end, uint64_t mask, int pos, int start, Step next) {
    int k = s->placed;
    s->pos[k] = (uint8_t)pos;
    s->placed = k + 1;
    for (Py_ssize_t i = first; i < end && !s->failed; i++) {
        int code = s->labels[i];
        if (!(mask >> code & 1)) continue;
        if (!s->counts[code] && !s->blanks) continue;
        uint32_t node = s->targets[i];
        s->code[k] = (uint8_t)code;
        if (s->counts[code]) {
            s->counts[code]--;
            s->blank[k] = 0;
            next(s, node, pos + 1, start);
            s->counts[code]++;
        }
        if (s->blanks) {
            s->blanks--;
            s->blank[k] = 1;
            next(s, node, pos + 1, start);
            s->blanks++;
        }
    }
    s->placed = k;
}

static void extend(Search *s, uint32_t node, int pos, int start) {
    while (pos < SIZE && s->codes[pos]) { /* tiles on the board: follow them */
        node = child_of(s, node, s->codes[pos]);
        if (!node) return;
        pos++;
    }
    if ((node & 1) && pos > s->anchor && s->placed && pos - start >= 2) record(s, start, pos - 1);
    if (pos == SIZE || s->failed) return;
    uint64_t mask = s->masks[pos];
    if (!s->blanks) mask &= s->rack_letters;
    if (!mask) return;
    Py_ssize_t first = node >> 7, end = first + (node >> 1 & 63);
    if (end > s->n_labels) return;
    place_each(s, first, end, mask, pos, start, extend);
}

/* A left part of rack tiles on the empty, anchorless squares start..anchor-1 (their cross-checks allow every
   letter), then the extension through the anchor. */
static void left_part(Search *s, uint32_t node, int pos, int start) {
    if (pos == s->anchor) {
        extend(s, node, pos, start);
        return;
    }
    Py_ssize_t first = node >> 7, end = first + (node >> 1 & 63);
    if (end > s->n_labels) return;
    place_each(s, first, end, ~(uint64_t)0, pos, start, left_part);
}

static int tiles_on_rack(const Search *s) {
    int n = s->blanks;
    for (int c = 0; c < MAX_CODES; c++) n += s->counts[c];
    return n;
}

/* The cross-check set and the perpendicular face values of empty board square i; step is the perpendicular
   direction's step (SIZE for plays across, 1 for plays down). */
static void cross_check(const Search *s, int i, int step, uint64_t full, uint64_t *mask, int *cross) {
    /* without a blank only the rack's letters can go down: the others' bits are left 0 */
    uint64_t wanted = s->blanks ? full : s->rack_letters;
    int before[SIZE], after[SIZE], nb = 0, na = 0, value = 0;
    int j = i;
    for (;;) { /* the tiles before i, nearest first */
        if (step == SIZE ? j - SIZE < 0 : j % SIZE == 0) break;
        j -= step;
        if (!s->board[j]) break;
        before[nb++] = j;
    }
    j = i;
    for (;;) {
        if (step == SIZE ? j + SIZE >= CELLS : j % SIZE == SIZE - 1) break;
        j += step;
        if (!s->board[j]) break;
        after[na++] = j;
    }
    if (!nb && !na) {
        *mask = wanted;
        *cross = -1;
        return;
    }
    for (int k = 0; k < nb; k++) value += s->values[before[k]];
    for (int k = 0; k < na; k++) value += s->values[after[k]];
    *cross = value;
    *mask = 0;
    uint32_t node = s->root;
    for (int k = nb - 1; k >= 0 && node; k--) node = child_of(s, node, s->board[before[k]]);
    if (!node) return;
    Py_ssize_t first = node >> 7, end = first + (node >> 1 & 63);
    if (end > s->n_labels) return;
    for (Py_ssize_t e = first; e < end; e++) {
        if (!(wanted >> s->labels[e] & 1)) continue;
        uint32_t n = s->targets[e];
        for (int k = 0; k < na && n; k++) n = child_of(s, n, s->board[after[k]]);
        if (n & 1) *mask |= (uint64_t)1 << s->labels[e];
    }
}

static void search_line(Search *s, int empty_board, uint64_t full) {
    int step = s->direction == 0 ? SIZE : 1;
    for (int p = 0; p < SIZE; p++) {
        int cell = s->direction == 0 ? s->line * SIZE + p : p * SIZE + s->line;
        s->cells[p] = cell;
        s->codes[p] = s->board[cell];
        s->is_anchor[p] = 0;
        s->cross[p] = -1;
        s->masks[p] = 0;
    }
    for (int p = 0; p < SIZE; p++) {
        if (s->codes[p]) continue;
        int cell = s->cells[p];
        cross_check(s, cell, step, full, &s->masks[p], &s->cross[p]);
        if (empty_board)
            s->is_anchor[p] = cell == CENTRE;
        else
            s->is_anchor[p] = s->cross[p] >= 0 || (p > 0 && s->codes[p - 1]) || (p < SIZE - 1 && s->codes[p + 1]);
    }
    int size = tiles_on_rack(s);
    for (int a = 0; a < SIZE && !s->failed; a++) {
        if (!s->is_anchor[a] || !s->masks[a]) continue;
        s->anchor = a;
        s->placed = 0;
        int start = a;
        while (start > 0 && s->codes[start - 1]) start--;
        if (start < a) { /* the left part is the tiles on the board before the anchor */
            extend(s, s->root, start, start);
            continue;
        }
        int limit = 0;
        for (int p = a - 1; p >= 0 && !s->codes[p] && !s->is_anchor[p]; p--) limit++;
        if (limit > size - 1) limit = size - 1;
        for (int k = 0; k <= limit && !s->failed; k++) left_part(s, s->root, a - k, a - k);
    }
}

/* The main word's alphabetical key, as engine.tiles.TileSet.sort_key gives it: a primary rank per letter (the
   Czech "ch" one letter) and an accent rank per letter, compared level by level. */
static void word_key(Found *f, const Search *s, const Collation *c) {
    uint8_t codes[SIZE];
    int n = 0, k = 0;
    for (int p = f->start; p <= f->end; p++) {
        int cell = f->direction == 0 ? f->line * SIZE + p : p * SIZE + f->line;
        if (k < f->count && f->pos[k] == p)
            codes[n++] = f->code[k++];
        else
            codes[n++] = s->board[cell];
    }
    int m = 0;
    for (int i = 0; i < n; i++) {
        int code = codes[i] < MAX_CODES ? codes[i] : 0;
        if (c->digraph >= 0 && code == c->first && i + 1 < n && codes[i + 1] == c->second) {
            f->primary[m] = (uint16_t)c->digraph;
            f->secondary[m++] = 0;
            i++;
            continue;
        }
        f->primary[m] = c->primary[code];
        f->secondary[m++] = c->secondary[code];
    }
    f->n_primary = (uint8_t)m;
}

static int compare_found(const void *pa, const void *pb) {
    const Found *a = *(Found *const *)pa, *b = *(Found *const *)pb;
    if (a->score != b->score) return a->score > b->score ? -1 : 1;
    int n = a->n_primary < b->n_primary ? a->n_primary : b->n_primary;
    for (int i = 0; i < n; i++)
        if (a->primary[i] != b->primary[i]) return a->primary[i] < b->primary[i] ? -1 : 1;
    if (a->n_primary != b->n_primary) return a->n_primary < b->n_primary ? -1 : 1;
    for (int i = 0; i < n; i++)
        if (a->secondary[i] != b->secondary[i]) return a->secondary[i] < b->secondary[i] ? -1 : 1;
    int ar = a->direction == 0 ? a->line : a->start, ac = a->direction == 0 ? a->start : a->line;
    int br = b->direction == 0 ? b->line : b->start, bc = b->direction == 0 ? b->start : b->line;
    if (ar != br) return ar < br ? -1 : 1;
    if (ac != bc) return ac < bc ? -1 : 1;
    if (a->direction != b->direction) return a->direction < b->direction ? -1 : 1;
    /* the same word on the same squares: by the squares of the blanks, in board order */
    int i = 0, j = 0;
    for (;;) {
        while (i < a->count && !a->blank[i]) i++;
        while (j < b->count && !b->blank[j]) j++;
        if (i == a->count || j == b->count) return (i < a->count) - (j < b->count);
        int ai = a->direction == 0 ? a->line * SIZE + a->pos[i] : a->pos[i] * SIZE + a->line;
        int bi = b->direction == 0 ? b->line * SIZE + b->pos[j] : b->pos[j] * SIZE + b->line;
        if (ai != bi) return ai < bi ? -1 : 1;
        i++;
        j++;
    }
}

static int compare_scores(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x < y) - (x > y); /* highest first */
}

static int byte_buffer(PyObject *obj, Py_buffer *view, Py_ssize_t need, const char *name) {
    if (PyObject_GetBuffer(obj, view, PyBUF_SIMPLE) < 0) return -1;
    if (need >= 0 && view->len < need) {
        PyErr_Format(PyExc_ValueError, "%s: %zd bytes, %zd needed", name, view->len, need);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static PyObject *generate(PyObject *self, PyObject *args) {
    PyObject *labels_o, *targets_o, *board_o, *board_blank_o, *values_o, *lm_o, *wm_o, *letter_value_o, *counts_o;
    PyObject *primary_o, *secondary_o;
    unsigned long root;
    int blanks, rack_size, bingo;
    Collation collation;
    Py_ssize_t keep;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOkOOOOOOOiiinOOiii", &labels_o, &targets_o, &root, &board_o, &board_blank_o,
                          &values_o, &lm_o, &wm_o, &letter_value_o, &counts_o, &blanks, &rack_size, &bingo, &keep,
                          &primary_o, &secondary_o, &collation.digraph, &collation.first, &collation.second))
        return NULL;
    Py_buffer views[11];
    PyObject *objects[11] = {labels_o, targets_o, board_o, board_blank_o, values_o, lm_o, wm_o, letter_value_o,
                             counts_o, primary_o, secondary_o};
    const Py_ssize_t need[11] = {0, 0, CELLS, CELLS, CELLS, CELLS, CELLS, MAX_CODES, MAX_CODES, 2 * MAX_CODES,
                                 MAX_CODES};
    const char *names[11] = {"labels", "targets", "board", "blank_tiles", "values", "letter_mult", "word_mult",
                             "letter_values", "counts", "primary", "secondary"};
    Found **order = NULL;
    int got = 0;
    for (; got < 11; got++)
        if (byte_buffer(objects[got], &views[got], need[got], names[got]) < 0) break;
    PyObject *out = NULL;
    Search s;
    memset(&s, 0, sizeof s);
    if (got < 11) goto done;
    memcpy(collation.primary, views[9].buf, sizeof collation.primary);
    memcpy(collation.secondary, views[10].buf, sizeof collation.secondary);
    if (views[1].len / 4 < views[0].len) {
        PyErr_SetString(PyExc_ValueError, "targets: fewer than the labels");
        goto done;
    }
    s.labels = views[0].buf;
    s.n_labels = views[0].len;
    s.targets = views[1].buf;
    s.root = (uint32_t)root;
    s.board = views[2].buf;
    s.board_blank = views[3].buf;
    s.values = views[4].buf;
    s.lm = views[5].buf;
    s.wm = views[6].buf;
    s.letter_value = views[7].buf;
    const uint8_t *counts = views[8].buf;
    uint64_t full = 0;
    for (int c = 1; c < MAX_CODES; c++) {
        s.counts[c] = counts[c];
        if (counts[c]) s.rack_letters |= (uint64_t)1 << c;
    }
    for (Py_ssize_t i = 0; i < s.n_labels; i++)
        if (s.labels[i] < MAX_CODES) full |= (uint64_t)1 << s.labels[i];
    s.blanks = blanks;
    s.rack_size = rack_size;
    s.bingo = bingo;
    int empty_board = 1;
    for (int i = 0; i < CELLS; i++)
        if (s.board[i]) empty_board = 0;
    Py_BEGIN_ALLOW_THREADS
    for (int direction = 0; direction < 2 && !s.failed; direction++) {
        s.direction = direction;
        for (int line = 0; line < SIZE && !s.failed; line++) {
            s.line = line;
            search_line(&s, empty_board, full);
        }
    }
    Py_END_ALLOW_THREADS
    if (s.failed) {
        PyErr_NoMemory();
        goto done;
    }
    int floor = INT32_MIN;
    if (keep > 0 && s.n_found > keep) { /* the n-th best score: plays below it are not among the n best */
        int *scores = malloc((size_t)s.n_found * sizeof(int));
        if (!scores) {
            PyErr_NoMemory();
            goto done;
        }
        for (Py_ssize_t i = 0; i < s.n_found; i++) scores[i] = s.found[i].score;
        qsort(scores, (size_t)s.n_found, sizeof(int), compare_scores);
        floor = scores[keep - 1];
        free(scores);
    }
    order = malloc((size_t)(s.n_found ? s.n_found : 1) * sizeof(Found *));
    if (!order) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t n_order = 0;
    for (Py_ssize_t i = 0; i < s.n_found; i++)
        if (s.found[i].score >= floor) {
            word_key(&s.found[i], &s, &collation);
            order[n_order++] = &s.found[i];
        }
    qsort(order, (size_t)n_order, sizeof(Found *), compare_found);
    if (keep > 0 && n_order > keep) n_order = keep;
    out = PyList_New(0);
    if (!out) goto done;
    for (Py_ssize_t i = 0; i < n_order; i++) {
        Found *f = order[i];
        uint8_t placed[3 * MAX_TILES], word[SIZE];
        for (int k = 0; k < f->count; k++) {
            placed[3 * k] = f->pos[k];
            placed[3 * k + 1] = f->code[k];
            placed[3 * k + 2] = f->blank[k];
        }
        int k = 0;
        for (int p = f->start; p <= f->end; p++) {
            int cell = f->direction == 0 ? f->line * SIZE + p : p * SIZE + f->line;
            if (k < f->count && f->pos[k] == p) {
                word[p - f->start] = (uint8_t)(f->code[k] | (f->blank[k] ? 0x80 : 0));
                k++;
            } else {
                word[p - f->start] = (uint8_t)(s.board[cell] | (s.board_blank[cell] ? 0x80 : 0));
            }
        }
        PyObject *item = Py_BuildValue("(iiiiiy#y#)", f->score, f->direction, f->line, f->start, f->end, placed,
                                       (Py_ssize_t)(3 * f->count), word, (Py_ssize_t)(f->end - f->start + 1));
        if (!item || PyList_Append(out, item) < 0) {
            Py_XDECREF(item);
            Py_CLEAR(out);
            goto done;
        }
        Py_DECREF(item);
    }
done:
    free(order);
    free(s.found);
    for (int k = 0; k < got; k++) PyBuffer_Release(&views[k]);
    return out;
}

static PyMethodDef methods[] = {
    {"generate", generate, METH_VARARGS, "Every legal play of a rack on a board, scored (see the module's C source)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_fastgen", "The move generator's compiled search loop.",
                                    -1, methods};

PyMODINIT_FUNC PyInit__fastgen(void) { return PyModule_Create(&module); }
