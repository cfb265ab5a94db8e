/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring prepared calls (coll_hdring_prepared.h): making them, keeping them, and running them on a call's
 * buffers, blocking or as a request.
 *
 * Around the algorithm: allgather copies this rank's block into place (overlapping the first exchange where the
 * schedule allows); a bcast whose algorithm cuts the message runs on its bytes, packed into scratch before (root)
 * and unpacked after (the others) when they do not lie in one run. A rank that cannot get its scratch or pack its
 * message runs poisoned (coll_hdring_msg.h): every rank of the call returns an error, none waits forever, and the
 * next call is right.
 */
#include "coll_hdring_prepared.h"

#include "hdring_select.h"

#include <stdlib.h>
#include <string.h>

#include "opal/class/opal_list.h"
#include "opal/datatype/opal_convertor.h"
#include "opal/runtime/opal_progress.h"
#include "ompi/request/request.h"

#include "coll_hdring_util.h"

static int request_start(size_t count, struct ompi_request_t **requests);
static int request_free(struct ompi_request_t **request);
static int request_cancel(struct ompi_request_t *request, int complete);

/* ---- the objects ---- */

static void construct(mca_coll_hdring_prepared_t *p)
{
    p->super.super.req_type = OMPI_REQUEST_COLL;
    p->super.super.req_status._cancelled = 0;
    p->super.super.req_start = request_start;
    p->super.super.req_free = request_free;
    p->super.super.req_cancel = request_cancel;
    p->newer = p->older = NULL;
    p->module = NULL;
    p->call = (mca_coll_hdring_args_t) {0};
    p->task = NULL;
    p->in_use = false;
    p->scratch = (mca_coll_hdring_scratch_t) {0};
    p->own_scratch = NULL;
    p->packed = NULL;
    p->plain = p->settled = false;
    p->pick = HDRING_PICK_MODEL;
    p->quick = MCA_COLL_HDRING_QUICK_NONE;
    p->resolved = NULL;
    p->memory = NULL;
    p->copies = NULL;
}

/* What p was prepared for let go: it can be prepared again (a reserve's) or go. */
static void unprepare(mca_coll_hdring_prepared_t *p)
{
    if (NULL != p->resolved) {
        mca_coll_hdring_exec_unresolve(p->resolved, p->task->sched.nmsgs);
        p->resolved = NULL;
    }
    if (NULL != p->task) {
        mca_coll_hdring_task_release(p->task);
        p->task = NULL;
    }
    free(p->memory);
    p->memory = NULL;
    while (NULL != p->copies) {
        void *next = *(void **) p->copies;
        free(p->copies);
        p->copies = next;
    }
    mca_coll_hdring_args_t *c = &p->call;
    if (NULL != c->dtype) {
        OBJ_RELEASE(c->dtype);
    }
    if (NULL != c->sdtype) {
        OBJ_RELEASE(c->sdtype);
    }
    if (NULL != c->op) {
        OBJ_RELEASE(c->op);
    }
    free((void *) c->rcounts);
    *c = (mca_coll_hdring_args_t) {0};
}

static void destruct(mca_coll_hdring_prepared_t *p)
{
    unprepare(p);
    mca_coll_hdring_scratch_free(&p->scratch);
}

OBJ_CLASS_INSTANCE(mca_coll_hdring_prepared_t, ompi_coll_base_nbc_request_t, construct, destruct);

/* Memory for a packed message's copy, as long as the prepared call lives (its take). */
static void *copy_memory(void *ctx, size_t bytes)
{
    mca_coll_hdring_prepared_t *p = ctx;
    char *chunk = malloc(16 + bytes);
    if (NULL == chunk) {
        return NULL;
    }
    *(void **) chunk = p->copies;
    p->copies = chunk;
    return chunk + 16;
}

/* ---- preparing ---- */

/* The call a, remembered: its datatypes and op referenced, so that none is freed and another made at its address
 * while p remembers it; a reduce_scatter's counts copied. false without memory. */
