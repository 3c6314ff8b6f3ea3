// SPDX-License-Identifier: MIT
#include "tb_index.h"

#include <stdlib.h>
#include <string.h>

/* Empty points: 1 + in hand + captured (the 21 free points less the sheep on the board). */
#define MAX_EMPTY TB_FREE_POINTS

/* A class of tiger sets: its smallest mask and what numbers the positions under it. */
typedef struct {
    uint32_t tigers;
    uint8_t stabiliser; /* bit g set: symmetry g maps the set onto itself */
    uint8_t free_points[TB_FREE_POINTS];
    /* Only for a nontrivial stabiliser, per number of empty points: the dense number of each
     * combinatorial rank (-1 when the empty set is not the smallest of its images) and back. */
    int32_t *dense_of_rank[MAX_EMPTY + 1];
    int32_t *rank_of_dense[MAX_EMPTY + 1];
    int64_t count[MAX_EMPTY + 1]; /* positions under this set with that many empty points */
} TigerClass;

struct TbIndex {
    int in_hand;                /* the sheep in hand of every position it numbers */
    int levels;                 /* levels captured 0..levels - 1 hold positions */
    int empty_low, empty_high; /* the empty points its levels have */
    int64_t binomial[BOARD_POINTS + 1][MAX_EMPTY + 1];
    int16_t class_of_set[TB_TIGER_SETS];      /* by the tiger set's combinatorial rank */
    uint8_t to_representative[TB_TIGER_SETS]; /* symmetries taking the set to its class's mask */
    TigerClass *classes;
    int class_count;
    int64_t *class_start[TB_LEVELS]; /* class_count + 1 offsets within a block, per level */
    int64_t block_start[TB_LEVELS][2];
};

/* Combinatorial rank of a set of k points (k = popcount), among sets of points below 32. */
static int64_t set_rank(const TbIndex *index, uint32_t set) {
    int64_t rank = 0;
    for (int i = 1; set; i++, set &= set - 1)
        rank += index->binomial[lsb32(set)][i];
    return rank;
}

/* The k-point set of combinatorial rank `rank` (colex order), as points 0..n-1. */
static uint32_t set_unrank(const TbIndex *index, int64_t rank, int k) {
    uint32_t set = 0;
    for (int i = k; i >= 1; i--) {
        int point = i - 1;
        while (point + 1 <= BOARD_POINTS && index->binomial[point + 1][i] <= rank)
            point++;
        rank -= index->binomial[point][i];
        set |= 1u << point;
    }
    return set;
}

/* The empty points as a set of the class's free points (bit j: the j-th free point). */
static uint32_t compress(uint32_t tigers, uint32_t empty) {
    uint32_t out = 0;
    for (; empty; empty &= empty - 1) {
        int point = lsb32(empty);
        out |= 1u << (point - popcount32(tigers & ((1u << point) - 1)));
    }
    return out;
}

static uint32_t expand(const TigerClass *c, uint32_t compressed) {
    uint32_t out = 0;
    for (; compressed; compressed &= compressed - 1)
        out |= 1u << c->free_points[lsb32(compressed)];
    return out;
}

/* The next larger mask with the same number of bits (Gosper's hack, its division by the lowest
 * bit written as a shift: the division was a third of the index's build time). */
static uint32_t next_same_popcount(uint32_t mask) {
    uint32_t ripple = mask + (mask & -mask);
    return ripple | (((ripple ^ mask) >> 2) >> lsb32(mask));
}

#define CHUNK_POINTS 7 /* the 21 free points read 7 at a time: three tables of 128 */
#define CHUNKS 3
_Static_assert(TB_FREE_POINTS == 3 * CHUNK_POINTS, "three chunks cover the free points");

/* A symmetry of a tiger set maps its free points onto its free points. As a permutation of the
 * compressed sets: chunk[k][bits] is the image of the points 7k..7k+6 that bits holds. */
typedef struct {
    uint32_t chunk[CHUNKS][1 << CHUNK_POINTS];
} FreePointImage;

static void free_point_image(const TigerClass *c, Symmetry g, FreePointImage *out) {
    uint32_t image_of[TB_FREE_POINTS];
    for (int j = 0; j < TB_FREE_POINTS; j++) {
        int q = sym_point(g, c->free_points[j]);
        image_of[j] = 1u << (q - popcount32(c->tigers & ((1u << q) - 1)));
    }
    for (int k = 0; k < CHUNKS; k++)
        for (uint32_t bits = 0; bits < 1u << CHUNK_POINTS; bits++) {
            uint32_t image = 0;
            for (int b = 0; b < CHUNK_POINTS; b++)
                if (bits >> b & 1)
                    image |= image_of[k * CHUNK_POINTS + b];
            out->chunk[k][bits] = image;
        }
}

