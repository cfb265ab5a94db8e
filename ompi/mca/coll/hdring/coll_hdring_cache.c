/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring task cache (coll_hdring_cache.h): a list per setup, most recently used first, with the lock.
 */
#include "coll_hdring_cache.h"

#include <stdlib.h>
#include <string.h>

#include "coll_hdring_util.h"

bool mca_coll_hdring_key_equal(const mca_coll_hdring_key_t *a, const mca_coll_hdring_key_t *b)
{
    if (a->coll != b->coll || a->flags != b->flags || a->root != b->root || a->count != b->count ||
        a->size != b->size || a->extent != b->extent || a->rcounts_hash != b->rcounts_hash ||
        a->nrcounts != b->nrcounts) {
        return false;
    }
    return 0 == a->nrcounts || a->rcounts == b->rcounts ||
           0 == memcmp(a->rcounts, b->rcounts, (size_t) a->nrcounts * sizeof(int));
}

static size_t task_bytes(const mca_coll_hdring_task_t *task)
{
    return sizeof(*task) + hdring_schedule_bytes(&task->sched);
}

void mca_coll_hdring_task_release(mca_coll_hdring_task_t *task)
{
    if (0 == OPAL_THREAD_ADD_FETCH32(&task->refs, -1)) {
        hdring_schedule_free(&task->sched);
        free(task->displ);
        free((void *) task->key.rcounts);
        free(task);
    }
}

static void unlink_task(mca_coll_hdring_setup_t *s, mca_coll_hdring_task_t *t)
{
    *(NULL != t->newer ? &t->newer->older : &s->newest) = t->older;
    *(NULL != t->older ? &t->older->newer : &s->oldest) = t->newer;
    t->newer = t->older = NULL;
}

static void link_newest(mca_coll_hdring_setup_t *s, mca_coll_hdring_task_t *t)
{
    t->newer = NULL;
    t->older = s->newest;
    *(NULL != s->newest ? &s->newest->newer : &s->oldest) = t;
    s->newest = t;
}

mca_coll_hdring_task_t *mca_coll_hdring_cache_find(mca_coll_hdring_setup_t *s, const mca_coll_hdring_key_t *key)
{
    mca_coll_hdring_task_t *found = NULL;
    OPAL_THREAD_LOCK(&mca_coll_hdring_lock);
    for (mca_coll_hdring_task_t *t = s->newest; NULL != t; t = t->older) {
        if (mca_coll_hdring_key_equal(&t->key, key)) {
            found = t;
            unlink_task(s, t);
            link_newest(s, t);
            mca_coll_hdring_task_retain(t);
            break;
        }
    }
    OPAL_THREAD_UNLOCK(&mca_coll_hdring_lock);
    return found;
}

mca_coll_hdring_task_t *mca_coll_hdring_cache_add(mca_coll_hdring_setup_t *s, mca_coll_hdring_task_t *task)
{
    mca_coll_hdring_task_t *cached = mca_coll_hdring_cache_find(s, &task->key);
    if (NULL != cached) { /* another thread built it meanwhile */
        mca_coll_hdring_task_release(task);
        return cached;
    }
    OPAL_THREAD_LOCK(&mca_coll_hdring_lock);
    mca_coll_hdring_task_retain(task); /* the cache's reference */
    link_newest(s, task);
    s->ntasks += 1;
    s->task_bytes += task_bytes(task);
    while (s->oldest != s->newest &&
           (s->ntasks > MCA_COLL_HDRING_CACHE_TASKS || s->task_bytes > MCA_COLL_HDRING_CACHE_BYTES)) {
        mca_coll_hdring_task_t *old = s->oldest;
        unlink_task(s, old);
        s->ntasks -= 1;
        s->task_bytes -= task_bytes(old);
        mca_coll_hdring_task_release(old);
    }
    OPAL_THREAD_UNLOCK(&mca_coll_hdring_lock);
    return task;
}

void mca_coll_hdring_cache_free(mca_coll_hdring_setup_t *s)
{
    while (NULL != s->newest) {
        mca_coll_hdring_task_t *t = s->newest;
        unlink_task(s, t);
        mca_coll_hdring_task_release(t);
    }
    s->ntasks = 0;
    s->task_bytes = 0;
}
