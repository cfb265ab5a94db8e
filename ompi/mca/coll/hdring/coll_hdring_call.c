/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring calls (coll_hdring_call.h): the one path of every collective of every kind.
 *
 *   prepared  the module's prepared call for a call like this one (coll_hdring_prepared.h): most calls repeat
 *             the one before, and finding it costs a few comparisons; a new one otherwise;
 *   then      the fallback's function of the call's kind, when its task says so; otherwise the prepared call run
 *             to its end (blocking), or posted as the call's request (nonblocking: started now; persistent: at
 *             MPI_Start).
 */
#include "coll_hdring_call.h"

#include "opal/util/output.h"
#include "ompi/mca/coll/base/coll_base_util.h"

#include "coll_hdring_prepared.h"
#include "coll_hdring_select.h"
#include "coll_hdring_setup.h"
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

/* The tag of a call's messages: its collective's for a blocking call, one of the communicator's nonblocking tags
 * otherwise (shared with libnbc and every component: every rank takes one for each nonblocking or persistent call,
 * whoever serves it, so that they stay the same on every rank). */
static int tag_of(struct ompi_communicator_t *comm, mca_coll_hdring_coll_t coll, mca_coll_hdring_kind_t kind)
{
    return MCA_COLL_HDRING_BLOCKING == kind ? mca_coll_hdring_coll_tag(coll) : ompi_coll_base_nbc_reserve_tags(comm, 1);
}

/* "hdring: iallreduce np=4 bytes=4000 alg=ring (forced by ...)", by rank 0 of the communicator, or what
 * selection says of its pick (coll_hdring_select.h); at level 2, then "hdring: iallreduce schedule from the cache
 * (12 steps)". */
static void trace(mca_coll_hdring_module_t *m, const mca_coll_hdring_prepared_t *p, const mca_coll_hdring_args_t *a,
                  mca_coll_hdring_kind_t kind, const mca_coll_hdring_range_t *trying)
{
    static const char *const prefix[MCA_COLL_HDRING_NKINDS] = {"", "i", ""};
    static const char *const suffix[MCA_COLL_HDRING_NKINDS] = {"", "", "_init"};
    const mca_coll_hdring_setup_t *s = m->setup;
    const mca_coll_hdring_task_t *task = p->task;
    const char *coll = mca_coll_hdring_coll_name(task->key.coll);
    char picked[256];
    const char *why = mca_coll_hdring_select_describe(m, a, kind, p->pick, trying, picked, sizeof(picked));
    opal_output(mca_coll_hdring_output, "hdring: %s%s%s np=%d bytes=%zu %s", prefix[kind], coll, suffix[kind], s->p,
                task->bytes, NULL != why ? why : task->trace);
    if (s->config.verbose >= 2 && !task->fallback) {
        opal_output(mca_coll_hdring_output, "hdring: %s%s%s schedule %s (%zu steps)%s", prefix[kind], coll,
                    suffix[kind], p->built ? "built for this call" : "from the cache",
                    task->recorded ? task->sched.nsteps : 0, task->recorded ? "" : ", not recorded: run directly");
    }
}

/* Whether the call p serves is traced: every call (coll_hdring_verbose), or with coll_hdring_trace_changes only a
 * call whose arguments differ from the module's previous call's, which prev served. */
static bool traced(const mca_coll_hdring_module_t *m, const mca_coll_hdring_prepared_t *p,
                   const mca_coll_hdring_prepared_t *prev)
{
    const mca_coll_hdring_setup_t *s = m->setup;
    return 0 == s->rank && (0 == s->config.trace_changes || p != prev);
}

/* A call this rank had no memory to prepare: handed on if its decision is the fallback; otherwise run as it goes
 * (blocking), or in a request kept for this, which does the same when started. */
static int unprepared(mca_coll_hdring_module_t *m, struct ompi_communicator_t *comm, const mca_coll_hdring_args_t *a,
                      int pick, mca_coll_hdring_kind_t kind, struct ompi_request_t **request)
{
    mca_coll_hdring_key_t key;
    mca_coll_hdring_key_of(a, m->setup->p, pick, &key);
    if (mca_coll_hdring_task_falls_back(m->setup, &key)) {
        return fallback(m, comm, a, kind, request);
    }
    const int tag = tag_of(comm, a->coll, kind);
    if (MCA_COLL_HDRING_BLOCKING == kind) {
        return mca_coll_hdring_prepared_unbuilt(m, comm, a, pick, tag);
    }
    mca_coll_hdring_prepared_t *p = mca_coll_hdring_prepared_reserve(m, comm, pick);
    if (NULL != p) {
        mca_coll_hdring_prepared_post(p, a, kind, tag, request);
        return OMPI_SUCCESS;
    }
    if (MCA_COLL_HDRING_PERSISTENT == kind) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    const int rc = mca_coll_hdring_prepared_unbuilt(m, comm, a, pick, tag); /* not even a request: blocking, now */
    *request = OMPI_SUCCESS == rc ? &ompi_request_empty : *request;
    return rc;
}

