/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring runs (coll_hdring_run.h).
 */
#include "coll_hdring_run.h"

#include <stdlib.h>

#include "ompi/datatype/ompi_datatype.h"
#include "opal/datatype/opal_convertor.h"

#include "coll_hdring_memory.h"
#include "coll_hdring_pml.h"
#include "coll_hdring_task.h"

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

static bool is_root(const mca_coll_hdring_run_t *run, const mca_coll_hdring_args_t *a)
{
    return MCA_COLL_HDRING_BCAST == run->task->key.coll && ompi_comm_rank(run->t.comm) == a->root;
}

/* Room for the widest nonblocking exchange of the schedule: the run's own, or memory taken for it. */
static bool room(mca_coll_hdring_run_t *run)
{
    const int widest = run->task->recorded ? run->task->sched.widest : 0;
    if (widest <= MCA_COLL_HDRING_RUN_SIDES) {
        mca_coll_hdring_pml_room(&run->t, run->sides, MCA_COLL_HDRING_RUN_SIDES, run->reqs,
                                 MCA_COLL_HDRING_RUN_SIDES * HDRING_MAX_PIECES);
        return true;
    }
    const size_t sides = (size_t) widest * sizeof(mca_coll_hdring_pml_side_t);
    run->wide = malloc(sides + (size_t) widest * HDRING_MAX_PIECES * sizeof(struct ompi_request_t *));
    if (NULL != run->wide) {
        mca_coll_hdring_pml_room(&run->t, run->wide, widest, (struct ompi_request_t **) ((char *) run->wide + sides),
                                 widest * HDRING_MAX_PIECES);
    }
    return NULL != run->wide;
}

/* Whether a run of task packs its message into scratch: a bcast on bytes that do not lie in one run. */
static bool packs(const mca_coll_hdring_task_t *task)
{
    return task->on_bytes && !(task->key.flags & MCA_COLL_HDRING_KEY_CONTIGUOUS);
}

/* The call's buffers as the schedule names them, and what the collective does before its algorithm. */
static void set_buffers(mca_coll_hdring_run_t *run, const mca_coll_hdring_args_t *a)
{
    const mca_coll_hdring_task_t *task = run->task;
    mca_coll_hdring_pml_t *t = &run->t;
    const bool pack = packs(task);
    int rc;

    rc = mca_coll_hdring_scratch_acquire(run->scratch, t, &run->layout, &run->own_scratch);
    if (OMPI_SUCCESS != rc) {
        mca_coll_hdring_pml_poison(t, rc);
    }
    switch (task->key.coll) {
    case MCA_COLL_HDRING_BCAST:
        run->buf = a->rbuf;
        run->count = (int) a->count;
        run->dtype = a->dtype;
        if (!task->on_bytes) {
            t->base[HDRING_BUF_OUT] = a->rbuf;
        } else if (!pack) {
            ptrdiff_t true_lb, true_extent;
            ompi_datatype_get_true_extent(a->dtype, &true_lb, &true_extent);
            t->base[HDRING_BUF_OUT] = (char *) a->rbuf + true_lb;
        } else if (!t->poisoned) {
            run->packed = t->base[HDRING_BUF_OUT] = t->base[HDRING_BUF_TMP] + task->scratch.tmp;
            if (is_root(run, a) && OMPI_SUCCESS != (rc = convert(a->rbuf, run->count, a->dtype, run->packed,
                                                                 task->bytes, true))) {
                mca_coll_hdring_pml_poison(t, rc);
            }
        }
        break;
    case MCA_COLL_HDRING_ALLGATHER:
        t->base[HDRING_BUF_OUT] = a->rbuf;
        if (MPI_IN_PLACE != a->sbuf && !t->poisoned) {
            const size_t at = (size_t) ompi_comm_rank(t->comm) * task->key.count;
            rc = mca_coll_hdring_pml_contribute(t, at, task->key.count, a->sbuf, a->scount, a->sdtype,
                                                task->fills_in_flight);
            if (OMPI_SUCCESS != rc) {
                mca_coll_hdring_pml_poison(t, rc);
            }
        }
        break;
    default:
        t->base[HDRING_BUF_IN] = (char *) (MPI_IN_PLACE == a->sbuf ? a->rbuf : a->sbuf);
        t->base[HDRING_BUF_OUT] = a->rbuf;
        break;
    }
}