static bool remember(mca_coll_hdring_prepared_t *p, const mca_coll_hdring_args_t *a, int size)
{
    const bool in_place = MPI_IN_PLACE == a->sbuf;
    int *rcounts = NULL;
    if (MCA_COLL_HDRING_REDUCE_SCATTER == a->coll) {
        if (NULL == (rcounts = malloc((size_t) size * sizeof(int)))) {
            return false;
        }
        memcpy(rcounts, a->rcounts, (size_t) size * sizeof(int));
    }
    p->call = (mca_coll_hdring_args_t) {.coll = a->coll, .sbuf = in_place ? MPI_IN_PLACE : NULL, .count = a->count,
                                        .rcounts = rcounts, .dtype = a->dtype,
                                        .sdtype = in_place ? NULL : a->sdtype, .scount = in_place ? 0 : a->scount,
                                        .op = a->op, .root = a->root};
    OBJ_RETAIN(a->dtype);
    if (NULL != p->call.sdtype) {
        OBJ_RETAIN(p->call.sdtype);
    }
    if (NULL != a->op) {
        OBJ_RETAIN(a->op);
    }
    return true;
}

/* Whether a run of task packs its message into scratch: a bcast on bytes that do not lie in one run. */
static bool packs(const mca_coll_hdring_task_t *task)
{
    return task->on_bytes && !(task->key.flags & MCA_COLL_HDRING_KEY_CONTIGUOUS);
}

/* ---- a call's buffers ---- */


/* buf's count elements to or from `bytes` packed bytes: an Open MPI status. */
static int convert(void *buf, int count, struct ompi_datatype_t *dtype, char *packed, size_t bytes, bool pack)
{
    opal_convertor_t conv;
    struct iovec iov = {packed, bytes};
    uint32_t iov_count = 1;
    size_t max_data = bytes;
    int rc;

    OBJ_CONSTRUCT(&conv, opal_convertor_t);
    if (pack) {
        rc = opal_convertor_copy_and_prepare_for_send(ompi_mpi_local_convertor, &dtype->super, count, buf, 0, &conv);
        if (OPAL_SUCCESS == rc) {
            rc = opal_convertor_pack(&conv, &iov, &iov_count, &max_data) < 0 ? OMPI_ERROR : OMPI_SUCCESS;
        }
    } else {
        rc = opal_convertor_copy_and_prepare_for_recv(ompi_mpi_local_convertor, &dtype->super, count, buf, 0, &conv);
        if (OPAL_SUCCESS == rc) {
            rc = opal_convertor_unpack(&conv, &iov, &iov_count, &max_data) < 0 ? OMPI_ERROR : OMPI_SUCCESS;
        }
    }
    OBJ_DESTRUCT(&conv);
    return OMPI_SUCCESS == rc && max_data != bytes ? OMPI_ERROR : rc;
}

/* The call's buffers as the schedule names them, in run t of task, scratch laid out as layout from *scratch (NULL:
 * memory of its own, *own), and what the collective does before its algorithm (a packed bcast message in *packed).
 * A failure poisons the run. */
static inline void set_buffers(mca_coll_hdring_exec_t *t, const mca_coll_hdring_task_t *task, const mca_coll_hdring_args_t *a,
                        mca_coll_hdring_scratch_t *scratch, const mca_coll_hdring_scratch_layout_t *layout, void **own,
                        char **packed)
{
    int rc = mca_coll_hdring_scratch_acquire(scratch, layout, &t->base[HDRING_BUF_TMP], &t->base[HDRING_BUF_WORK], own);
    *packed = NULL;
    if (OPAL_UNLIKELY(OMPI_SUCCESS != rc)) {
        mca_coll_hdring_wire_poison(&t->w, rc);
    }
    switch (task->key.coll) {
    case MCA_COLL_HDRING_BCAST:
        if (!task->on_bytes) {
            t->base[HDRING_BUF_OUT] = a->rbuf;
        } else if (!packs(task)) {
            ptrdiff_t true_lb, true_extent;
            ompi_datatype_get_true_extent(a->dtype, &true_lb, &true_extent);
            t->base[HDRING_BUF_OUT] = (char *) a->rbuf + true_lb;
        } else if (!t->w.poisoned) {
            *packed = t->base[HDRING_BUF_OUT] = t->base[HDRING_BUF_TMP] + task->scratch.tmp;
            if (ompi_comm_rank(t->w.comm) == a->root &&
                OMPI_SUCCESS != (rc = convert(a->rbuf, (int) a->count, a->dtype, *packed, task->bytes, true))) {
                mca_coll_hdring_wire_poison(&t->w, rc);
            }
        }
        break;
    case MCA_COLL_HDRING_ALLGATHER:
        t->base[HDRING_BUF_OUT] = a->rbuf;
        t->contribution.buf = a->sbuf;
        break;
    default:
        t->base[HDRING_BUF_IN] = (char *) (MPI_IN_PLACE == a->sbuf ? a->rbuf : a->sbuf);
        t->base[HDRING_BUF_OUT] = a->rbuf;
        break;
    }
}