/* A blocking call of a range under trial (coll_hdring_select.h): its candidate run and timed, the time recorded
 * (with the trial's exchanges, on every rank at the same call). A timed call is not traced: rank 0's printing
 * would be in the other ranks' time. */
static int __opal_attribute_noinline__ trial(mca_coll_hdring_module_t *m, struct ompi_communicator_t *comm,
                                             const mca_coll_hdring_args_t *a, mca_coll_hdring_range_t *r)
{
    bool timed;
    const int pick = mca_coll_hdring_select_trial_pick(r, &timed);
    mca_coll_hdring_prepared_t *p = HDRING_PICK_FALLBACK == pick ? NULL : mca_coll_hdring_prepared_get(m, comm, a, pick);
    if (NULL != p) {
        mca_coll_hdring_prepared_settle(p, false);
        if (m->tracing && !timed && traced(m, p, NULL)) {
            trace(m, p, a, MCA_COLL_HDRING_BLOCKING, r);
        }
    }
    /* a collective the candidate makes on this communicator itself (coll/han's set-up at its first call, say)
     * runs outside the trial: the trial's state is this call's */
    m->selecting = false;
    const double start = mca_coll_hdring_now();
    const int rc = NULL != p                        ? mca_coll_hdring_prepared_run(p, a)
                   : HDRING_PICK_FALLBACK == pick ? fallback(m, comm, a, MCA_COLL_HDRING_BLOCKING, NULL)
                                                  : unprepared(m, comm, a, pick, MCA_COLL_HDRING_BLOCKING, NULL);
    const mca_coll_hdring_config_t *cfg = &m->setup->config;
    if (OPAL_UNLIKELY(cfg->select_slow_us > 0) && timed && HDRING_PICK_MODEL == pick &&
        m->setup->rank == cfg->select_slow_rank) { /* a test's slow rank (coll_hdring_select_slow_rank) */
        while (mca_coll_hdring_now() - start < 1e-6 * cfg->select_slow_us) {
        }
    }
    m->selecting = true;
    mca_coll_hdring_select_record(m, comm, r, mca_coll_hdring_now() - start);
    return rc;
}

/* Serves call a of `kind` on module m's communicator comm: the fallback's function, or its prepared call (blocking:
 * run to its end; nonblocking: *request started; persistent: *request made for MPI_Start), as selection picks
 * (coll_hdring_select.h) when it is on. At coll_hdring_verbose >= 1 rank 0 traces the call's decision, at 2
 * whether its schedule was built or cached. An Open MPI status. */
static inline __opal_attribute_always_inline__ int call(mca_coll_hdring_module_t *m, struct ompi_communicator_t *comm, const mca_coll_hdring_args_t *a,
                       mca_coll_hdring_kind_t kind, struct ompi_request_t **request)
{
    const mca_coll_hdring_prepared_t *prev = m->newest;
    int pick = HDRING_PICK_MODEL;
    bool settled = true;
    if (OPAL_UNLIKELY(m->selecting)) {
        mca_coll_hdring_range_t *trying;
        pick = mca_coll_hdring_select_pick(m, a, kind, &settled, &trying);
        if (NULL != trying) {
            return trial(m, comm, a, trying);
        }
    }
    mca_coll_hdring_prepared_t *p = mca_coll_hdring_prepared_get(m, comm, a, pick);
    if (OPAL_UNLIKELY(NULL == p)) {
        return unprepared(m, comm, a, pick, kind, request);
    }
    if (OPAL_UNLIKELY(p->settled != settled)) {
        mca_coll_hdring_prepared_settle(p, settled);
    }
    if (OPAL_UNLIKELY(m->tracing) && traced(m, p, prev)) {
        trace(m, p, a, kind, NULL);
    }
    if (OPAL_UNLIKELY(p->task->fallback)) {
        return fallback(m, comm, a, kind, request);
    }
    if (OPAL_LIKELY(MCA_COLL_HDRING_BLOCKING == kind)) {
        return mca_coll_hdring_prepared_run(p, a);
    }
    mca_coll_hdring_prepared_post(p, a, kind, tag_of(comm, a->coll, kind), request);
    return OMPI_SUCCESS;
}

