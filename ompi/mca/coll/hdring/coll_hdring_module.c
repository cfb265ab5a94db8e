/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring module (coll_hdring_module.h): per-communicator query, enable (keep the fallback, check the
 * parameters, place the ranks) and disable.
 *
 * Selection enables modules in ascending priority and copies each module's non-NULL slots into the
 * communicator after its enable, so when our enable runs, comm->c_coll holds the best lower-priority
 * implementation of every collective. We keep (and retain) that pair for each collective and kind we provide and
 * hand it every call we decline; a nonblocking or persistent slot whose fallback is missing, or that
 * coll_hdring_nonblocking turns off, is not offered. The framework calls disable once per slot we own, so
 * releasing is idempotent.
 */
#include "coll_hdring_module.h"

#include <stdlib.h>
#include <string.h>

#include "opal/mca/base/mca_base_var.h"
#include "ompi/mca/coll/base/base.h"

#include "coll_hdring_agreement.h"
#include "coll_hdring_call.h"
#include "coll_hdring_memory.h"
#include "coll_hdring_prepared.h"
#include "coll_hdring_select.h"
#include "coll_hdring_setup.h"
#include "coll_hdring_tolerant.h"
#include "coll_hdring_util.h"

static int hdring_module_enable(mca_coll_base_module_t *module, struct ompi_communicator_t *comm);
static int hdring_module_disable(mca_coll_base_module_t *module, struct ompi_communicator_t *comm);

/* Every slot hdring fills: X(slot name). */
#define BLOCKING_SLOTS(X) X(allreduce) X(reduce_scatter) X(reduce_scatter_block) X(allgather) X(bcast)
#define NONBLOCKING_SLOTS(X)                                                                                         \
    X(iallreduce) X(ireduce_scatter) X(ireduce_scatter_block) X(iallgather) X(ibcast) X(allreduce_init)             \
    X(reduce_scatter_init) X(reduce_scatter_block_init) X(allgather_init) X(bcast_init)