/* What run t of task does after its algorithm (a packed bcast message unpacked), and a call's own scratch freed:
 * the call's Open MPI status, from the run's. */
static int __opal_attribute_noinline__ after_run(mca_coll_hdring_exec_t *t, const mca_coll_hdring_task_t *task, const mca_coll_hdring_args_t *a,
                     int rc, void *own, char *packed)
{
    if (OPAL_UNLIKELY(NULL != packed) && OMPI_SUCCESS == rc && ompi_comm_rank(t->w.comm) != a->root) {
        rc = convert(a->rbuf, (int) a->count, a->dtype, packed, task->bytes, false);
    }
    if (OPAL_UNLIKELY(NULL != own)) {
        free(own);
    }
    return rc;
}

/* Where this rank's allgather block lies, for run t of task (none in place). */
static void contribution(mca_coll_hdring_exec_t *t, const mca_coll_hdring_task_t *task, const mca_coll_hdring_args_t *a)
{
    if (MCA_COLL_HDRING_ALLGATHER == task->key.coll && MPI_IN_PLACE != a->sbuf) {
        t->contribution.off = (size_t) ompi_comm_rank(t->w.comm) * task->key.count;
        t->contribution.count = task->key.count;
        t->contribution.n = a->scount;
        t->contribution.type = a->sdtype;
    }
}

/* The run of p's task made ready: its transport, scratch layout, resolved messages and room. An Open MPI status. */
static int prepare_run(mca_coll_hdring_prepared_t *p, struct ompi_communicator_t *comm,
                       const mca_coll_hdring_args_t *a)
{
    const mca_coll_hdring_setup_t *s = p->module->setup;
    const mca_coll_hdring_task_t *task = p->task;
    const mca_coll_hdring_coll_t coll = task->key.coll;
    const bool reduces = MCA_COLL_HDRING_ALLGATHER != coll && MCA_COLL_HDRING_BCAST != coll;
    mca_coll_hdring_exec_t *t = &p->t;

    mca_coll_hdring_exec_init(t, comm, task->on_bytes ? MPI_BYTE : a->dtype, reduces ? a->op : NULL, &s->topo,
                              task->locality_order, s->pieces_bytes[coll], s->config.max_message_elements,
                              mca_coll_hdring_tables_take_for, NULL);
    if (task->fallback) {
        return OMPI_SUCCESS;
    }
    hdring_scratch_t need = task->scratch;
    if (packs(task)) {
        need.tmp += task->bytes; /* the packed message after the algorithm's own */
    }
    mca_coll_hdring_scratch_layout(t->w.dtype, need, &p->layout);
    contribution(t, task, a);
    /* plain: recorded and nothing around the algorithm but its scratch and an allgather's own block, its OUT the
     * buffer itself or the bytes of a bcast's message where they lie in one run */
    p->plain = task->recorded && !packs(task);
    p->out_shift = 0;
    if (MCA_COLL_HDRING_BCAST == coll && task->on_bytes) {
        ptrdiff_t true_extent;
        ompi_datatype_get_true_extent(a->dtype, &p->out_shift, &true_extent);
    }
    if (!task->recorded) { /* its messages resolved as they come */
        return OMPI_SUCCESS;
    }
    /* one block: the resolved messages, then the room for the widest exchange (pieces count one request each) */
    const size_t nmsgs = task->sched.nmsgs, widest = (size_t) (task->sched.widest > 2 ? task->sched.widest : 2);
    const size_t nreqs = widest * HDRING_MAX_PIECES;
    const size_t bytes = nmsgs * sizeof(mca_coll_hdring_resolved_t) + widest * sizeof(mca_coll_hdring_side_t) +
                         nreqs * (sizeof(ompi_request_t *) + sizeof(ompi_status_public_t));
    char *mem = p->memory = malloc(bytes);
    if (NULL == mem) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    t->room.statuses = (ompi_status_public_t *) mem; /* the most aligned first */
    mem += nreqs * sizeof(ompi_status_public_t);
    t->room.sides = (mca_coll_hdring_side_t *) mem;
    mem += widest * sizeof(mca_coll_hdring_side_t);
    t->room.reqs = (ompi_request_t **) mem;
    mem += nreqs * sizeof(ompi_request_t *);
    t->room.nsides = (int) widest;
    t->room.nreqs = (int) nreqs;
    const int rc = mca_coll_hdring_exec_resolve(t, &task->sched, (mca_coll_hdring_resolved_t *) mem, copy_memory, p);
    p->resolved = OMPI_SUCCESS == rc ? (mca_coll_hdring_resolved_t *) mem : NULL;
    mca_coll_hdring_exec_of(t, &task->sched, p->resolved);
    return rc;
}

