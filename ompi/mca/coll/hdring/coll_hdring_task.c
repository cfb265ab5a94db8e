/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring tasks (coll_hdring_task.h): the key of a call, a task built from it, and the setup's cache of them:
 * the one cache of decisions and schedules. Every collective and kind looks here before it decides, and
 * communicators that share a setup share its tasks. Bounded in count and in the bytes of the schedules; the least
 * recently used go first. Thread-safe.
 *
 * Building: the decision (coll_hdring_decision.c) for the call's size; the algorithm's arguments (its blocks, where
 * the ranks sit, its segment); its scratch; and its schedule, recorded on a transport that only takes memory. A
 * schedule too long to keep (HDRING_SCHEDULE_MAX_STEPS), or one this rank has no memory to record, is not kept:
 * calls of the task then run the algorithm itself, which sends the same messages.
 */
#include "coll_hdring_task.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ompi/datatype/ompi_datatype.h"
#include "ompi/op/op.h"

#include "coll_hdring_decision.h"
#include "coll_hdring_memory.h"
#include "coll_hdring_util.h"

void mca_coll_hdring_key_of(const mca_coll_hdring_args_t *a, int p, int pick, mca_coll_hdring_key_t *key)
{
    size_t size;
    ptrdiff_t extent;
    ompi_datatype_type_size(a->dtype, &size);
    ompi_datatype_type_extent(a->dtype, &extent);
    key->coll = a->coll;
    key->flags = (NULL != a->op && !ompi_op_is_commute(a->op) ? MCA_COLL_HDRING_KEY_ORDERED : 0) |
                 (MPI_IN_PLACE == a->sbuf ? MCA_COLL_HDRING_KEY_IN_PLACE : 0);
    key->root = a->root;
    key->count = a->count;
    key->size = size;
    key->extent = extent;
    key->rcounts = NULL;
    key->nrcounts = 0;
    key->rcounts_hash = 0;
    key->pick = pick;
    switch (a->coll) {
    case MCA_COLL_HDRING_REDUCE_SCATTER:
        key->count = 0;
        for (int b = 0; b < p; ++b) {
            key->count += (size_t) a->rcounts[b];
        }
        key->rcounts = a->rcounts;
        key->nrcounts = p;
        key->rcounts_hash = mca_coll_hdring_hash(MCA_COLL_HDRING_HASH_SEED, a->rcounts, (size_t) p * sizeof(int));
        break;
    case MCA_COLL_HDRING_BCAST:
        key->flags = ompi_datatype_is_contiguous_memory_layout(a->dtype, (int) a->count) ? MCA_COLL_HDRING_KEY_CONTIGUOUS
                                                                                         : 0;
        break;
    default:
        break;
    }
}

/* ---- the cache: a list per setup, most recently used first, with the lock ---- */