static uint32_t image_of_set(const FreePointImage *g, uint32_t compressed) {
    uint32_t mask = (1u << CHUNK_POINTS) - 1;
    return g->chunk[0][compressed & mask] | g->chunk[1][compressed >> CHUNK_POINTS & mask] |
           g->chunk[2][compressed >> 2 * CHUNK_POINTS];
}

/* Numbers the empty sets that are the smallest of their images under the class's stabiliser.
 * Compressing keeps the order of sets (the free points keep theirs), so the test runs on the
 * compressed sets through the symmetries' tables, and stops at the first smaller image: the
 * index builds in about 20 ms instead of 70 (perf record of `bench tbprobe -info`). */
static bool number_stabilised_sets(const TbIndex *index, TigerClass *c) {
    FreePointImage images[SYMMETRIES];
    int image_count = 0;
    for (Symmetry g = 1; g < SYMMETRIES; g++) /* 0 is the identity */
        if (c->stabiliser >> g & 1)
            free_point_image(c, g, &images[image_count++]);
    for (int e = index->empty_low; e <= index->empty_high; e++) {
        int64_t sets = index->binomial[TB_FREE_POINTS][e];
        c->dense_of_rank[e] = malloc((size_t)sets * sizeof(int32_t));
        c->rank_of_dense[e] = malloc((size_t)sets * sizeof(int32_t));
        if (!c->dense_of_rank[e] || !c->rank_of_dense[e])
            return false;
        int32_t dense = 0;
        /* Colex rank order is the numeric order of the masks: the next mask with e bits is the
         * next rank, so no set is unranked. */
        uint32_t compressed = (1u << e) - 1;
        for (int64_t rank = 0; rank < sets; rank++, compressed = next_same_popcount(compressed)) {
            bool smallest = true;
            for (int i = 0; i < image_count && smallest; i++)
                smallest = image_of_set(&images[i], compressed) >= compressed;
            c->dense_of_rank[e][rank] = smallest ? dense : -1;
            if (smallest)
                c->rank_of_dense[e][dense++] = (int32_t)rank;
        }
        c->count[e] = dense;
    }
    return true;
}

static bool build_classes(TbIndex *index) {
    index->classes = calloc(TB_TIGER_SETS, sizeof *index->classes);
    if (!index->classes)
        return false;
    memset(index->class_of_set, -1, sizeof index->class_of_set);
    /* Sets in increasing mask order, so classes come out ordered by their smallest mask. */
    for (uint32_t tigers = 0xf; tigers <= BOARD_ALL;) {
        int64_t rank = set_rank(index, tigers);
        if (index->class_of_set[rank] < 0) {
            TigerClass *c = &index->classes[index->class_count];
            c->tigers = tigers;
            for (int p = 0, j = 0; p < BOARD_POINTS; p++)
                if (!(tigers >> p & 1))
                    c->free_points[j++] = (uint8_t)p;
            for (Symmetry g = 0; g < SYMMETRIES; g++) {
                uint32_t image = sym_mask(g, tigers);
                int64_t image_rank = set_rank(index, image);
                if (image == tigers)
                    c->stabiliser |= (uint8_t)(1u << g);
                index->class_of_set[image_rank] = (int16_t)index->class_count;
                /* g maps tigers to image, so g's inverse takes image to the representative. */
                index->to_representative[image_rank] |= (uint8_t)(1u << sym_inverse(g));
            }
            if (c->stabiliser != 1) {
                if (!number_stabilised_sets(index, c))
                    return false;
            } else {
                for (int e = index->empty_low; e <= index->empty_high; e++)
                    c->count[e] = index->binomial[TB_FREE_POINTS][e];
            }
            index->class_count++;
        }
        tigers = next_same_popcount(tigers);
    }
    return true;
}

/* The empty points of level `captured` (1 + in hand + captured), or 0 when the level has more
 * sheep captured than were ever placed (no position). */
static int level_empty(const TbIndex *index, int captured) {
    int e = 1 + index->in_hand + captured;
    return e <= MAX_EMPTY && captured < index->levels ? e : 0;
}

TbIndex *tb_index_new(void) { return tb_index_new_in_hand(0, TB_LEVELS); }