/* A new prepared call for call a served by `pick` on m's communicator, not settled: NULL without memory. */
static mca_coll_hdring_prepared_t *prepare(mca_coll_hdring_module_t *m, struct ompi_communicator_t *comm,
                                           const mca_coll_hdring_args_t *a, int pick)
{
    mca_coll_hdring_prepared_t *p = OBJ_NEW(mca_coll_hdring_prepared_t);
    if (NULL == p) {
        return NULL;
    }
    p->module = m;
    p->comm = comm;
    p->pick = pick;
    mca_coll_hdring_key_t key;
    mca_coll_hdring_key_of(a, m->setup->p, pick, &key);
    if (!remember(p, a, m->setup->p) || NULL == (p->task = mca_coll_hdring_task_get(m->setup, &key, &p->built)) ||
        OMPI_SUCCESS != prepare_run(p, comm, a)) {
        OBJ_RELEASE(p);
        return NULL;
    }
    p->scratch.limit = m->setup->config.scratch_cache_bytes;
    p->tag = mca_coll_hdring_coll_tag(a->coll);
    return p;
}

static void unlink_prepared(mca_coll_hdring_module_t *m, mca_coll_hdring_prepared_t *p)
{
    MCA_COLL_HDRING_LRU_UNLINK(m, p);
}

static void link_newest(mca_coll_hdring_module_t *m, mca_coll_hdring_prepared_t *p)
{
    MCA_COLL_HDRING_LRU_PUSH_NEWEST(m, p);
}

/* Prepared calls not in use beyond MCA_COLL_HDRING_PREPARED_KEPT go, the least recently used first. */
static void trim(mca_coll_hdring_module_t *m)
{
    int kept = 0;
    for (mca_coll_hdring_prepared_t *p = m->newest, *older; NULL != p; p = older) {
        older = p->older;
        if (!p->in_use && ++kept > MCA_COLL_HDRING_PREPARED_KEPT) {
            unlink_prepared(m, p);
            --m->nprepared;
            OBJ_RELEASE(p);
        }
    }
}

mca_coll_hdring_prepared_t *mca_coll_hdring_prepared_find(mca_coll_hdring_module_t *m,
                                                          struct ompi_communicator_t *comm,
                                                          const mca_coll_hdring_args_t *a, int pick)
{
    OPAL_THREAD_LOCK(&mca_coll_hdring_lock); /* requests on other threads take and give back theirs */
    mca_coll_hdring_prepared_t *p = m->newest;
    while (NULL != p && (p->in_use || !mca_coll_hdring_prepared_for(p, a, pick))) {
        p = p->older;
    }
    if (NULL != p) {
        unlink_prepared(m, p);
        link_newest(m, p);
    }
    OPAL_THREAD_UNLOCK(&mca_coll_hdring_lock);
    if (NULL != p) {
        p->built = false;
        return p;
    }
    if (NULL == (p = prepare(m, comm, a, pick))) {
        return NULL;
    }
    OPAL_THREAD_LOCK(&mca_coll_hdring_lock);
    link_newest(m, p);
    ++m->nprepared;
    trim(m);
    OPAL_THREAD_UNLOCK(&mca_coll_hdring_lock);
    return p;
}

