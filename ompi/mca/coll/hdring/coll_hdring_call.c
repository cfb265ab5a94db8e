/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring calls (coll_hdring_call.h): the one path of every collective of every kind.
 *
 *   task   the module's last one for this collective when the call is like the last (same datatypes, op, counts,
 *          root and MPI_IN_PLACE: most calls repeat the one before, and this costs a few comparisons); else the
 *          one of the call's key (what its task depends on, its buffers aside: coll_hdring_task.c), the last
 *          one's, the setup's cached one, or built now: decided and recorded;
 *   then   the fallback's function of the call's kind, when the task says so; otherwise a run of the task:
 *          on the stack to its end (blocking), or in a request (nonblocking: started now; persistent: at MPI_Start).
 */
#include "coll_hdring_call.h"

#include <stdio.h>
#include <stdlib.h>

#include "opal/util/output.h"
#include "ompi/mca/coll/base/coll_base_util.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/op/op.h"

#include "coll_hdring_cache.h"
#include "coll_hdring_request.h"
#include "coll_hdring_run.h"
#include "coll_hdring_task.h"
#include "coll_hdring_util.h"

/* The fallback's function of call a's collective and kind. */
static int fallback(mca_coll_hdring_module_t *m, struct ompi_communicator_t *comm, const mca_coll_hdring_args_t *a,
                    mca_coll_hdring_kind_t kind, struct ompi_request_t **request)
{
    const mca_coll_hdring_fallback_t *f = &m->fallback;
    const int count = (int) a->count;
    switch (kind * MCA_COLL_HDRING_NCOLLS + a->coll) {
    case MCA_COLL_HDRING_BLOCKING * MCA_COLL_HDRING_NCOLLS + MCA_COLL_HDRING_ALLREDUCE:
        return f->coll_allreduce(a->sbuf, a->rbuf, count, a->dtype, a->op, comm, f->coll_allreduce_module);
    case MCA_COLL_HDRING_BLOCKING * MCA_COLL_HDRING_NCOLLS + MCA_COLL_HDRING_REDUCE_SCATTER:
        return f->coll_reduce_scatter(a->sbuf, a->rbuf, a->rcounts, a->dtype, a->op, comm,
                                      f->coll_reduce_scatter_module);
    case MCA_COLL_HDRING_BLOCKING * MCA_COLL_HDRING_NCOLLS + MCA_COLL_HDRING_REDUCE_SCATTER_BLOCK:
        return f->coll_reduce_scatter_block(a->sbuf, a->rbuf, count, a->dtype, a->op, comm,
                                            f->coll_reduce_scatter_block_module);
    case MCA_COLL_HDRING_BLOCKING * MCA_COLL_HDRING_NCOLLS + MCA_COLL_HDRING_ALLGATHER:
        return f->coll_allgather(a->sbuf, a->scount, a->sdtype, a->rbuf, count, a->dtype, comm,
                                 f->coll_allgather_module);
    case MCA_COLL_HDRING_BLOCKING * MCA_COLL_HDRING_NCOLLS + MCA_COLL_HDRING_BCAST:
        return f->coll_bcast(a->rbuf, count, a->dtype, a->root, comm, f->coll_bcast_module);
    case MCA_COLL_HDRING_NONBLOCKING * MCA_COLL_HDRING_NCOLLS + MCA_COLL_HDRING_ALLREDUCE:
        return f->coll_iallreduce(a->sbuf, a->rbuf, count, a->dtype, a->op, comm, request, f->coll_iallreduce_module);
    case MCA_COLL_HDRING_NONBLOCKING * MCA_COLL_HDRING_NCOLLS + MCA_COLL_HDRING_REDUCE_SCATTER:
        return f->coll_ireduce_scatter(a->sbuf, a->rbuf, a->rcounts, a->dtype, a->op, comm, request,
                                       f->coll_ireduce_scatter_module);
    case MCA_COLL_HDRING_NONBLOCKING * MCA_COLL_HDRING_NCOLLS + MCA_COLL_HDRING_REDUCE_SCATTER_BLOCK:
        return f->coll_ireduce_scatter_block(a->sbuf, a->rbuf, count, a->dtype, a->op, comm, request,
                                             f->coll_ireduce_scatter_block_module);
    case MCA_COLL_HDRING_NONBLOCKING * MCA_COLL_HDRING_NCOLLS + MCA_COLL_HDRING_ALLGATHER:
        return f->coll_iallgather(a->sbuf, a->scount, a->sdtype, a->rbuf, count, a->dtype, comm, request,
                                  f->coll_iallgather_module);
    case MCA_COLL_HDRING_NONBLOCKING * MCA_COLL_HDRING_NCOLLS + MCA_COLL_HDRING_BCAST:
        return f->coll_ibcast(a->rbuf, count, a->dtype, a->root, comm, request, f->coll_ibcast_module);
    case MCA_COLL_HDRING_PERSISTENT * MCA_COLL_HDRING_NCOLLS + MCA_COLL_HDRING_ALLREDUCE:
        return f->coll_allreduce_init(a->sbuf, a->rbuf, count, a->dtype, a->op, comm, a->info, request,
                                      f->coll_allreduce_init_module);
    case MCA_COLL_HDRING_PERSISTENT * MCA_COLL_HDRING_NCOLLS + MCA_COLL_HDRING_REDUCE_SCATTER:
        return f->coll_reduce_scatter_init(a->sbuf, a->rbuf, a->rcounts, a->dtype, a->op, comm, a->info, request,
                                           f->coll_reduce_scatter_init_module);
    case MCA_COLL_HDRING_PERSISTENT * MCA_COLL_HDRING_NCOLLS + MCA_COLL_HDRING_REDUCE_SCATTER_BLOCK:
        return f->coll_reduce_scatter_block_init(a->sbuf, a->rbuf, count, a->dtype, a->op, comm, a->info, request,
                                                 f->coll_reduce_scatter_block_init_module);
    case MCA_COLL_HDRING_PERSISTENT * MCA_COLL_HDRING_NCOLLS + MCA_COLL_HDRING_ALLGATHER:
        return f->coll_allgather_init(a->sbuf, a->scount, a->sdtype, a->rbuf, count, a->dtype, comm, a->info, request,
                                      f->coll_allgather_init_module);
    case MCA_COLL_HDRING_PERSISTENT * MCA_COLL_HDRING_NCOLLS + MCA_COLL_HDRING_BCAST:
        return f->coll_bcast_init(a->rbuf, count, a->dtype, a->root, comm, a->info, request,
                                  f->coll_bcast_init_module);
    default:
        return OMPI_ERR_NOT_SUPPORTED;
    }
}