TbIndex *tb_index_new_in_hand(int in_hand, int levels) {
    if (in_hand < 0 || in_hand > SHEEP_TOTAL || levels < 1 || levels > TB_LEVELS)
        return NULL;
    TbIndex *index = calloc(1, sizeof *index);
    if (!index)
        return NULL;
    index->in_hand = in_hand;
    index->levels = levels;
    index->empty_low = 1 + in_hand < MAX_EMPTY ? 1 + in_hand : MAX_EMPTY;
    index->empty_high = in_hand + levels < MAX_EMPTY ? in_hand + levels : MAX_EMPTY;
    for (int n = 0; n <= BOARD_POINTS; n++) {
        index->binomial[n][0] = 1;
        for (int k = 1; k <= MAX_EMPTY; k++)
            index->binomial[n][k] =
                n == 0 ? 0 : index->binomial[n - 1][k - 1] + index->binomial[n - 1][k];
    }
    if (!build_classes(index)) {
        tb_index_free(index);
        return NULL;
    }
    int64_t start = 0;
    for (int captured = 0; captured < TB_LEVELS; captured++) {
        int64_t *offsets = malloc(((size_t)index->class_count + 1) * sizeof *offsets);
        if (!offsets) {
            tb_index_free(index);
            return NULL;
        }
        index->class_start[captured] = offsets;
        offsets[0] = 0;
        int e = level_empty(index, captured);
        for (int i = 0; i < index->class_count; i++)
            offsets[i + 1] = offsets[i] + (e ? index->classes[i].count[e] : 0);
        for (int side = 0; side < 2; side++) {
            index->block_start[captured][side] = start;
            start += offsets[index->class_count];
        }
    }
    return index;
}

void tb_index_free(TbIndex *index) {
    if (!index)
        return;
    for (int i = 0; index->classes && i < TB_TIGER_SETS; i++)
        for (int e = 0; e <= MAX_EMPTY; e++) {
            free(index->classes[i].dense_of_rank[e]);
            free(index->classes[i].rank_of_dense[e]);
        }
    for (int captured = 0; captured < TB_LEVELS; captured++)
        free(index->class_start[captured]);
    free(index->classes);
    free(index);
}

int64_t tb_index_of(const TbIndex *index, const Board *b, Symmetry *sym) {
    int captured = b->captured;
    if (b->in_hand != index->in_hand || captured >= TB_LEVELS)
        return -1;
    int64_t set = set_rank(index, b->tigers);
    const TigerClass *c = &index->classes[index->class_of_set[set]];
    uint32_t empty = board_empty(b), best = UINT32_MAX;
    uint8_t syms = index->to_representative[set];
    Symmetry best_sym = 0;
    for (Symmetry g = 0; g < SYMMETRIES; g++)
        if (syms >> g & 1) {
            uint32_t image = sym_mask(g, empty);
            if (image < best) {
                best = image;
                best_sym = g;
            }
        }
    int64_t rank = set_rank(index, compress(c->tigers, best));
    int64_t within = c->stabiliser == 1 ? rank : c->dense_of_rank[level_empty(index, captured)][rank];
    if (sym)
        *sym = best_sym;
    return index->block_start[captured][b->side] +
           index->class_start[captured][c - index->classes] + within;
}

Board tb_index_board(const TbIndex *index, int64_t class_index) {
    int captured = TB_LEVELS - 1, side = SIDE_TIGERS;
    while (class_index < index->block_start[captured][side]) {
        if (side == SIDE_TIGERS)
            side = SIDE_SHEEP;
        else
            side = SIDE_TIGERS, captured--;
    }
    int64_t within = class_index - index->block_start[captured][side];
    const int64_t *offsets = index->class_start[captured];
    int lo = 0, hi = index->class_count - 1; /* the last class starting at or before within */
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (offsets[mid] <= within)
            lo = mid;
        else
            hi = mid - 1;
    }
    const TigerClass *c = &index->classes[lo];
    int e = level_empty(index, captured);
    int64_t rank = within - offsets[lo];
    if (c->stabiliser != 1)
        rank = c->rank_of_dense[e][rank];
    uint32_t empty = expand(c, set_unrank(index, rank, e));
    Board b = {.tigers = c->tigers,
               .sheep = BOARD_ALL & ~(c->tigers | empty),
               .in_hand = (uint8_t)index->in_hand,
               .captured = (uint8_t)captured,
               .side = (uint8_t)side};
    return b;
}

int tb_index_in_hand(const TbIndex *index) { return index->in_hand; }

int64_t tb_index_classes(const TbIndex *index) {
    return index->block_start[TB_LEVELS - 1][SIDE_TIGERS] +
           tb_index_block_size(index, TB_LEVELS - 1, SIDE_TIGERS);
}

int64_t tb_index_block_start(const TbIndex *index, int captured, Side side) {
    return index->block_start[captured][side];
}

int64_t tb_index_block_size(const TbIndex *index, int captured, Side side) {
    (void)side; /* both sides to move have the same positions */
    return index->class_start[captured][index->class_count];
}