void mca_coll_hdring_prepared_forget_all(mca_coll_hdring_module_t *m)
{
    while (NULL != m->newest) {
        mca_coll_hdring_prepared_t *p = m->newest;
        unlink_prepared(m, p);
        OBJ_RELEASE(p);
    }
    m->nprepared = 0;
}

/* Runs task's algorithm on t as it goes, its tables in memory of the run's own. */
static void direct(mca_coll_hdring_exec_t *t, const mca_coll_hdring_task_t *task, int tag)
{
    mca_coll_hdring_tables_t tables = {0};
    t->w.take_ctx = &tables;
    (void) mca_coll_hdring_exec_direct(t, task->alg, &task->args, tag);
    mca_coll_hdring_tables_free(&tables);
    t->w.take_ctx = NULL;
}

/* Starts p's run on call a's buffers, scratch from *scratch, its messages tagged `tag`. */
static void start_run(mca_coll_hdring_prepared_t *p, const mca_coll_hdring_args_t *a, mca_coll_hdring_scratch_t *scratch,
                      int tag, bool blocking)
{
    const mca_coll_hdring_task_t *task = p->task;
    set_buffers(&p->t, task, a, scratch, &p->layout, &p->own_scratch, &p->packed);
    if (OPAL_LIKELY(task->recorded)) {
        mca_coll_hdring_exec_start(&p->t, tag, blocking, task->fills_in_flight);
    } else { /* too long to record: the algorithm run as it goes, to its end */
        direct(&p->t, task, tag);
    }
}

/* Ends p's run of call a: the call's Open MPI status. */
static inline int end_run(mca_coll_hdring_prepared_t *p, const mca_coll_hdring_args_t *a)
{
    int rc = mca_coll_hdring_exec_end(&p->t);
    if (OPAL_UNLIKELY(NULL != p->packed || NULL != p->own_scratch)) {
        rc = after_run(&p->t, p->task, a, rc, p->own_scratch, p->packed);
    }
    return rc;
}

int mca_coll_hdring_prepared_run_plain(mca_coll_hdring_prepared_t *p, const void *sbuf, void *rbuf)
{
    mca_coll_hdring_exec_t *t = &p->t;
    t->base[HDRING_BUF_IN] = (char *) (MPI_IN_PLACE == sbuf ? rbuf : sbuf);
    t->base[HDRING_BUF_OUT] = (char *) rbuf + p->out_shift;
    t->contribution.buf = sbuf; /* (an allgather's own block; nothing for the others) */
    const int rc = mca_coll_hdring_scratch_acquire(&p->module->scratch, &p->layout, &t->base[HDRING_BUF_TMP],
                                                   &t->base[HDRING_BUF_WORK], &p->own_scratch);
    if (OPAL_UNLIKELY(OMPI_SUCCESS != rc)) {
        mca_coll_hdring_wire_poison(&t->w, rc);
    }
    const int status = mca_coll_hdring_exec_blocking(t, p->tag, p->task->fills_in_flight);
    if (OPAL_UNLIKELY(NULL != p->own_scratch)) {
        free(p->own_scratch);
    }
    return status;
}

int mca_coll_hdring_prepared_run(mca_coll_hdring_prepared_t *p, const mca_coll_hdring_args_t *a)
{
    const mca_coll_hdring_task_t *task = p->task;
    mca_coll_hdring_exec_t *t = &p->t;
    if (OPAL_LIKELY(p->plain)) {
        return mca_coll_hdring_prepared_run_plain(p, a->sbuf, a->rbuf);
    }
    set_buffers(t, task, a, &p->module->scratch, &p->layout, &p->own_scratch, &p->packed);
    if (OPAL_LIKELY(task->recorded)) {
        mca_coll_hdring_exec_start(t, p->tag, true, task->fills_in_flight);
        (void) mca_coll_hdring_exec_progress(t);
    } else { /* too long to record: the algorithm run as it goes, to its end */
        direct(t, task, p->tag);
    }
    return end_run(p, a);
}

