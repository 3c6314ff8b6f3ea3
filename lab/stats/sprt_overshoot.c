// SPDX-License-Identifier: MIT
// fishtest's dynamic overshoot correction (sprt.h, SprtOvershoot), from update_SPRT's rules.
#include "sprt.h"
#include "sprt_overshoot.h"

#include <string.h>

void sprt_overshoot_init(SprtOvershoot *o) {
    memset(o, 0, sizeof *o);
    o->active = true;
}

void sprt_overshoot_update(SprtOvershoot *o, int64_t samples, int64_t batch, double llr) {
    if (!o->active)
        return;
    if (batch <= 0 || samples % batch != 0 || samples < o->last_update) {
        o->active = false; /* lost or irregular data: the ladders no longer mean anything */
        return;
    }
    if (samples == o->last_update)
        return;
    if (samples == o->last_update + batch) {
        if (llr < o->ref0) {
            double drop = llr - o->ref0;
            o->m0 += drop;
            o->sq0 += drop * drop;
            o->ref0 = llr;
        }
        if (llr > o->ref1) {
            double rise = llr - o->ref1;
            o->m1 += rise;
            o->sq1 += rise * rise;
            o->ref1 = llr;
        }
    } else {
        o->ref0 = o->ref1 = llr;
        o->skipped_updates += samples - o->last_update - 1; /* fishtest's count, kept as is */
    }
    o->last_update = samples;
}

void sprt_overshoot_margins(const SprtOvershoot *o, double *o0, double *o1) {
    *o0 = o->active && o->m0 != 0 ? -o->sq0 / o->m0 / 2 : 0;
    *o1 = o->active && o->m1 != 0 ? o->sq1 / o->m1 / 2 : 0;
}

SprtDecision sprt_decide_batch(const SprtSample *sample, int64_t pairs, int64_t batch,
                               const SprtParams *params, SprtOvershoot *o) {
    double llr = sprt_llr(sample, params);
    if (!params->overshoot)
        return sprt_decide(llr, params);
    sprt_overshoot_update(o, pairs, batch, llr);
    return sprt_decide_corrected(llr, params, o);
}

SprtDecision sprt_decide_pair(const SprtSample *sample, int64_t pairs, const SprtParams *params,
                              SprtOvershoot *o) {
    return sprt_decide_batch(sample, pairs, 1, params, o);
}

SprtDecision sprt_decide_corrected(double llr, const SprtParams *params, const SprtOvershoot *o) {
    double o0, o1;
    sprt_overshoot_margins(o, &o0, &o1);
    if (llr < sprt_lower_bound(params) + o0)
        return SPRT_H0;
    if (llr > sprt_upper_bound(params) - o1)
        return SPRT_H1;
    return SPRT_CONTINUE;
}
