// SPDX-License-Identifier: MIT
#include "stats.h"

#define FIELD(name) offsetof(SearchStats, name)

const StatSpec STATS_FIELDS[] = {
    {"nodes", FIELD(nodes), "positions entered, root and leaves included"},
    {"leaves", FIELD(leaves), "positions evaluated at depth 0"},
    {"terminals", FIELD(terminals), "positions where the game is over"},
    {"repetitions", FIELD(repetitions), "positions scored as draws by repetition"},
    {"cache_probes", FIELD(cache_probes), "cache lookups"},
    {"cache_hits", FIELD(cache_hits), "lookups that found an entry"},
    {"cache_cutoffs", FIELD(cache_cutoffs), "hits that ended the node"},
    {"cache_stores", FIELD(cache_stores), "entries written"},
    {"cache_overwrites", FIELD(cache_overwrites), "entries of other positions overwritten"},
    {"cutoffs", FIELD(cutoffs), "beta cutoffs"},
    {"first_move_cutoffs", FIELD(first_move_cutoffs), "cutoffs on the first move tried"},
    {"movegens", FIELD(movegens), "move lists generated"},
    {"pvs_researches", FIELD(pvs_researches), "null-window searches redone (pvs)"},
    {"aspiration_researches", FIELD(aspiration_researches), "root passes redone (aspiration)"},
    {"lmr_reductions", FIELD(lmr_reductions), "moves searched reduced (lmr)"},
    {"lmr_researches", FIELD(lmr_researches), "reduced moves redone at full depth (lmr)"},
    {"qsearch_nodes", FIELD(qsearch_nodes), "positions of the quiescence search (qsearch)"},
    {"nullmove_tries", FIELD(nullmove_tries), "null-move searches (nullmove)"},
    {"nullmove_cutoffs", FIELD(nullmove_cutoffs), "null-move searches that cut (nullmove)"},
    {"futility_prunes", FIELD(futility_prunes), "quiet moves skipped at depth 1 (futility)"},
    {"tablebase_hits", FIELD(tablebase_hits), "nodes given the tablebase's exact value (egdb)"},
    {"extensions", FIELD(extensions), "moves searched one ply deeper (jump_extension)"},
    {"depth", FIELD(depth), "deepest finished iteration"},
};

const size_t STATS_FIELD_COUNT = sizeof STATS_FIELDS / sizeof STATS_FIELDS[0];

void stats_add(SearchStats *total, const SearchStats *add) {
    for (size_t i = 0; i < STATS_FIELD_COUNT; i++) {
        uint64_t *sum = (uint64_t *)((char *)total + STATS_FIELDS[i].offset);
        uint64_t value = stats_get(add, &STATS_FIELDS[i]);
        if (STATS_FIELDS[i].offset == FIELD(depth))
            *sum = value > *sum ? value : *sum;
        else
            *sum += value;
    }
}

double stats_hit_rate(const SearchStats *stats) {
    return stats->cache_probes ? (double)stats->cache_hits / (double)stats->cache_probes : 0.0;
}

double stats_first_cutoff_rate(const SearchStats *stats) {
    return stats->cutoffs ? (double)stats->first_move_cutoffs / (double)stats->cutoffs : 0.0;
}
