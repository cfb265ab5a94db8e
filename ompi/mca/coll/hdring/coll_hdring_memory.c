/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring memory of a call (coll_hdring_memory.h).
 */
#include "coll_hdring_memory.h"

#include <stddef.h>
#include <stdlib.h>

#include "opal/sys/atomic.h"

#include "ompi/datatype/ompi_datatype.h"

#define SCRATCH_ALIGN 64
#define TABLE_ALIGN 16 /* every take is rounded up to this, so each is aligned for any type */

static size_t span_of(const struct ompi_datatype_t *dtype, size_t count, ptrdiff_t *gap)
{
    size_t span = (size_t) opal_datatype_span(&dtype->super, count, gap);
    return (span + SCRATCH_ALIGN - 1) / SCRATCH_ALIGN * SCRATCH_ALIGN;
}

void mca_coll_hdring_scratch_layout(const struct ompi_datatype_t *dtype, hdring_scratch_t need,
                                    mca_coll_hdring_scratch_layout_t *layout)
{
    ptrdiff_t tmp_gap, work_gap;
    const size_t tmp_bytes = span_of(dtype, need.tmp, &tmp_gap);
    const size_t work_bytes = span_of(dtype, need.work, &work_gap);
    layout->total = tmp_bytes + work_bytes;
    layout->tmp_at = -tmp_gap;
    layout->work_at = (ptrdiff_t) tmp_bytes - work_gap;
}

int mca_coll_hdring_scratch_take(mca_coll_hdring_scratch_t *cache, const mca_coll_hdring_scratch_layout_t *layout,
                                 char **mem, void **own)
{
    const size_t total = layout->total;
    if (NULL != cache && total <= cache->limit) { /* the old one kept if there is no memory */
        if (NULL == (*mem = malloc(total))) {
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
        free(cache->mem);
        cache->mem = *mem;
        cache->bytes = total;
    } else if (NULL == (*mem = *own = malloc(total))) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    return OMPI_SUCCESS;
}

void mca_coll_hdring_scratch_free(mca_coll_hdring_scratch_t *cache)
{
    free(cache->mem);
    cache->mem = NULL;
    cache->bytes = 0;
}

void *mca_coll_hdring_tables_take(mca_coll_hdring_tables_t *tb, size_t bytes)
{
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

void *mca_coll_hdring_tables_take_for(void *tb, size_t bytes)
{
    return mca_coll_hdring_tables_take(tb, bytes);
}

void mca_coll_hdring_tables_release(mca_coll_hdring_tables_t *tb)
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

static union {
    max_align_t align;
    char bytes[64 << 10];
} reserve;
static volatile int32_t reserve_taken;

bool mca_coll_hdring_tables_reserve(mca_coll_hdring_tables_t *tb)
{
    int32_t free_ = 0;
    if (!OPAL_ATOMIC_COMPARE_EXCHANGE_STRONG_32(&reserve_taken, &free_, 1)) {
        return false;
    }
    *tb = (mca_coll_hdring_tables_t) {.mem = reserve.bytes, .bytes = sizeof(reserve.bytes)};
    return true;
}

void mca_coll_hdring_tables_unreserve(mca_coll_hdring_tables_t *tb)
{
    while (NULL != tb->spill) {
        void *next = *(void **) tb->spill;
        free(tb->spill);
        tb->spill = next;
    }
    *tb = (mca_coll_hdring_tables_t) {0};
    opal_atomic_wmb();
    reserve_taken = 0;
}

void mca_coll_hdring_tables_free(mca_coll_hdring_tables_t *tb)
{
    mca_coll_hdring_tables_release(tb);
    free(tb->mem);
    tb->mem = NULL;
    tb->bytes = 0;
}