/* ---- a call without memory for its preparation ---- */

int mca_coll_hdring_prepared_unbuilt(mca_coll_hdring_module_t *m, struct ompi_communicator_t *comm,
                                     const mca_coll_hdring_args_t *a, int pick, int tag)
{
    mca_coll_hdring_task_t task;
    mca_coll_hdring_key_t key;
    mca_coll_hdring_tables_t tables;
    size_t displ[257];
    if (!mca_coll_hdring_tables_reserve(&tables)) {
        return OMPI_ERR_OUT_OF_RESOURCE; /* another thread short of memory has the reserve */
    }
    mca_coll_hdring_key_of(a, m->setup->p, pick, &key);
    int rc = OMPI_ERR_OUT_OF_RESOURCE;
    if (mca_coll_hdring_task_fill(m->setup, &key, &task, displ, 257, &tables)) {
        rc = OMPI_ERR_NOT_SUPPORTED; /* the fallback's: the caller hands the call on */
    }
    if (OMPI_ERR_NOT_SUPPORTED == rc && !task.fallback) {
        const mca_coll_hdring_setup_t *s = m->setup;
        const bool reduces = MCA_COLL_HDRING_ALLGATHER != a->coll && MCA_COLL_HDRING_BCAST != a->coll;
        mca_coll_hdring_exec_t t;
        mca_coll_hdring_scratch_layout_t layout;
        void *own;
        char *packed;
        mca_coll_hdring_exec_init(&t, comm, task.on_bytes ? MPI_BYTE : a->dtype, reduces ? a->op : NULL, &s->topo,
                                  task.locality_order, s->pieces_bytes[a->coll], s->config.max_message_elements,
                                  mca_coll_hdring_tables_take_for, &tables);
        hdring_scratch_t need = task.scratch;
        need.tmp += packs(&task) ? task.bytes : 0;
        mca_coll_hdring_scratch_layout(t.w.dtype, need, &layout);
        contribution(&t, &task, a);
        set_buffers(&t, &task, a, &m->scratch, &layout, &own, &packed);
        (void) mca_coll_hdring_exec_direct(&t, task.alg, &task.args, tag);
        rc = after_run(&t, &task, a, mca_coll_hdring_exec_end(&t), own, packed);
    }
    mca_coll_hdring_tables_unreserve(&tables);
    return rc;
}

/* ---- requests ---- */

#define RESERVE 4 /* requests made at open: a call short of memory still finds one */
static mca_coll_hdring_prepared_t *reserve[RESERVE];
static int nreserve;
static opal_list_t active;     /* started and not complete, with `lock` */
static opal_mutex_t lock;
static bool progressing;       /* a thread is in the progress function: one at a time, never recursively */
static bool registered;        /* it is registered with Open MPI's progress engine (at open: registering takes
                                  memory, which a call may not find) */

/* Completes p's request, its run done. */
static void complete(mca_coll_hdring_prepared_t *p)
{
    p->super.super.req_status.MPI_ERROR = end_run(p, &p->args);
    ompi_request_complete(&p->super.super, true);
}

/* Advances p, in flight, whose messages have arrived: complete once its run is done. Whether it completed. */
static bool __opal_attribute_noinline__ advance(mca_coll_hdring_prepared_t *p)
{
    if (HDRING_PENDING == mca_coll_hdring_exec_progress(&p->t)) {
        return false;
    }
    OPAL_THREAD_LOCK(&lock);
    opal_list_remove_item(&active, &p->super.super.super.super);
    OPAL_THREAD_UNLOCK(&lock);
    complete(p);
    return true;
}

/* Polls every request in flight, and advances those whose messages have arrived; how many completed. Open MPI's
 * progress engine calls it, again and again while a program waits: a poll that finds nothing costs little. */
