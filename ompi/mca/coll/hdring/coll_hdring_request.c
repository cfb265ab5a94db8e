/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring requests (coll_hdring_request.h).
 */
#include "coll_hdring_request.h"

#include "opal/class/opal_list.h"
#include "opal/runtime/opal_progress.h"
#include "ompi/mca/coll/base/coll_base_util.h"
#include "ompi/request/request.h"

#include "coll_hdring_cache.h"
#include "coll_hdring_memory.h"
#include "coll_hdring_run.h"
#include "coll_hdring_task.h"
#include "coll_hdring_util.h"

typedef struct mca_coll_hdring_request {
    ompi_coll_base_nbc_request_t super;
    mca_coll_hdring_module_t *module; /* retained, as is comm, while the request exists */
    struct ompi_communicator_t *comm;
    mca_coll_hdring_task_t *task;     /* referenced; NULL while this rank has no memory to build it */
    mca_coll_hdring_key_t key;        /* its key (a reduce_scatter's counts: the caller's array) */
    mca_coll_hdring_args_t args;      /* the call's, for every start */
    int tag;
    mca_coll_hdring_scratch_t scratch; /* kept from start to start, and from call to call while it is spare */
    bool prepared;                     /* run was prepared by an earlier start: the next one rearms it */
    mca_coll_hdring_run_t run;
} mca_coll_hdring_request_t;

static int request_start(size_t count, struct ompi_request_t **requests);
static int request_free(struct ompi_request_t **request);
static int request_cancel(struct ompi_request_t *request, int complete);

static void request_construct(mca_coll_hdring_request_t *r)
{
    r->super.super.req_type = OMPI_REQUEST_COLL;
    r->super.super.req_status._cancelled = 0;
    r->super.super.req_start = request_start;
    r->super.super.req_free = request_free;
    r->super.super.req_cancel = request_cancel;
    r->scratch = (mca_coll_hdring_scratch_t) {0};
}

static void request_destruct(mca_coll_hdring_request_t *r)
{
    mca_coll_hdring_scratch_free(&r->scratch);
}

OBJ_CLASS_INSTANCE(mca_coll_hdring_request_t, ompi_coll_base_nbc_request_t, request_construct, request_destruct);

#define SPARE_REQUESTS 64
#define OPENING_REQUESTS 4 /* made at open: a call short of memory still finds one */
/* The scratch a request keeps: a persistent one as much as a module keeps for its blocking calls; a nonblocking one,
 * and a spare one, this much (small calls then allocate nothing; large ones are dominated by their data). */
#define SPARE_SCRATCH_BYTES (64 << 10)
static mca_coll_hdring_request_t *spare[SPARE_REQUESTS]; /* freed requests kept for the next calls, with `lock` */
static int nspare;
static opal_list_t active;     /* started and not complete, with `lock` */
static opal_mutex_t lock;
static bool progressing;       /* a thread is in progress(): one at a time, never recursively */
static bool registered;        /* progress() is registered with Open MPI's progress engine (at open: registering
                                  takes memory, which a call may not find) */

/* Completes a request whose run progress reported done. */
static void complete(mca_coll_hdring_request_t *r)
{
    r->super.super.req_status.MPI_ERROR = mca_coll_hdring_run_end(&r->run);
    ompi_request_complete(&r->super.super, true);
}

/* Advances every request in flight; how many completed. Open MPI's progress engine calls it. */
static int progress(void)
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
    mca_coll_hdring_request_t *r, *next;
    OPAL_LIST_FOREACH_SAFE (r, next, &active, mca_coll_hdring_request_t) {
        OPAL_THREAD_UNLOCK(&lock);
        const int rc = mca_coll_hdring_run_progress(&r->run);
        OPAL_THREAD_LOCK(&lock);
        if (HDRING_PENDING != rc) {
            opal_list_remove_item(&active, &r->super.super.super.super);
            OPAL_THREAD_UNLOCK(&lock);
            complete(r);
            ++completed;
            OPAL_THREAD_LOCK(&lock);
        }
    }
    progressing = false;
    OPAL_THREAD_UNLOCK(&lock);
    return completed;
}

/* Starts r's run: its first steps posted; complete at once if that finished it, in flight otherwise. A request
 * without its task builds it now, or runs the algorithm without it, to its end. */