/* MPI's arguments of each collective, as a call. Every field is named: a call of a few bytes pays for zeroing
 * the struct otherwise. */
#define ARGS(COLL, SBUF, RBUF, COUNT, RCOUNTS, DTYPE, SCOUNT, SDTYPE, OP, ROOT)                                     \
    {.coll = COLL, .sbuf = SBUF, .rbuf = RBUF, .count = (size_t) (COUNT), .rcounts = RCOUNTS, .dtype = DTYPE,       \
     .scount = SCOUNT, .sdtype = SDTYPE, .op = OP, .root = ROOT, .info = NULL}
#define ALLREDUCE ARGS(MCA_COLL_HDRING_ALLREDUCE, sbuf, rbuf, count, NULL, dtype, 0, NULL, op, 0)
#define REDUCE_SCATTER ARGS(MCA_COLL_HDRING_REDUCE_SCATTER, sbuf, rbuf, 0, rcounts, dtype, 0, NULL, op, 0)
#define REDUCE_SCATTER_BLOCK ARGS(MCA_COLL_HDRING_REDUCE_SCATTER_BLOCK, sbuf, rbuf, rcount, NULL, dtype, 0, NULL, op, 0)
#define ALLGATHER ARGS(MCA_COLL_HDRING_ALLGATHER, sbuf, rbuf, rcount, NULL, rdtype, scount, sdtype, NULL, 0)
#define BCAST ARGS(MCA_COLL_HDRING_BCAST, NULL, buf, count, NULL, dtype, 0, NULL, NULL, root)

#define MODULE ((mca_coll_hdring_module_t *) module)

/* The quick path of a blocking call: the module's most recent prepared call, when it is quick (coll_hdring_prepared.h)
 * and was made for a call like this one, which SAME compares field by field without making the call's arguments a
 * struct: run, or handed on to the fallback (HAND_ON, the fallback's call). */
#define QUICK(SAME, SBUF, RBUF, HAND_ON)                                                                              \
    do {                                                                                                              \
        mca_coll_hdring_prepared_t *p_ = MODULE->newest;                                                              \
        if (OPAL_LIKELY(NULL != p_ && MCA_COLL_HDRING_QUICK_NONE != p_->quick)) {                                    \
            const mca_coll_hdring_args_t *c = &p_->call;                                                             \
            if (OPAL_LIKELY(SAME)) {                                                                                 \
                if (OPAL_LIKELY(MCA_COLL_HDRING_QUICK_RUN == p_->quick)) {                                           \
                    return mca_coll_hdring_prepared_run_plain(p_, SBUF, RBUF);                                       \
                }                                                                                                     \
                return HAND_ON;                                                                                       \
            }                                                                                                         \
        }                                                                                                             \
    } while (0)
#define SAME_IN_PLACE(SBUF) ((MPI_IN_PLACE == c->sbuf) == (MPI_IN_PLACE == (SBUF)))
#define FALLBACK(SLOT, ...) MODULE->fallback.coll_##SLOT(__VA_ARGS__, comm, MODULE->fallback.coll_##SLOT##_module)
/* The same for a nonblocking call: the prepared call posted as its request (a call the blocking ones hand on takes
 * hdring's fastest own algorithm instead: the slow path). */
#define IQUICK(SAME, SBUF, RBUF)                                                                                      \
    do {                                                                                                              \
        mca_coll_hdring_prepared_t *p_ = MODULE->newest;                                                              \
        if (OPAL_LIKELY(NULL != p_ && MCA_COLL_HDRING_QUICK_RUN == p_->quick)) {                                     \
            const mca_coll_hdring_args_t *c = &p_->call;                                                             \
            if (OPAL_LIKELY(SAME)) {                                                                                 \
                mca_coll_hdring_prepared_ipost(p_, SBUF, RBUF, ompi_coll_base_nbc_reserve_tags(comm, 1), request);   \
                return OMPI_SUCCESS;                                                                                  \
            }                                                                                                         \
        }                                                                                                             \
    } while (0)