/* "hdring: iallreduce np=4 bytes=4000 alg=ring (forced by ...)", by rank 0 of the communicator; at level 2, then
 * "hdring: iallreduce schedule from the cache (12 steps)". */
static void trace(const mca_coll_hdring_setup_t *s, const mca_coll_hdring_task_t *task, mca_coll_hdring_kind_t kind,
                  bool built)
{
    static const char *const prefix[MCA_COLL_HDRING_NKINDS] = {"", "i", ""};
    static const char *const suffix[MCA_COLL_HDRING_NKINDS] = {"", "", "_init"};
    const char *coll = mca_coll_hdring_coll_name(task->key.coll);
    opal_output(mca_coll_hdring_output, "hdring: %s%s%s np=%d bytes=%zu %s", prefix[kind], coll, suffix[kind], s->p,
                task->bytes, task->trace);
    if (s->config.verbose >= 2 && !task->fallback) {
        opal_output(mca_coll_hdring_output, "hdring: %s%s%s schedule %s (%zu steps)%s", prefix[kind], coll,
                    suffix[kind], built ? "built for this call" : "from the cache",
                    task->recorded ? task->sched.nsteps : 0, task->recorded ? "" : ", not recorded: run directly");
    }
}

/* The tag of a call's messages: its collective's for a blocking call, one of the communicator's nonblocking tags
 * otherwise (shared with libnbc and every component: every rank takes one for each nonblocking or persistent call,
 * whoever serves it, so that they stay the same on every rank). */
