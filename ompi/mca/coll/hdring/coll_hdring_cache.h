/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring task cache: the tasks (mca_coll_hdring_task_t) a setup's calls built, by key, most recently used
 * first, and their references. The one cache of calls: every collective and kind looks here before it decides,
 * and communicators that share a setup share its tasks. Bounded in count and in the bytes of the schedules; the
 * least recently used go first. Thread-safe.
 */
#ifndef MCA_COLL_HDRING_CACHE_H
#define MCA_COLL_HDRING_CACHE_H

#include "coll_hdring.h"

BEGIN_C_DECLS

#define MCA_COLL_HDRING_CACHE_TASKS 128
#define MCA_COLL_HDRING_CACHE_BYTES (64u << 20)

/* Whether two keys are equal (a reduce_scatter's counts compared by value). */
bool mca_coll_hdring_key_equal(const mca_coll_hdring_key_t *a, const mca_coll_hdring_key_t *b);

/* s's task of that key, referenced; NULL if none. */
mca_coll_hdring_task_t *mca_coll_hdring_cache_find(mca_coll_hdring_setup_t *s, const mca_coll_hdring_key_t *key);
/* Puts task, just built and referenced by the caller, into s's cache, unless one of its key is there already:
 * returns the one the caller should use, referenced (task itself, or the cached one, task then released). */
mca_coll_hdring_task_t *mca_coll_hdring_cache_add(mca_coll_hdring_setup_t *s, mca_coll_hdring_task_t *task);
/* Every task of s's cache released (when s goes). */
void mca_coll_hdring_cache_free(mca_coll_hdring_setup_t *s);

static inline void mca_coll_hdring_task_retain(mca_coll_hdring_task_t *task)
{
    (void) OPAL_THREAD_ADD_FETCH32(&task->refs, 1);
}
/* Drops a reference: the last frees the task. */
void mca_coll_hdring_task_release(mca_coll_hdring_task_t *task);

END_C_DECLS

#endif