int mca_coll_hdring_allreduce(const void *sbuf, void *rbuf, int count, struct ompi_datatype_t *dtype,
                              struct ompi_op_t *op, struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    QUICK(MCA_COLL_HDRING_ALLREDUCE == c->coll && c->dtype == dtype && c->op == op && c->count == (size_t) count &&
              SAME_IN_PLACE(sbuf),
          sbuf, rbuf, FALLBACK(allreduce, sbuf, rbuf, count, dtype, op));
    const mca_coll_hdring_args_t a = ALLREDUCE;
    return call(MODULE, comm, &a, MCA_COLL_HDRING_BLOCKING, NULL);
}

int mca_coll_hdring_reduce_scatter(const void *sbuf, void *rbuf, const int *rcounts, struct ompi_datatype_t *dtype,
                                   struct ompi_op_t *op, struct ompi_communicator_t *comm,
                                   mca_coll_base_module_t *module)
{
    const mca_coll_hdring_args_t a = REDUCE_SCATTER;
    return call(MODULE, comm, &a, MCA_COLL_HDRING_BLOCKING, NULL);
}

int mca_coll_hdring_reduce_scatter_block(const void *sbuf, void *rbuf, int rcount, struct ompi_datatype_t *dtype,
                                         struct ompi_op_t *op, struct ompi_communicator_t *comm,
                                         mca_coll_base_module_t *module)
{
    QUICK(MCA_COLL_HDRING_REDUCE_SCATTER_BLOCK == c->coll && c->dtype == dtype && c->op == op &&
              c->count == (size_t) rcount && SAME_IN_PLACE(sbuf),
          sbuf, rbuf, FALLBACK(reduce_scatter_block, sbuf, rbuf, rcount, dtype, op));
    const mca_coll_hdring_args_t a = REDUCE_SCATTER_BLOCK;
    return call(MODULE, comm, &a, MCA_COLL_HDRING_BLOCKING, NULL);
}

int mca_coll_hdring_allgather(const void *sbuf, int scount, struct ompi_datatype_t *sdtype, void *rbuf, int rcount,
                              struct ompi_datatype_t *rdtype, struct ompi_communicator_t *comm,
                              mca_coll_base_module_t *module)
{
    QUICK(MCA_COLL_HDRING_ALLGATHER == c->coll && c->dtype == rdtype && c->count == (size_t) rcount &&
              SAME_IN_PLACE(sbuf) && (MPI_IN_PLACE == sbuf || (c->sdtype == sdtype && c->scount == scount)),
          sbuf, rbuf, FALLBACK(allgather, sbuf, scount, sdtype, rbuf, rcount, rdtype));
    const mca_coll_hdring_args_t a = ALLGATHER;
    return call(MODULE, comm, &a, MCA_COLL_HDRING_BLOCKING, NULL);
}

int mca_coll_hdring_bcast(void *buf, int count, struct ompi_datatype_t *dtype, int root,
                          struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    QUICK(MCA_COLL_HDRING_BCAST == c->coll && c->dtype == dtype && c->count == (size_t) count && c->root == root,
          NULL, buf, FALLBACK(bcast, buf, count, dtype, root));
    const mca_coll_hdring_args_t a = BCAST;
    return call(MODULE, comm, &a, MCA_COLL_HDRING_BLOCKING, NULL);
}

int mca_coll_hdring_iallreduce(const void *sbuf, void *rbuf, int count, struct ompi_datatype_t *dtype,
                               struct ompi_op_t *op, struct ompi_communicator_t *comm, ompi_request_t **request,
                               mca_coll_base_module_t *module)
{
    IQUICK(MCA_COLL_HDRING_ALLREDUCE == c->coll && c->dtype == dtype && c->op == op && c->count == (size_t) count &&
               SAME_IN_PLACE(sbuf),
           sbuf, rbuf);
    const mca_coll_hdring_args_t a = ALLREDUCE;
    return call(MODULE, comm, &a, MCA_COLL_HDRING_NONBLOCKING, request);
}

int mca_coll_hdring_ireduce_scatter(const void *sbuf, void *rbuf, const int *rcounts, struct ompi_datatype_t *dtype,
                                    struct ompi_op_t *op, struct ompi_communicator_t *comm, ompi_request_t **request,
                                    mca_coll_base_module_t *module)
{
    const mca_coll_hdring_args_t a = REDUCE_SCATTER;
    return call(MODULE, comm, &a, MCA_COLL_HDRING_NONBLOCKING, request);
}

