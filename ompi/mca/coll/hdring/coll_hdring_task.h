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

#include "coll_hdring_memory.h"
#include "coll_hdring_setup.h"

#include "hdring_schedule.h"

BEGIN_C_DECLS

/* What a call's task depends on, its buffers aside: calls of one setup with equal keys choose the same algorithm
 * and run the same schedule. The datatype enters by its size and extent only: a schedule names elements, and the
 * call brings its own datatype and op to the transport. */
typedef struct mca_coll_hdring_key {
    mca_coll_hdring_coll_t coll;
    unsigned flags;        /* MCA_COLL_HDRING_KEY_* */
    int root;              /* bcast */
    size_t count;          /* allreduce, bcast: elements; reduce_scatter: all blocks'; the others: per block */
    size_t size;           /* of the elements' datatype */
    ptrdiff_t extent;
    const int *rcounts;    /* reduce_scatter: each block's count */
    int nrcounts;          /* how many: p for reduce_scatter, 0 otherwise */
    uint64_t rcounts_hash;
    int pick;              /* HDRING_PICK_MODEL, or what measured selection or a decisions file picked */
} mca_coll_hdring_key_t;

enum {
    MCA_COLL_HDRING_KEY_ORDERED = 1,    /* the op is not commutative: operand order kept */
    MCA_COLL_HDRING_KEY_IN_PLACE = 2,   /* MPI_IN_PLACE */
    MCA_COLL_HDRING_KEY_CONTIGUOUS = 4, /* bcast: the message's bytes lie in one run */
};

/* A call's task: its decision and, unless it falls back, its schedule, recorded once. Shared by every call with
 * its key on its setup, of every kind, and immutable once built: referenced while a prepared call or the cache
 * holds it. */
typedef struct mca_coll_hdring_task {
    struct mca_coll_hdring_task *newer, *older; /* in the setup's cache */
    int refs;                                    /* atomic */
    mca_coll_hdring_key_t key;                   /* key.rcounts points into the task */
    size_t bytes;                                /* of the whole vector (the decision's size) */
    bool fallback;                               /* the call goes to the next component */
    hdring_alg_t alg;
    bool on_bytes;       /* bcast cut into pieces: runs on the message's bytes (MPI_BYTE), packed if not contiguous */
    bool locality_order; /* algorithm ranks are the setup's locality order */
    bool fills_in_flight; /* allgather: this rank's block may be copied in while the first exchange runs */
    hdring_scratch_t scratch; /* TMP and WORK, in elements of the run's datatype */
    hdring_args_t args;       /* for a run of the algorithm itself (a schedule too long to record, or its
                                 recording short of memory) */
    hdring_blocks_t blocks;
    hdring_partition_t parts;
    size_t *displ;
    bool recorded;            /* sched holds its schedule */
    hdring_schedule_t sched;
    char trace[448];          /* "alg=ring (forced by ...)": what the trace says of the decision */
} mca_coll_hdring_task_t;

/* Tasks a setup's cache keeps: the least recently used go first, beyond this many or these bytes of schedules. */
#define MCA_COLL_HDRING_CACHE_TASKS 128
#define MCA_COLL_HDRING_CACHE_BYTES (64u << 20)

/* The key of a call (buffers aside) served by `pick` (hdring_select.h). */
void mca_coll_hdring_key_of(const mca_coll_hdring_args_t *a, int p, int pick, mca_coll_hdring_key_t *key);
/* Whether two keys are equal (a reduce_scatter's counts compared by value). */
bool mca_coll_hdring_key_equal(const mca_coll_hdring_key_t *a, const mca_coll_hdring_key_t *b);

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

static inline void mca_coll_hdring_task_retain(mca_coll_hdring_task_t *task)
{
    (void) OPAL_THREAD_ADD_FETCH32(&task->refs, 1);
}
/* Drops a reference: the last frees the task. */
void mca_coll_hdring_task_release(mca_coll_hdring_task_t *task);
/* Every task of s's cache released (when s goes). */
void mca_coll_hdring_task_forget_all(mca_coll_hdring_setup_t *s);

END_C_DECLS

#endif
