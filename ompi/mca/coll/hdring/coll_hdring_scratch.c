/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring scratch: TMP and WORK buffers for one call, and its tables (hdring_take).
 *
 * A module keeps one scratch area between calls (its own 512 bytes at first, grown on demand up to
 * coll_hdring_scratch_cache_bytes): allocating and first-touching megabytes per call costs page faults that
 * measurably slow large collectives, and a malloc per new communicator slows communicator churn. Larger needs
 * are allocated for the call and freed after it. The cache only grows (a call kept for the repeat path,
 * coll_hdring_repeat.c, finds its scratch at the same offsets in whatever the cache holds later). Sizes use the
 * datatype's true extent, and the buffer base is shifted by its true lower bound, so element i of any datatype
 * lands inside the allocation.
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

static void free_cache(mca_coll_hdring_module_t *m)
{
    if (m->state->scratch.mem != m->state->scratch.first.bytes) {
        free(m->state->scratch.mem);
    }
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
    if (total <= m->state->scratch.bytes) {
        mem = m->state->scratch.mem;
    } else if (total <= m->state->config.scratch_cache_bytes) { /* the old one kept if there is no memory */
        mem = malloc(total);
        if (NULL == mem) {
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
        free_cache(m);
        m->state->scratch.mem = mem;
        m->state->scratch.bytes = total;
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

/* Every take is rounded up to this, so each is aligned for any type. */
#define TABLE_ALIGN 16

void *mca_coll_hdring_tables_take(mca_coll_hdring_pml_t *t, size_t bytes)
{
    mca_coll_hdring_tables_t *tb = t->tables;
    const size_t size = (bytes + TABLE_ALIGN - 1) / TABLE_ALIGN * TABLE_ALIGN;
    if (size < bytes || size > (size_t) -1 - TABLE_ALIGN || tb->used > (size_t) -1 - TABLE_ALIGN - size) {
        return NULL;
    }
    if (tb->used + size <= tb->bytes) {
        void *at = tb->mem + tb->used;
        tb->used += size;
        return at;
    }
    char *chunk = malloc(TABLE_ALIGN + size);
    if (NULL == chunk) {
        return NULL;
    }
    *(void **) chunk = tb->spill;
    tb->spill = chunk;
    tb->used += size;
    return chunk + TABLE_ALIGN;
}

static void tables_release(mca_coll_hdring_tables_t *tb)
{
    const bool spilled = NULL != tb->spill;
    while (NULL != tb->spill) {
        void *next = *(void **) tb->spill;
        free(tb->spill);
        tb->spill = next;
    }
    if (spilled) { /* room for all of it next time */
        free(tb->mem);
        tb->mem = malloc(tb->used);
        tb->bytes = NULL == tb->mem ? 0 : tb->used;
    }
    tb->used = 0;
}

void mca_coll_hdring_scratch_settle(mca_coll_hdring_pml_t *t)
{
    if (0 != t->inflight.used) {
        mca_coll_hdring_pml_withdraw(t);
    }
    if (NULL != t->own_scratch) {
        free(t->own_scratch);
        t->own_scratch = NULL;
    }
    if (0 != t->tables->used) {
        tables_release(t->tables);
    }
}

bool mca_coll_hdring_room(void **array, size_t *cap, size_t n, size_t item)
{
    if (n <= *cap) {
        return true;
    }
    void *grown = realloc(*array, n * item);
    if (NULL == grown) {
        return false;
    }
    *array = grown;
    *cap = n;
    return true;
}

void mca_coll_hdring_scratch_free(mca_coll_hdring_module_t *m)
{
    free_cache(m);
    m->state->scratch.mem = NULL;
    m->state->scratch.bytes = 0;
    free(m->state->tables.mem);
    m->state->tables.mem = NULL;
    m->state->tables.bytes = 0;
}