int mca_coll_hdring_ireduce_scatter_block(const void *sbuf, void *rbuf, int rcount, struct ompi_datatype_t *dtype,
                                          struct ompi_op_t *op, struct ompi_communicator_t *comm,
                                          ompi_request_t **request, mca_coll_base_module_t *module)
{
    IQUICK(MCA_COLL_HDRING_REDUCE_SCATTER_BLOCK == c->coll && c->dtype == dtype && c->op == op &&
               c->count == (size_t) rcount && SAME_IN_PLACE(sbuf),
           sbuf, rbuf);
    const mca_coll_hdring_args_t a = REDUCE_SCATTER_BLOCK;
    return call(MODULE, comm, &a, MCA_COLL_HDRING_NONBLOCKING, request);
}

int mca_coll_hdring_iallgather(const void *sbuf, int scount, struct ompi_datatype_t *sdtype, void *rbuf, int rcount,
                               struct ompi_datatype_t *rdtype, struct ompi_communicator_t *comm,
                               ompi_request_t **request, mca_coll_base_module_t *module)
{
    IQUICK(MCA_COLL_HDRING_ALLGATHER == c->coll && c->dtype == rdtype && c->count == (size_t) rcount &&
               SAME_IN_PLACE(sbuf) && (MPI_IN_PLACE == sbuf || (c->sdtype == sdtype && c->scount == scount)),
           sbuf, rbuf);
    const mca_coll_hdring_args_t a = ALLGATHER;
    return call(MODULE, comm, &a, MCA_COLL_HDRING_NONBLOCKING, request);
}

int mca_coll_hdring_ibcast(void *buf, int count, struct ompi_datatype_t *dtype, int root,
                           struct ompi_communicator_t *comm, ompi_request_t **request, mca_coll_base_module_t *module)
{
    IQUICK(MCA_COLL_HDRING_BCAST == c->coll && c->dtype == dtype && c->count == (size_t) count && c->root == root,
           NULL, buf);
    const mca_coll_hdring_args_t a = BCAST;
    return call(MODULE, comm, &a, MCA_COLL_HDRING_NONBLOCKING, request);
}

int mca_coll_hdring_allreduce_init(const void *sbuf, void *rbuf, int count, struct ompi_datatype_t *dtype,
                                   struct ompi_op_t *op, struct ompi_communicator_t *comm, struct ompi_info_t *info,
                                   ompi_request_t **request, mca_coll_base_module_t *module)
{
    mca_coll_hdring_args_t a = ALLREDUCE;
    a.info = info;
    return call(MODULE, comm, &a, MCA_COLL_HDRING_PERSISTENT, request);
}

int mca_coll_hdring_reduce_scatter_init(const void *sbuf, void *rbuf, const int *rcounts,
                                        struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                                        struct ompi_communicator_t *comm, struct ompi_info_t *info,
                                        ompi_request_t **request, mca_coll_base_module_t *module)
{
    mca_coll_hdring_args_t a = REDUCE_SCATTER;
    a.info = info;
    return call(MODULE, comm, &a, MCA_COLL_HDRING_PERSISTENT, request);
}

int mca_coll_hdring_reduce_scatter_block_init(const void *sbuf, void *rbuf, int rcount, struct ompi_datatype_t *dtype,
                                              struct ompi_op_t *op, struct ompi_communicator_t *comm,
                                              struct ompi_info_t *info, ompi_request_t **request,
                                              mca_coll_base_module_t *module)
{
    mca_coll_hdring_args_t a = REDUCE_SCATTER_BLOCK;
    a.info = info;
    return call(MODULE, comm, &a, MCA_COLL_HDRING_PERSISTENT, request);
}

int mca_coll_hdring_allgather_init(const void *sbuf, int scount, struct ompi_datatype_t *sdtype, void *rbuf,
                                   int rcount, struct ompi_datatype_t *rdtype, struct ompi_communicator_t *comm,
                                   struct ompi_info_t *info, ompi_request_t **request, mca_coll_base_module_t *module)
{
    mca_coll_hdring_args_t a = ALLGATHER;
    a.info = info;
    return call(MODULE, comm, &a, MCA_COLL_HDRING_PERSISTENT, request);
}

int mca_coll_hdring_bcast_init(void *buf, int count, struct ompi_datatype_t *dtype, int root,
                               struct ompi_communicator_t *comm, struct ompi_info_t *info, ompi_request_t **request,
                               mca_coll_base_module_t *module)
{
    mca_coll_hdring_args_t a = BCAST;
    a.info = info;
    return call(MODULE, comm, &a, MCA_COLL_HDRING_PERSISTENT, request);
}
