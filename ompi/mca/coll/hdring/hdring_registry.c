/* Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* hdring algorithm registry: see hdring_registry.h. */
#include "hdring_registry.h"

#include <string.h>

#include "hdring_algorithms.h"
#include "hdring_cost.h"

#define HDRING_ORDER_KEEPS_ORDER true
#define HDRING_ORDER_ANY_ORDER false

#define HDRING_SEGMENT_WHOLE(STEM) NULL, false
#define HDRING_SEGMENT_SPLIT(STEM) NULL, true
#define HDRING_SEGMENT_PIPELINED(STEM) hdring_segment_##STEM, true
#define HDRING_ALG_ROW(ID, COLL, NAME, VALUE, ORDER, ROLE, STEM, INNER, SEGMENT, SUMMARY)                             \
    {HDRING_ALG_##ID, HDRING_COLL_##COLL, NAME, VALUE, HDRING_ORDER_##ORDER, HDRING_ROLE_##ROLE, HDRING_ALG_##INNER,  \
     HDRING_SEGMENT_##SEGMENT(STEM), SUMMARY, hdring_run_##STEM, hdring_scratch_##STEM, hdring_cost_##STEM},
static const hdring_algorithm_t table[HDRING_NALGS] = {HDRING_ALGORITHM_TABLE(HDRING_ALG_ROW)};
#undef HDRING_ALG_ROW
#undef HDRING_SEGMENT_WHOLE
#undef HDRING_SEGMENT_SPLIT
#undef HDRING_SEGMENT_PIPELINED

const hdring_algorithm_t *hdring_algorithm(hdring_alg_t id)
{
    return (unsigned) id < HDRING_NALGS ? &table[id] : NULL;
}

const char *hdring_alg_name(hdring_alg_t id) { return (unsigned) id < HDRING_NALGS ? table[id].name : "unknown"; }

const char *hdring_coll_name(hdring_coll_t coll)
{
    static const char *const names[HDRING_NCOLLS] = {"allreduce", "reduce_scatter", "allgather", "bcast"};
    return (unsigned) coll < HDRING_NCOLLS ? names[coll] : "unknown";
}

hdring_alg_t hdring_alg_by_name(hdring_coll_t coll, const char *name)
{
    for (int a = 0; a < HDRING_NALGS; ++a) {
        if (table[a].coll == coll && 0 == strcmp(table[a].name, name)) {
            return (hdring_alg_t) a;
        }
    }
    return HDRING_NALGS;
}

hdring_alg_t hdring_alg_by_value(hdring_coll_t coll, int mca_value)
{
    for (int a = 0; a < HDRING_NALGS; ++a) {
        if (table[a].coll == coll && table[a].mca_value == mca_value) {
            return (hdring_alg_t) a;
        }
    }
    return HDRING_NALGS;
}

int hdring_algorithms_of(hdring_coll_t coll, hdring_alg_t *algs)
{
    int n = 0;
    for (int a = 0; a < HDRING_NALGS; ++a) {
        if (table[a].coll == coll) {
            algs[n++] = (hdring_alg_t) a;
        }
    }
    return n;
}