static void start(mca_coll_hdring_request_t *r)
{
    bool built;
    r->super.super.req_state = OMPI_REQUEST_ACTIVE;
    r->super.super.req_complete = REQUEST_PENDING;
    r->super.super.req_status.MPI_ERROR = hdring_comm_failed(r->comm);
    if (OMPI_SUCCESS != r->super.super.req_status.MPI_ERROR) { /* a start after a failure: its error at once */
        ompi_request_complete(&r->super.super, true);
        return;
    }
    if (NULL == r->task && NULL == (r->task = mca_coll_hdring_task_get(r->module->setup, &r->key, &built))) {
        r->super.super.req_status.MPI_ERROR = mca_coll_hdring_run_unbuilt(r->module, r->comm, &r->key, &r->args,
                                                                          r->tag);
        ompi_request_complete(&r->super.super, true);
        return;
    }
    if (r->prepared) {
        mca_coll_hdring_run_restart(&r->run, &r->args);
    } else {
        mca_coll_hdring_run_init(&r->run, r->module, r->comm, r->task, &r->args, r->tag, false, &r->scratch);
        r->prepared = true;
    }
    if (HDRING_PENDING != mca_coll_hdring_run_progress(&r->run)) {
        complete(r);
        return;
    }
    OPAL_THREAD_LOCK(&lock);
    opal_list_append(&active, &r->super.super.super.super);
    OPAL_THREAD_UNLOCK(&lock);
}

static int request_start(size_t count, struct ompi_request_t **requests)
{
    for (size_t i = 0; i < count; ++i) {
        mca_coll_hdring_request_t *r = (mca_coll_hdring_request_t *) requests[i];
        if (!REQUEST_COMPLETE(&r->super.super)) {
            return OMPI_ERR_REQUEST; /* started twice */
        }
        start(r);
    }
    return OMPI_SUCCESS;
}

static int request_free(struct ompi_request_t **request)
{
    mca_coll_hdring_request_t *r = (mca_coll_hdring_request_t *) *request;
    if (!REQUEST_COMPLETE(&r->super.super)) {
        return MPI_ERR_REQUEST; /* a collective in flight cannot be freed (MPI forbids it) */
    }
    if (NULL != r->task) {
        mca_coll_hdring_task_release(r->task);
    }
    OBJ_RELEASE(r->comm);
    OBJ_RELEASE(r->module);
    OMPI_REQUEST_FINI(&r->super.super);
    if (r->scratch.bytes > SPARE_SCRATCH_BYTES) {
        mca_coll_hdring_scratch_free(&r->scratch);
    }
    OPAL_THREAD_LOCK(&lock);
    const bool kept = nspare < SPARE_REQUESTS;
    if (kept) {
        spare[nspare++] = r;
    }
    OPAL_THREAD_UNLOCK(&lock);
    if (!kept) {
        OBJ_RELEASE(r);
    }
    *request = MPI_REQUEST_NULL;
    return OMPI_SUCCESS;
}

static int request_cancel(struct ompi_request_t *request, int complete_flag)
{
    (void) request;
    (void) complete_flag;
    return MPI_ERR_REQUEST; /* collectives cannot be cancelled */
}

int mca_coll_hdring_request_new(mca_coll_hdring_module_t *m, struct ompi_communicator_t *comm,
                                mca_coll_hdring_task_t *task, const mca_coll_hdring_key_t *key,
                                const mca_coll_hdring_args_t *a, int tag, bool persistent,
                                struct ompi_request_t **request)
{
    mca_coll_hdring_request_t *r = NULL;
    if (!registered) { /* nothing would advance it */
        return OMPI_ERR_NOT_AVAILABLE;
    }
    OPAL_THREAD_LOCK(&lock);
    if (nspare > 0) {
        r = spare[--nspare];
    }
    OPAL_THREAD_UNLOCK(&lock);
    if (NULL == r && NULL == (r = OBJ_NEW(mca_coll_hdring_request_t))) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    OMPI_REQUEST_INIT(&r->super.super, persistent);
    r->super.super.req_mpi_object.comm = comm;
    OBJ_RETAIN(m);
    OBJ_RETAIN(comm);
    r->module = m;
    r->comm = comm;
    r->task = task;
    r->key = *key;
    r->args = *a;
    r->tag = tag;
    r->prepared = false;
    r->scratch.limit = persistent ? m->setup->config.scratch_cache_bytes : SPARE_SCRATCH_BYTES;
    *request = &r->super.super;
    if (!persistent) {
        start(r);
    }
    return OMPI_SUCCESS;
}

void mca_coll_hdring_request_open(void)
{
    OBJ_CONSTRUCT(&active, opal_list_t);
    OBJ_CONSTRUCT(&lock, opal_mutex_t);
    nspare = 0;
    while (nspare < OPENING_REQUESTS && NULL != (spare[nspare] = OBJ_NEW(mca_coll_hdring_request_t))) {
        ++nspare;
    }
    progressing = false;
    registered = OPAL_SUCCESS == opal_progress_register(progress);
}

void mca_coll_hdring_request_close(void)
{
    if (registered) {
        opal_progress_unregister(progress);
        registered = false;
    }
    while (nspare > 0) {
        mca_coll_hdring_request_t *r = spare[--nspare]; /* OBJ_RELEASE evaluates its argument more than once */
        OBJ_RELEASE(r);
    }
    OBJ_DESTRUCT(&active);
    OBJ_DESTRUCT(&lock);
}