static void release_fallback(mca_coll_hdring_module_t *m)
{
    if (!m->fallback_retained) {
        return;
    }
#define RELEASE(api)                                                                                                 \
    if (NULL != m->fallback.coll_##api##_module) {                                                                   \
        OBJ_RELEASE(m->fallback.coll_##api##_module);                                                                \
    }                                                                                                                \
    m->fallback.coll_##api = NULL;
    BLOCKING_SLOTS(RELEASE)
    NONBLOCKING_SLOTS(RELEASE)
#undef RELEASE
    m->fallback_retained = false;
}

static void hdring_module_construct(mca_coll_hdring_module_t *m)
{
    memset(&m->fallback, 0, sizeof(m->fallback));
    m->fallback_retained = false;
    m->setup = NULL;
    m->plain_allreduce = mca_coll_hdring_allreduce;
    m->newest = m->oldest = NULL;
    m->nprepared = 0;
    m->tracing = false;
    m->selecting = false;
    m->select = NULL;
    m->scratch = (mca_coll_hdring_scratch_t) {0};
}

static void hdring_module_destruct(mca_coll_hdring_module_t *m)
{
    release_fallback(m);
    mca_coll_hdring_prepared_forget_all(m);
    if (NULL != m->setup) {
        mca_coll_hdring_setup_release(m->setup);
    }
    mca_coll_hdring_scratch_free(&m->scratch);
    mca_coll_hdring_select_free(m->select);
}

OBJ_CLASS_INSTANCE(mca_coll_hdring_module_t, mca_coll_base_module_t, hdring_module_construct,
                   hdring_module_destruct);

/*
 * Once per process, at MPI_Init. With hdring as the only coll component (--mca coll hdring) no communicator
 * can get barrier, alltoall, ...: say why, with a command line that works, and decline, as Open MPI's components
 * do when they cannot run; Open MPI then stops the job.
 */
int mca_coll_hdring_init_query(bool enable_progress_threads, bool enable_mpi_threads)
{
    (void) enable_progress_threads;
    (void) enable_mpi_threads;
    if (mca_coll_hdring_report_bad_values()) {
        ompi_rte_abort(1, NULL); /* the job: every process finds the same names */
    }
    if (1 == opal_list_get_size(&ompi_coll_base_framework.framework_components)) {
        /* tuned is not loaded to ask: its default. An opt-in install must also raise the priority. */
        mca_coll_hdring_report(mca_coll_hdring_priority > 30 ? "hdring alone" : "hdring alone, off",
                               ompi_process_info.nodename, mca_coll_hdring_priority);
        return OMPI_ERR_NOT_AVAILABLE;
    }
    return OMPI_SUCCESS;
}

mca_coll_base_module_t *mca_coll_hdring_comm_query(struct ompi_communicator_t *comm, int *priority)
{
    /* Read now, not at registration: MPI_T writes between communicator creations take effect. */
    *priority = mca_coll_hdring_priority;
    if (*priority < 0 || OMPI_COMM_IS_INTER(comm)) {
        return NULL;
    }
    mca_coll_hdring_module_t *m = OBJ_NEW(mca_coll_hdring_module_t);
    if (NULL == m) {
        return NULL;
    }
    if (NULL == (m->select = mca_coll_hdring_select_new())) { /* now, not later on some ranks only */
        OBJ_RELEASE(m);
        return NULL;
    }
    m->super.coll_module_enable = hdring_module_enable;
    m->super.coll_module_disable = hdring_module_disable;
#define OFFER(api) m->super.coll_##api = mca_coll_hdring_##api;
    BLOCKING_SLOTS(OFFER)
    NONBLOCKING_SLOTS(OFFER)
#undef OFFER
    return &m->super;
}

/* tuned's priority, or -1 if tuned is not loaded */
static int tuned_priority(void)
{
    const int idx = mca_base_var_find("ompi", "coll", "tuned", "priority");
    const void *value = NULL;
    if (idx < 0 || OPAL_SUCCESS != mca_base_var_get_value(idx, &value, NULL, NULL) || NULL == value) {
        return -1;
    }
    return *(const int *) value;
}

/*
 * Once per process: a communicator had nothing below hdring to hand calls to. Either hdring's priority is below
 * tuned's (then tuned serves everything anyway: say how to use hdring), or the coll selection left out Open
 * MPI's own components.
 */
static void report_no_fallback(const char *missing)
{
    static bool reported = false;
    if (reported) {
        return;
    }
    reported = true;
    const int tuned = tuned_priority();
    if (mca_coll_hdring_priority <= tuned) {
        mca_coll_hdring_report("priority below tuned", mca_coll_hdring_priority, tuned);
    } else {
        mca_coll_hdring_report("no fallback", ompi_process_info.nodename, missing, mca_coll_hdring_priority);
    }
}

static int hdring_module_enable(mca_coll_base_module_t *module, struct ompi_communicator_t *comm)
{
    mca_coll_hdring_module_t *m = (mca_coll_hdring_module_t *) module;
    const mca_coll_base_comm_coll_t *below = comm->c_coll;
    const char *missing = NULL;
    mca_coll_hdring_config_t cfg;
    const unsigned generation = mca_coll_hdring_config_snapshot(&cfg);

#define REQUIRE(api)                                                                                                 \
    if (NULL == missing && NULL == below->coll_##api##_module) {                                                     \
        missing = #api;                                                                                              \
    }
    BLOCKING_SLOTS(REQUIRE)
#undef REQUIRE
    if (NULL != missing) {
        report_no_fallback(missing);
        return OMPI_ERR_NOT_FOUND;
    }
    /* keep what is below every slot offered; offer no nonblocking or persistent slot that has nothing below or
     * that the parameters leave to the next component */
#define SAVE(api)                                                                                                    \
    if (NULL != below->coll_##api && NULL != below->coll_##api##_module) {                                           \
        m->fallback.coll_##api = below->coll_##api;                                                                  \
        m->fallback.coll_##api##_module = below->coll_##api##_module;                                                \
        OBJ_RETAIN(m->fallback.coll_##api##_module);                                                                 \
    }
#define WITHDRAW(api)                                                                                                \
    if (NULL == m->fallback.coll_##api || 0 == cfg.nonblocking) {                                                    \
        m->super.coll_##api = NULL;                                                                                  \
    }
    BLOCKING_SLOTS(SAVE)
    NONBLOCKING_SLOTS(SAVE)
    NONBLOCKING_SLOTS(WITHDRAW)
#undef SAVE
#undef WITHDRAW
    m->fallback_retained = true;
    /* First that every rank decides alike (where ranks sit depends on the node map too), then where the ranks
     * sit. Either fails on ranks that disagree, out of memory, or if the communicator cannot carry a message:
     * then hdring does not serve this communicator. */
    int rc = mca_coll_hdring_agreement(&cfg, comm);
    if (OMPI_SUCCESS == rc) {
        rc = mca_coll_hdring_setup_get(comm, &cfg, generation, &m->setup);
    }
    m->scratch.limit = cfg.scratch_cache_bytes;
    m->tracing = 0 != cfg.verbose || 0 != cfg.trace_changes;
    if (OMPI_SUCCESS != rc) {
        release_fallback(m);
        return rc;
    }
    const bool tolerant = MCA_COLL_HDRING_TOLERANT_POSSIBLE && 0 != cfg.tolerant;
    if (tolerant) {
        m->super.coll_allreduce = mca_coll_hdring_tolerant_allreduce; /* it runs plain_allreduce first */
    }
    mca_coll_hdring_select_enable(m, tolerant);
    return rc;
}

static int hdring_module_disable(mca_coll_base_module_t *module, struct ompi_communicator_t *comm)
{
    (void) comm;
    release_fallback((mca_coll_hdring_module_t *) module);
    return OMPI_SUCCESS;
}