static int mca_coll_hdring_progress(void)
{
    int completed = 0;
    if (0 == opal_list_get_size(&active)) {
        return 0;
    }
    OPAL_THREAD_LOCK(&lock);
    if (progressing) {
        OPAL_THREAD_UNLOCK(&lock);
        return 0;
    }
    progressing = true;
    mca_coll_hdring_prepared_t *p, *next;
    OPAL_LIST_FOREACH_SAFE (p, next, &active, mca_coll_hdring_prepared_t) {
        if (mca_coll_hdring_exec_ready(&p->t)) {
            OPAL_THREAD_UNLOCK(&lock);
            completed += advance(p);
            OPAL_THREAD_LOCK(&lock);
        }
    }
    progressing = false;
    OPAL_THREAD_UNLOCK(&lock);
    return completed;
}

/* Starts p's request: its first steps posted; complete at once if that finished it, in flight otherwise. A
 * reserve's request runs the call as it goes, to its end. A start after a failure (a revoked communicator, a lost
 * rank) ends at once with it. */
static void start(mca_coll_hdring_prepared_t *p)
{
    ompi_request_t *r = &p->super.super;
    r->req_state = OMPI_REQUEST_ACTIVE;
    r->req_complete = REQUEST_PENDING;
    r->req_status.MPI_ERROR = hdring_comm_failed(p->comm);
    if (OPAL_UNLIKELY(OMPI_SUCCESS != r->req_status.MPI_ERROR)) {
        ompi_request_complete(r, true);
        return;
    }
    if (OPAL_UNLIKELY(NULL == p->task)) {
        r->req_status.MPI_ERROR = mca_coll_hdring_prepared_unbuilt(p->module, p->comm, &p->args, p->pick,
                                                                   p->t.w.tag);
        ompi_request_complete(r, true);
        return;
    }
    const bool recorded = p->task->recorded;
    if (OPAL_LIKELY(p->plain)) {
        mca_coll_hdring_exec_t *t = &p->t;
        t->base[HDRING_BUF_IN] = (char *) (MPI_IN_PLACE == p->args.sbuf ? p->args.rbuf : p->args.sbuf);
        t->base[HDRING_BUF_OUT] = (char *) p->args.rbuf + p->out_shift;
        t->contribution.buf = p->args.sbuf;
        const int rc = mca_coll_hdring_scratch_acquire(&p->scratch, &p->layout, &t->base[HDRING_BUF_TMP],
                                                       &t->base[HDRING_BUF_WORK], &p->own_scratch);
        if (OPAL_UNLIKELY(OMPI_SUCCESS != rc)) {
            mca_coll_hdring_wire_poison(&t->w, rc);
        }
        mca_coll_hdring_exec_start(t, t->w.tag, false, p->task->fills_in_flight);
    } else {
        start_run(p, &p->args, &p->scratch, p->t.w.tag, !recorded);
    }
    if (!recorded || HDRING_PENDING != mca_coll_hdring_exec_progress(&p->t)) {
        complete(p);
        return;
    }
    OPAL_THREAD_LOCK(&lock);
    opal_list_append(&active, &p->super.super.super.super);
    OPAL_THREAD_UNLOCK(&lock);
}

static int request_start(size_t count, struct ompi_request_t **requests)
{
    for (size_t i = 0; i < count; ++i) {
        mca_coll_hdring_prepared_t *p = (mca_coll_hdring_prepared_t *) requests[i];
        if (!REQUEST_COMPLETE(&p->super.super)) {
            return OMPI_ERR_REQUEST; /* started twice */
        }
        start(p);
    }
    return OMPI_SUCCESS;
}

