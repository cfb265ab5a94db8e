/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring memory of a call: scratch buffers for its data (TMP, WORK) and memory for its tables and message
 * lists (hdring_take).
 *
 * A module keeps one scratch area and one table block between its blocking calls, grown on demand (scratch up to
 * coll_hdring_scratch_cache_bytes): allocating and first-touching megabytes per call costs page faults that
 * measurably slow large collectives, and once they have grown a call allocates nothing (hdring_allocs checks
 * it). A call prepared for requests keeps one scratch area the same way (coll_hdring_prepared.c); needs
 * beyond the limit have memory of their own.
 * Sizes use the datatype's true extent, and a buffer's base is shifted by its true lower bound, so element i of any
 * datatype lands inside the allocation.
 */
#ifndef MCA_COLL_HDRING_MEMORY_H
#define MCA_COLL_HDRING_MEMORY_H

#include "coll_hdring.h"

#include "hdring_algorithms.h"

BEGIN_C_DECLS

/* Memory for a call's tables and message lists, taken in order from a block; what does not fit is allocated for the
 * call (`spill`), and when the call ends the block grows to all it took. For runs that resolve their messages as
 * they come (a schedule too long to record, hdring's exchanges at communicator creation, a rank short of memory:
 * then the block is the process's reserve). */
typedef struct mca_coll_hdring_tables {
    char *mem;
    size_t bytes;
    size_t used; /* taken by the current call (may exceed bytes) */
    void *spill; /* allocations beyond the block, chained through their first word */
} mca_coll_hdring_tables_t;

/* Where a run's scratch lies in its memory: `total` bytes; TMP's and WORK's element 0 that far from its start. */
typedef struct mca_coll_hdring_scratch_layout {
    size_t total;
    ptrdiff_t tmp_at, work_at;
} mca_coll_hdring_scratch_layout_t;

/* The layout of `need` elements of dtype, worked out once for a prepared call. */
void mca_coll_hdring_scratch_layout(const struct ompi_datatype_t *dtype, hdring_scratch_t need,
                                    mca_coll_hdring_scratch_layout_t *layout);
/* The memory for a layout that *cache does not hold: see mca_coll_hdring_scratch_acquire. */
int mca_coll_hdring_scratch_take(mca_coll_hdring_scratch_t *cache, const mca_coll_hdring_scratch_layout_t *layout,
                                 char **mem, void **own);
/* TMP's and WORK's element 0 as laid out: in *cache when it is given and the layout fits its limit (grown if it
 * must), otherwise in memory of the call's own, *own (free it when the call ends). An Open MPI status:
 * OMPI_ERR_OUT_OF_RESOURCE when there is no memory for it. Inline: most calls need no scratch, or find it kept. */
static inline int mca_coll_hdring_scratch_acquire(mca_coll_hdring_scratch_t *cache,
                                                  const mca_coll_hdring_scratch_layout_t *layout, char **tmp,
                                                  char **work, void **own)
{
    char *mem;
    *own = NULL;
    if (0 == layout->total) {
        return OMPI_SUCCESS;
    }
    if (NULL != cache && layout->total <= cache->bytes) {
        mem = cache->mem;
    } else {
        const int rc = mca_coll_hdring_scratch_take(cache, layout, &mem, own);
        if (OMPI_SUCCESS != rc) {
            return rc;
        }
    }
    *tmp = mem + layout->tmp_at;
    *work = mem + layout->work_at;
    return OMPI_SUCCESS;
}
void mca_coll_hdring_scratch_free(mca_coll_hdring_scratch_t *cache);

/* `bytes` of memory aligned for any type from tb until tables_release: NULL if out of memory. The second form is
 * a run's take (coll_hdring_exec.h), tb its context. */
void *mca_coll_hdring_tables_take(mca_coll_hdring_tables_t *tb, size_t bytes);
void *mca_coll_hdring_tables_take_for(void *tb, size_t bytes);
/* The end of a call: what it took is returned (and the block grown to it, if it spilled). */
void mca_coll_hdring_tables_release(mca_coll_hdring_tables_t *tb);
void mca_coll_hdring_tables_free(mca_coll_hdring_tables_t *tb);

/* Tables for a call that found no memory to build its task: the process's reserve (64 KB kept for this, one call at
 * a time), so that the algorithm's own tables need none; false when another thread holds it. Give it back with
 * mca_coll_hdring_tables_unreserve. */
bool mca_coll_hdring_tables_reserve(mca_coll_hdring_tables_t *tb);
void mca_coll_hdring_tables_unreserve(mca_coll_hdring_tables_t *tb);

END_C_DECLS

#endif
