/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring tasks: what a call of a given key does on a given setup, worked out once. A task holds the decision
 * (an algorithm, or the fallback) and the algorithm's schedule for this rank, recorded (hdring_schedule.h), with
 * the scratch it needs; every later call with the key, of any kind, on any communicator of the setup, runs the
 * schedule without deciding or recording again (coll_hdring_cache.h keeps them).
 */
#ifndef MCA_COLL_HDRING_TASK_H
#define MCA_COLL_HDRING_TASK_H

#include "coll_hdring.h"

BEGIN_C_DECLS

/* The key of a call (buffers aside). */
void mca_coll_hdring_key_of(const mca_coll_hdring_args_t *a, int p, mca_coll_hdring_key_t *key);

/* The task for key on setup s, referenced (mca_coll_hdring_task_release): the cached one, or built and cached
 * (*built says which). NULL only without memory for it. */
mca_coll_hdring_task_t *mca_coll_hdring_task_get(mca_coll_hdring_setup_t *s, const mca_coll_hdring_key_t *key,
                                                 bool *built);
/* Whether a call of key on s falls back (the decision alone: it takes no memory). */
bool mca_coll_hdring_task_falls_back(mca_coll_hdring_setup_t *s, const mca_coll_hdring_key_t *key);

/* The task for key built into *task without allocating, for a rank that had no memory to build it the usual
 * way: not recorded (its calls run the algorithm itself), not cached, its block boundaries (reduce_scatter) in
 * displ, room for ndispl, its sizing's tables taken from `tables` (the process's reserve). false when that is
 * not room enough. */
bool mca_coll_hdring_task_fill(mca_coll_hdring_setup_t *s, const mca_coll_hdring_key_t *key,
                               mca_coll_hdring_task_t *task, size_t *displ, int ndispl,
                               mca_coll_hdring_tables_t *tables);

END_C_DECLS

#endif