bool mca_coll_hdring_key_equal(const mca_coll_hdring_key_t *a, const mca_coll_hdring_key_t *b)
{
    if (a->coll != b->coll || a->flags != b->flags || a->root != b->root || a->count != b->count ||
        a->size != b->size || a->extent != b->extent || a->rcounts_hash != b->rcounts_hash ||
        a->nrcounts != b->nrcounts || a->pick != b->pick) {
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
    MCA_COLL_HDRING_LRU_UNLINK(s, t);
}

static void link_newest(mca_coll_hdring_setup_t *s, mca_coll_hdring_task_t *t)
{
    MCA_COLL_HDRING_LRU_PUSH_NEWEST(s, t);
}

static mca_coll_hdring_task_t *cache_find(mca_coll_hdring_setup_t *s, const mca_coll_hdring_key_t *key)
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

static mca_coll_hdring_task_t *cache_add(mca_coll_hdring_setup_t *s, mca_coll_hdring_task_t *task)
{
    mca_coll_hdring_task_t *cached = cache_find(s, &task->key);
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

void mca_coll_hdring_task_forget_all(mca_coll_hdring_setup_t *s)
{
    while (NULL != s->newest) {
        mca_coll_hdring_task_t *t = s->newest;
        unlink_task(s, t);
        mca_coll_hdring_task_release(t);
    }
    s->ntasks = 0;
    s->task_bytes = 0;
}

/* ---- a transport that only takes memory: scratch sizing and recording ---- */

static void *build_take(const hdring_xport_t *x, size_t bytes)
{
    return mca_coll_hdring_tables_take(x->ctx, bytes);
}

static const hdring_transport_ops_t build_ops = {.take = build_take};

/* ---- building ---- */

/* Whether the first step may run while this rank's allgather block is still being copied in: an exchange none of
 * whose messages touches the block but for sends of exactly it (which read the send buffer instead). */
static bool fills_in_flight(const mca_coll_hdring_task_t *task, size_t own_off, size_t own_count)
{
    const hdring_schedule_t *s = &task->sched;
    if (!task->recorded || 0 == s->nsteps || HDRING_STEP_EXCHANGE != s->steps[0].kind) {
        return false;
    }
    const hdring_step_t *st = &s->steps[0];
    for (int k = 0; k < st->nsends + st->nrecvs; ++k) {
        const hdring_msg_t *m = &s->msgs[st->first + (size_t) k];
        const bool whole = k < st->nsends && m->at.off == own_off && m->count == own_count;
        const bool overlaps = HDRING_BUF_OUT == m->at.buf && m->at.off < own_off + own_count &&
                              own_off < m->at.off + m->count;
        if (overlaps && !whole) {
            return false;
        }
    }
    return true;
}

/* The algorithm's arguments, scratch and (with `record`) schedule: false only without memory for them. The block
 * boundaries of a reduce_scatter go into task->displ, allocated unless given; the algorithm's tables, while it is
 * sized and recorded, into `tables`. */
static bool plan_run(mca_coll_hdring_setup_t *s, mca_coll_hdring_task_t *task,
                     const mca_coll_hdring_choice_t *choice, bool record, mca_coll_hdring_tables_t *tables)
{
    const mca_coll_hdring_key_t *key = &task->key;
    const int p = s->p;
    const bool ordered = 0 != (key->flags & MCA_COLL_HDRING_KEY_ORDERED);
    const hdring_partition_t *parts = NULL;
    size_t elem_size = 1;

    switch (key->coll) {
    case MCA_COLL_HDRING_REDUCE_SCATTER:
        if (NULL == task->displ && NULL == (task->displ = malloc(((size_t) p + 1) * sizeof(*task->displ)))) {
            return false;
        }
        task->displ[0] = 0;
        for (int b = 0; b < p; ++b) {
            task->displ[b + 1] = task->displ[b] + (size_t) key->rcounts[b];
        }
        task->parts = hdring_partition_of_displs(p, task->displ);
        parts = &task->parts;
        elem_size = key->size;
        break;
    case MCA_COLL_HDRING_REDUCE_SCATTER_BLOCK:
        task->parts = hdring_partition_uniform(p, key->count);
        parts = &task->parts;
        elem_size = key->size;
        break;
    case MCA_COLL_HDRING_ALLGATHER:
        task->parts = hdring_partition_uniform(p, key->count);
        parts = &task->parts;
        break;
    case MCA_COLL_HDRING_ALLREDUCE:
        elem_size = key->size;
        break;
    case MCA_COLL_HDRING_BCAST:
        task->on_bytes = hdring_choice_cuts(&choice->c);
        break;
    default:
        break;
    }
    task->args.count = task->on_bytes ? task->bytes : key->count;
    task->args.root = key->root;
    hdring_choice_args(&choice->c, &s->topo, ordered, parts, elem_size, &task->blocks, &task->args);
    if (NULL != parts) {
        task->blocks.parts = &task->parts;
        task->args.blocks = &task->blocks;
    }
    task->locality_order = hdring_in_locality_order(&s->topo, ordered);

    const hdring_xport_t x = {&build_ops, tables, task->locality_order ? s->topo.vrank_of[s->rank] : s->rank, p,
                              NULL, 0};
    task->scratch = hdring_scratch(&x, task->alg, &task->args);
    task->recorded = record && HDRING_OK == hdring_schedule_record(&task->sched, &x, task->alg, &task->args);
    mca_coll_hdring_tables_release(tables);
    if (!task->recorded) {
        hdring_schedule_free(&task->sched);
    }
    if (MCA_COLL_HDRING_ALLGATHER == key->coll && !(key->flags & MCA_COLL_HDRING_KEY_IN_PLACE)) {
        task->fills_in_flight = fills_in_flight(task, (size_t) s->rank * key->count, key->count);
    }
    return true;
}

/* The decision and, unless it falls back, the run's plan, into *task (zeroed, key set, referenced once). */
static bool decide_and_plan(mca_coll_hdring_setup_t *s, mca_coll_hdring_task_t *task, bool record,
                            mca_coll_hdring_tables_t *tables)
{
    const mca_coll_hdring_key_t *key = &task->key;
    mca_coll_hdring_choice_t choice;
    const bool ordered = 0 != (key->flags & MCA_COLL_HDRING_KEY_ORDERED);
    hdring_schedule_init(&task->sched);
    task->bytes = mca_coll_hdring_vector_bytes(key->coll, key->count, key->size, s->p);
    mca_coll_hdring_decide(s, key->coll, task->bytes, ordered, key->pick, &choice);
    task->fallback = choice.fallback;
    task->alg = choice.c.alg;
    mca_coll_hdring_describe(s, key->coll, task->bytes, ordered, &choice, task->trace, sizeof(task->trace));
    return task->fallback || plan_run(s, task, &choice, record, tables);
}

bool mca_coll_hdring_task_falls_back(mca_coll_hdring_setup_t *s, const mca_coll_hdring_key_t *key)
{
    mca_coll_hdring_choice_t choice;
    const size_t bytes = mca_coll_hdring_vector_bytes(key->coll, key->count, key->size, s->p);
    mca_coll_hdring_decide(s, key->coll, bytes, 0 != (key->flags & MCA_COLL_HDRING_KEY_ORDERED), key->pick, &choice);
    return choice.fallback;
}

bool mca_coll_hdring_task_fill(mca_coll_hdring_setup_t *s, const mca_coll_hdring_key_t *key,
                               mca_coll_hdring_task_t *task, size_t *displ, int ndispl,
                               mca_coll_hdring_tables_t *tables)
{
    memset(task, 0, sizeof(*task));
    task->refs = 1;
    task->key = *key;
    if (key->nrcounts >= ndispl) {
        return false;
    }
    task->displ = displ;
    return decide_and_plan(s, task, false, tables);
}

static mca_coll_hdring_task_t *build(mca_coll_hdring_setup_t *s, const mca_coll_hdring_key_t *key)
{
    mca_coll_hdring_task_t *task = calloc(1, sizeof(*task));
    int *rcounts = 0 == key->nrcounts ? NULL : malloc((size_t) key->nrcounts * sizeof(*rcounts));
    if (NULL == task || (0 != key->nrcounts && NULL == rcounts)) {
        free(task);
        free(rcounts);
        return NULL;
    }
    task->refs = 1;
    task->key = *key;
    if (NULL != rcounts) {
        memcpy(rcounts, key->rcounts, (size_t) key->nrcounts * sizeof(*rcounts));
        task->key.rcounts = rcounts;
    }
    mca_coll_hdring_tables_t tables = {0};
    const bool built = decide_and_plan(s, task, true, &tables);
    mca_coll_hdring_tables_free(&tables);
    if (!built) {
        mca_coll_hdring_task_release(task);
        return NULL;
    }
    return task;
}

mca_coll_hdring_task_t *mca_coll_hdring_task_get(mca_coll_hdring_setup_t *s, const mca_coll_hdring_key_t *key,
                                                 bool *built)
{
    mca_coll_hdring_task_t *task = cache_find(s, key);
    *built = NULL == task;
    if (NULL != task) {
        return task;
    }
    task = build(s, key);
    return NULL == task ? NULL : cache_add(s, task);
}