static int tag_of(struct ompi_communicator_t *comm, mca_coll_hdring_coll_t coll, mca_coll_hdring_kind_t kind)
{
    return MCA_COLL_HDRING_BLOCKING == kind ? mca_coll_hdring_coll_tag(coll) : ompi_coll_base_nbc_reserve_tags(comm, 1);
}

/* A blocking run of task to its end, its messages tagged `tag`, on the stack: an Open MPI status. */
static int run_blocking(mca_coll_hdring_module_t *m, struct ompi_communicator_t *comm,
                        const mca_coll_hdring_task_t *task, const mca_coll_hdring_args_t *a, int tag)
{
    mca_coll_hdring_run_t run;
    mca_coll_hdring_run_init(&run, m, comm, task, a, tag, true, &m->scratch);
    (void) mca_coll_hdring_run_progress(&run);
    return mca_coll_hdring_run_end(&run);
}

/* A blocking call's run of task (m->last[a->coll]): the module's run of the collective, made ready again when it
 * served the last call, which was like this one (`again`), prepared otherwise; on the stack without memory for it.
 * An Open MPI status. */
static int run_blocking_call(mca_coll_hdring_module_t *m, struct ompi_communicator_t *comm,
                             const mca_coll_hdring_task_t *task, const mca_coll_hdring_args_t *a, bool again)
{
    const unsigned bit = 1u << a->coll;
    mca_coll_hdring_run_t *run = m->runs[a->coll];
    if (OPAL_UNLIKELY(NULL == run)) {
        if (NULL == (run = m->runs[a->coll] = malloc(sizeof(*run)))) {
            return run_blocking(m, comm, task, a, mca_coll_hdring_coll_tag(a->coll));
        }
        again = false;
    }
    if (again && (m->ready & bit)) {
        return mca_coll_hdring_run_repeat(run, a);
    }
    mca_coll_hdring_run_init(run, m, comm, task, a, mca_coll_hdring_coll_tag(a->coll), true, &m->scratch);
    m->ready |= bit;
    (void) mca_coll_hdring_run_progress(run);
    return mca_coll_hdring_run_end(run);
}

/* A call whose task this rank had no memory to build: handed on if its decision is the fallback; otherwise run
 * without its task (blocking), or a request that builds it when started. */
static int unbuilt(mca_coll_hdring_module_t *m, struct ompi_communicator_t *comm, const mca_coll_hdring_args_t *a,
                   const mca_coll_hdring_key_t *key, mca_coll_hdring_kind_t kind, struct ompi_request_t **request)
{
    if (mca_coll_hdring_task_falls_back(m->setup, key)) {
        return fallback(m, comm, a, kind, request);
    }
    const int tag = tag_of(comm, a->coll, kind);
    if (MCA_COLL_HDRING_BLOCKING == kind) {
        return mca_coll_hdring_run_unbuilt(m, comm, key, a, tag);
    }
    int rc = mca_coll_hdring_request_new(m, comm, NULL, key, a, tag, MCA_COLL_HDRING_PERSISTENT == kind, request);
    if (OMPI_SUCCESS != rc && MCA_COLL_HDRING_NONBLOCKING == kind) { /* not even a request: blocking, now */
        rc = mca_coll_hdring_run_unbuilt(m, comm, key, a, tag);
        *request = OMPI_SUCCESS == rc ? &ompi_request_empty : *request;
    }
    return rc;
}

/* Whether call a is like the module's last of its collective (mca_coll_hdring_seen_t). An allgather in place has
 * no send type: MPI ignores it, and so does this. */
static inline bool seen_before(const mca_coll_hdring_seen_t *seen, const mca_coll_hdring_args_t *a)
{
    const bool in_place = MPI_IN_PLACE == a->sbuf;
    return seen->dtype == a->dtype && seen->op == a->op && seen->count == a->count && seen->root == a->root &&
           seen->in_place == in_place && (in_place || (seen->sdtype == a->sdtype && seen->scount == a->scount));
}