static int request_free(struct ompi_request_t **request)
{
    mca_coll_hdring_prepared_t *p = (mca_coll_hdring_prepared_t *) *request;
    if (!REQUEST_COMPLETE(&p->super.super)) {
        return MPI_ERR_REQUEST; /* a collective in flight cannot be freed (MPI forbids it) */
    }
    struct ompi_communicator_t *comm = p->comm;
    mca_coll_hdring_module_t *m = p->module;
    OMPI_REQUEST_FINI(&p->super.super);
    *request = MPI_REQUEST_NULL;
    OPAL_THREAD_LOCK(&mca_coll_hdring_lock);
    p->in_use = false;
    p->quick = mca_coll_hdring_prepared_quick_of(p);
    if (NULL == p->task) { /* a reserve's: back to the reserve */
        unprepare(p);
        reserve[nreserve++] = p;
    }
    OPAL_THREAD_UNLOCK(&mca_coll_hdring_lock);
    /* last: the module may go with them, and its prepared calls with it */
    OBJ_RELEASE(comm);
    OBJ_RELEASE(m);
    return OMPI_SUCCESS;
}

static int request_cancel(struct ompi_request_t *request, int complete_flag)
{
    (void) request;
    (void) complete_flag;
    return MPI_ERR_REQUEST; /* collectives cannot be cancelled */
}

void mca_coll_hdring_prepared_post(mca_coll_hdring_prepared_t *p, const mca_coll_hdring_args_t *a,
                                   mca_coll_hdring_kind_t kind, int tag, struct ompi_request_t **request)
{
    const bool persistent = MCA_COLL_HDRING_PERSISTENT == kind;
    p->in_use = true;
    p->quick = MCA_COLL_HDRING_QUICK_NONE;
    p->kind = kind;
    p->args = *a;
    p->t.w.tag = tag;
    OMPI_REQUEST_INIT(&p->super.super, persistent);
    p->super.super.req_mpi_object.comm = p->comm;
    OBJ_RETAIN(p->module);
    OBJ_RETAIN(p->comm);
    *request = &p->super.super;
    if (!persistent) {
        start(p);
    }
}

void mca_coll_hdring_prepared_ipost(mca_coll_hdring_prepared_t *p, const void *sbuf, void *rbuf, int tag,
                                    struct ompi_request_t **request)
{
    p->in_use = true;
    p->quick = MCA_COLL_HDRING_QUICK_NONE;
    p->kind = MCA_COLL_HDRING_NONBLOCKING;
    p->args.sbuf = sbuf;
    p->args.rbuf = rbuf;
    p->t.w.tag = tag;
    OMPI_REQUEST_INIT(&p->super.super, false);
    p->super.super.req_mpi_object.comm = p->comm;
    OBJ_RETAIN(p->module);
    OBJ_RETAIN(p->comm);
    *request = &p->super.super;
    start(p);
}

mca_coll_hdring_prepared_t *mca_coll_hdring_prepared_reserve(mca_coll_hdring_module_t *m,
                                                             struct ompi_communicator_t *comm, int pick)
{
    if (!registered) { /* nothing would advance a request */
        return NULL;
    }
    OPAL_THREAD_LOCK(&mca_coll_hdring_lock);
    mca_coll_hdring_prepared_t *p = nreserve > 0 ? reserve[--nreserve] : NULL;
    OPAL_THREAD_UNLOCK(&mca_coll_hdring_lock);
    if (NULL != p) { /* what start needs of it (posting gives it the call) */
        p->module = m;
        p->comm = comm;
        p->pick = pick;
        p->in_use = true;
    }
    return p;
}

void mca_coll_hdring_prepared_open(void)
{
    OBJ_CONSTRUCT(&active, opal_list_t);
    OBJ_CONSTRUCT(&lock, opal_mutex_t);
    nreserve = 0;
    while (nreserve < RESERVE && NULL != (reserve[nreserve] = OBJ_NEW(mca_coll_hdring_prepared_t))) {
        ++nreserve;
    }
    progressing = false;
    registered = OPAL_SUCCESS == opal_progress_register(mca_coll_hdring_progress);
}

void mca_coll_hdring_prepared_close(void)
{
    if (registered) {
        opal_progress_unregister(mca_coll_hdring_progress);
        registered = false;
    }
    while (nreserve > 0) {
        mca_coll_hdring_prepared_t *p = reserve[--nreserve]; /* OBJ_RELEASE evaluates its argument more than once */
        OBJ_RELEASE(p);
    }
    OBJ_DESTRUCT(&active);
    OBJ_DESTRUCT(&lock);
}
