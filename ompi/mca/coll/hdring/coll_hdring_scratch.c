/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring scratch: TMP and WORK buffers for one call.
 *
 * A module keeps one scratch area between calls (grown on demand, up to coll_hdring_scratch_cache_bytes):
 * allocating and first-touching megabytes per call costs page faults that measurably slow large collectives.
 * Larger needs are allocated for the call and freed after it. Sizes use the datatype's true extent, and the
 * buffer base is shifted by its true lower bound, so element i of any datatype lands inside the allocation.
 */
#include "ompi_config.h"

#include <stdlib.h>

#include "ompi/datatype/ompi_datatype.h"

#include "coll_hdring.h"

#define SCRATCH_ALIGN 64

static size_t span_of(const struct ompi_datatype_t *dtype, size_t count, ptrdiff_t *gap)
{
    size_t span = (size_t) opal_datatype_span(&dtype->super, count, gap);
    return (span + SCRATCH_ALIGN - 1) / SCRATCH_ALIGN * SCRATCH_ALIGN;
}

int mca_coll_hdring_scratch_acquire(mca_coll_hdring_module_t *m, mca_coll_hdring_pml_t *t, hdring_scratch_t need)
{
    ptrdiff_t tmp_gap, work_gap;
    const size_t tmp_bytes = span_of(t->dtype, need.tmp, &tmp_gap);
    const size_t work_bytes = span_of(t->dtype, need.work, &work_gap);
    const size_t total = tmp_bytes + work_bytes;
    char *mem;

    if (0 == total) {
        return OMPI_SUCCESS;
    }
    if (total <= m->config.scratch_cache_bytes) {
        if (m->scratch.bytes < total) {
            free(m->scratch.mem);
            m->scratch.mem = malloc(total);
            m->scratch.bytes = NULL == m->scratch.mem ? 0 : total;
        }
        mem = m->scratch.mem;
    } else {
        mem = t->own_scratch = malloc(total);
    }
    if (NULL == mem) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    t->base[HDRING_BUF_TMP] = mem - tmp_gap;
    t->base[HDRING_BUF_WORK] = mem + tmp_bytes - work_gap;
    return OMPI_SUCCESS;
}

void mca_coll_hdring_scratch_release(mca_coll_hdring_pml_t *t)
{
    free(t->own_scratch);
    t->own_scratch = NULL;
}

void mca_coll_hdring_scratch_free(mca_coll_hdring_module_t *m)
{
    free(m->scratch.mem);
    m->scratch.mem = NULL;
    m->scratch.bytes = 0;
}