void mca_coll_hdring_run_init(mca_coll_hdring_run_t *run, mca_coll_hdring_module_t *m,
                              struct ompi_communicator_t *comm, const mca_coll_hdring_task_t *task,
                              const mca_coll_hdring_args_t *a, int tag, bool blocking,
                              mca_coll_hdring_scratch_t *scratch)
{
    const mca_coll_hdring_setup_t *s = m->setup;
    const mca_coll_hdring_coll_t coll = task->key.coll;
    const bool reduces = MCA_COLL_HDRING_ALLGATHER != coll && MCA_COLL_HDRING_BCAST != coll;

    run->task = task;
    run->blocking = blocking;
    run->scratch = scratch;
    run->own_scratch = NULL;
    run->packed = NULL;
    run->wide = NULL;
    run->status = HDRING_PENDING;
    if (!blocking) { /* blocking runs use the module's */
        run->tables = (mca_coll_hdring_tables_t) {0};
    }
    mca_coll_hdring_pml_init(&run->t, comm, tag, task->on_bytes ? MPI_BYTE : a->dtype, reduces ? a->op : NULL,
                             &s->topo, task->locality_order, s->pieces_bytes[coll], s->config.max_message_elements,
                             blocking ? &m->tables : &run->tables);
    if (!blocking && !room(run)) {
        run->blocking = true; /* no memory for its exchanges in flight: it runs to the end in its first call */
    }
    hdring_scratch_t need = task->scratch;
    if (packs(task)) {
        need.tmp += task->bytes; /* the packed message after the algorithm's own */
    }
    mca_coll_hdring_scratch_layout(run->t.dtype, need, &run->layout);
    set_buffers(run, a);
    if (task->recorded) {
        hdring_exec_init(&run->exec, &task->sched);
    }
}

static inline int progress(mca_coll_hdring_run_t *run)
{
    const mca_coll_hdring_task_t *task = run->task;
    const int rc = task->recorded ? hdring_exec_run(&run->exec, &run->t.xport, run->blocking)
                                  : hdring_run(&run->t.xport, task->alg, &task->args);
    if (HDRING_PENDING == rc) {
        return HDRING_PENDING;
    }
    run->status = rc;
    return HDRING_OK;
}

static inline int end(mca_coll_hdring_run_t *run)
{
    mca_coll_hdring_pml_t *t = &run->t;
    int rc = OPAL_LIKELY(HDRING_OK == run->status && !t->poisoned) ? t->same_bytes.fill_status
                                                                    : mca_coll_hdring_pml_error(t, run->status);
    if (OMPI_SUCCESS == rc && NULL != run->packed && ompi_comm_rank(t->comm) != run->task->key.root) {
        rc = convert(run->buf, run->count, run->dtype, run->packed, run->task->bytes, false);
    }
    if (OPAL_UNLIKELY(mca_coll_hdring_pml_in_flight(t))) {
        mca_coll_hdring_pml_withdraw(t);
    }
    if (NULL != run->own_scratch) {
        free(run->own_scratch);
    }
    if (NULL != run->wide) {
        free(run->wide);
    }
    if (t->tables == &run->tables) {
        mca_coll_hdring_tables_free(&run->tables);
    } else if (0 != t->tables->used) {
        mca_coll_hdring_tables_release(t->tables);
    }
    return rc;
}

/* Run, prepared before for call a and ended since, prepared again: what a run changes is reset, the rest kept. */
static void rearm(mca_coll_hdring_run_t *run, const mca_coll_hdring_args_t *a)
{
    run->own_scratch = NULL;
    run->packed = NULL;
    run->status = HDRING_PENDING;
    mca_coll_hdring_pml_again(&run->t);
    set_buffers(run, a);
    if (run->task->recorded) {
        hdring_exec_init(&run->exec, &run->task->sched);
    }
}

int mca_coll_hdring_run_repeat(mca_coll_hdring_run_t *run, const mca_coll_hdring_args_t *a)
{
    run->wide = NULL;
    rearm(run, a);
    (void) progress(run);
    return end(run);
}

void mca_coll_hdring_run_restart(mca_coll_hdring_run_t *run, const mca_coll_hdring_args_t *a)
{
    run->wide = NULL;
    run->blocking = !room(run); /* as run_init found it */
    rearm(run, a);
}

int mca_coll_hdring_run_progress(mca_coll_hdring_run_t *run)
{
    return progress(run);
}

int mca_coll_hdring_run_end(mca_coll_hdring_run_t *run)
{
    return end(run);
}

int mca_coll_hdring_run_unbuilt(mca_coll_hdring_module_t *m, struct ompi_communicator_t *comm,
                                const mca_coll_hdring_key_t *key, const mca_coll_hdring_args_t *a, int tag)
{
    mca_coll_hdring_task_t task;
    size_t displ[257];
    const mca_coll_hdring_tables_t kept = m->tables;
    if (!mca_coll_hdring_tables_reserve(&m->tables)) {
        return OMPI_ERR_OUT_OF_RESOURCE; /* another thread short of memory has the reserve */
    }
    int rc = OMPI_ERR_OUT_OF_RESOURCE;
    if (mca_coll_hdring_task_fill(m->setup, key, &task, displ, 257, &m->tables)) {
        rc = OMPI_ERR_NOT_SUPPORTED;
    }
    if (OMPI_ERR_NOT_SUPPORTED == rc && !task.fallback) {
        mca_coll_hdring_run_t run;
        mca_coll_hdring_run_init(&run, m, comm, &task, a, tag, true, &m->scratch);
        (void) mca_coll_hdring_run_progress(&run);
        rc = mca_coll_hdring_run_end(&run);
    }
    mca_coll_hdring_tables_unreserve(&m->tables);
    m->tables = kept;
    return rc;
}