static void forget(mca_coll_hdring_seen_t *seen)
{
    if (NULL != seen->dtype) {
        OBJ_RELEASE(seen->dtype);
        if (NULL != seen->sdtype) {
            OBJ_RELEASE(seen->sdtype);
        }
        if (NULL != seen->op) {
            OBJ_RELEASE(seen->op);
        }
    }
    *seen = (mca_coll_hdring_seen_t) {0};
}

static void remember(mca_coll_hdring_seen_t *seen, const mca_coll_hdring_args_t *a)
{
    forget(seen);
    if (MCA_COLL_HDRING_REDUCE_SCATTER == a->coll) {
        return;
    }
    const bool in_place = MPI_IN_PLACE == a->sbuf;
    *seen = (mca_coll_hdring_seen_t) {.dtype = a->dtype, .sdtype = in_place ? NULL : a->sdtype, .op = a->op,
                                      .count = a->count, .scount = in_place ? 0 : a->scount, .root = a->root,
                                      .in_place = in_place};
    OBJ_RETAIN(a->dtype);
    if (NULL != seen->sdtype) {
        OBJ_RETAIN(seen->sdtype);
    }
    if (NULL != a->op) {
        OBJ_RETAIN(a->op);
    }
}

void mca_coll_hdring_call_forget(mca_coll_hdring_module_t *m)
{
    for (int c = 0; c < MCA_COLL_HDRING_NCOLLS; ++c) {
        forget(&m->seen[c]);
        free(m->runs[c]);
        m->runs[c] = NULL;
        if (NULL != m->last[c]) {
            mca_coll_hdring_task_release(m->last[c]);
            m->last[c] = NULL;
        }
    }
}

int mca_coll_hdring_call(mca_coll_hdring_module_t *m, struct ompi_communicator_t *comm,
                         const mca_coll_hdring_args_t *a, mca_coll_hdring_kind_t kind, struct ompi_request_t **request)
{
    mca_coll_hdring_setup_t *s = m->setup;
    mca_coll_hdring_task_t *task = m->last[a->coll];
    bool built = false, again = true;

    if (OPAL_UNLIKELY(NULL == task || !seen_before(&m->seen[a->coll], a))) {
        again = false;
        m->ready &= ~(1u << a->coll); /* its run was prepared for another call */
        mca_coll_hdring_key_t key;
        mca_coll_hdring_key_of(a, s->p, &key);
        if (NULL == task || !mca_coll_hdring_key_equal(&task->key, &key)) {
            task = mca_coll_hdring_task_get(s, &key, &built);
            if (NULL == task) {
                return unbuilt(m, comm, a, &key, kind, request);
            }
            if (NULL != m->last[a->coll]) {
                mca_coll_hdring_task_release(m->last[a->coll]);
            }
            m->last[a->coll] = task; /* the module's reference */
        }
        remember(&m->seen[a->coll], a);
    }
    if (OPAL_UNLIKELY(s->config.verbose >= 1 || (!again && s->config.trace_changes)) && 0 == s->rank) {
        trace(s, task, kind, built);
    }
    if (task->fallback) {
        return fallback(m, comm, a, kind, request);
    }
    if (MCA_COLL_HDRING_BLOCKING == kind) {
        return run_blocking_call(m, comm, task, a, again);
    }
    const int tag = tag_of(comm, a->coll, kind);
    mca_coll_hdring_task_retain(task); /* the request's */
    const int rc = mca_coll_hdring_request_new(m, comm, task, &task->key, a, tag,
                                               MCA_COLL_HDRING_PERSISTENT == kind, request);
    if (OMPI_SUCCESS != rc) { /* no request: the call blocks now (nonblocking) or fails (persistent) */
        mca_coll_hdring_task_release(task);
        const int ran = MCA_COLL_HDRING_NONBLOCKING == kind ? run_blocking(m, comm, task, a, tag) : rc;
        *request = OMPI_SUCCESS == ran ? &ompi_request_empty : *request;
        return ran;
    }
    return OMPI_SUCCESS;
}
