/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring module: per-communicator query, enable (keep the fallback) and disable, and the states modules
 * keep for their calls (mca_coll_hdring_state_t), reused from one communicator to the next.
 *
 * Selection enables modules in ascending priority and copies each module's non-NULL slots into the
 * communicator, so when our enable runs, comm->c_coll holds the best lower-priority implementation of every
 * collective. We keep (and retain) that pair for each collective we provide and hand it every call we
 * decline. In 4.1 the framework calls disable once per slot we own, so releasing is idempotent.
 */
#include "ompi_config.h"

#include <stdlib.h>
#include <string.h>

#include "opal/mca/base/mca_base_var.h"
#include "ompi/mca/coll/base/base.h"

#include "coll_hdring.h"

static int hdring_module_enable(mca_coll_base_module_t *module, struct ompi_communicator_t *comm);
static int hdring_module_disable(mca_coll_base_module_t *module, struct ompi_communicator_t *comm);

/* As Open MPI 5's MCA_COLL_SAVE_API: keep the communicator's current function and module of one collective, with
 * a reference on the module; and drop them when the module goes. */
#define SAVE_FALLBACK(m, below, api)                                                                                 \
    do {                                                                                                           \
        (m)->fallback.coll_##api = (below)->coll_##api;                                                            \
        (m)->fallback.coll_##api##_module = (below)->coll_##api##_module;                                          \
        OBJ_RETAIN((m)->fallback.coll_##api##_module);                                                             \
    } while (0)

#define RELEASE_FALLBACK(m, api)                                                                                     \
    do {                                                                                                           \
        OBJ_RELEASE((m)->fallback.coll_##api##_module);                                                            \
        (m)->fallback.coll_##api = NULL;                                                                           \
    } while (0)

static void release_fallback(mca_coll_hdring_module_t *m)
{
    if (!m->fallback_retained) {
        return;
    }
    RELEASE_FALLBACK(m, allreduce);
    RELEASE_FALLBACK(m, reduce_scatter);
    RELEASE_FALLBACK(m, reduce_scatter_block);
    RELEASE_FALLBACK(m, allgather);
    RELEASE_FALLBACK(m, bcast);
    m->fallback_retained = false;
}

/* Spare states (mca_coll_hdring_state_t), as modules gave them back: a process that creates and frees
 * communicators one after another reuses one; a few are kept beyond the communicators alive, none beyond that. */
#define MAX_SPARE_STATES 4
static mca_coll_hdring_state_t *spare_states[MAX_SPARE_STATES];
static int nspare_states;

/* A state as a new communicator's: the flags only. The schedules and kept calls are set up when their collective
 * first runs (mca_coll_hdring_run): a communicator that makes one call, or none, should not pay for clearing
 * them. A spare keeps its plans, schedules and parked calls until the communicator's placement is known
 * (adopt_or_forget). */
static mca_coll_hdring_state_t *take_state(void)
{
    mca_coll_hdring_state_t *s = NULL;
    OPAL_THREAD_LOCK(&mca_coll_hdring_component.lock);
    if (nspare_states > 0) {
        s = spare_states[--nspare_states];
    }
    OPAL_THREAD_UNLOCK(&mca_coll_hdring_component.lock);
    if (NULL == s) {
        if (NULL == (s = malloc(sizeof(*s)))) {
            return NULL;
        }
        for (int c = 0; c < MCA_COLL_HDRING_NCOLLS; ++c) {
            s->repeat[c].armed = false;
        }
        s->ran = s->parked = 0;
        s->planned.valid = false;
    }
    s->scratch.mem = s->scratch.first.bytes;
    s->scratch.bytes = sizeof(s->scratch.first);
    s->tables.mem = NULL;
    s->tables.bytes = s->tables.used = 0;
    s->tables.spill = NULL;
    return s;
}

/* Frees the schedules and kept calls of the collectives in `which`: they are set up afresh when next run. */
static void forget_calls(mca_coll_hdring_state_t *s, unsigned which)
{
    for (int c = 0; c < MCA_COLL_HDRING_NCOLLS; ++c) {
        if (0 != (which & 1u << c)) {
            mca_coll_hdring_repeat_free(s, (mca_coll_hdring_coll_t) c);
            hdring_schedule_free(&s->schedule[c]);
        }
    }
    s->ran &= ~which;
    s->parked &= ~which;
}

/* A state no module will take again, with everything its calls allocated. */
static void free_state(mca_coll_hdring_state_t *s)
{
    forget_calls(s, s->ran);
    free(s);
}

/*
 * What m's state keeps from the communicator it served before. Its plans (and last choices) if that one had
 * the same size, shape and parameters: the model is asked for the first of a series of such communicators only.
 * Its schedules and parked calls if, besides, both hold one node's ranks in rank order and this process has the
 * same rank in both: an algorithm then sends the same messages to the same ranks, and a schedule or kept call
 * holds nothing of the old communicator but its handle, replaced here. A program that duplicates a
 * communicator for each call (dup, a call, free) then takes the repeat path from the third communicator on,
 * as it would from the third call on one communicator. Everything else is made afresh, when first used.
 */
static void adopt_or_forget(mca_coll_hdring_module_t *m, struct ompi_communicator_t *comm)
{
    mca_coll_hdring_state_t *s = m->state;
    const int p = ompi_comm_size(comm), rank = ompi_comm_rank(comm);
    const bool trivial = 1 == m->topo.shape.nodes && NULL == m->topo.order;
    const bool same = s->planned.valid && s->planned.p == p && s->planned.generation == s->generation &&
                      hdring_shape_equal(&s->planned.shape, &m->topo.shape);

    if (!same) {
        for (int c = 0; c < MCA_COLL_HDRING_NCOLLS; ++c) {
            s->plan[c][0].built = s->plan[c][1].built = false;
            s->plan[c][0].has_last = s->plan[c][1].has_last = false;
        }
    }
    if (same && trivial && s->planned.trivial && s->planned.rank == rank) {
        for (int c = 0; c < MCA_COLL_HDRING_NCOLLS; ++c) {
            if (0 != (s->parked & 1u << c)) {
                mca_coll_hdring_repeat_adopt(m, (mca_coll_hdring_coll_t) c, comm);
            }
        }
        if (0 != s->parked && s->config.verbose >= 3 && 0 == rank) {
            opal_output(mca_coll_hdring_component.output, "hdring: communicator of %d ranks keeps the repeat path "
                        "of the previous one of the same placement (%d collectives)", p, __builtin_popcount(s->parked));
        }
        s->parked = 0;
    } else {
        forget_calls(s, s->ran);
    }
    s->planned.valid = true;
    s->planned.p = p;
    s->planned.rank = rank;
    s->planned.generation = s->generation;
    s->planned.shape = m->topo.shape;
    s->planned.trivial = trivial;
}

/* Frees what the module's calls allocated, and keeps its state as a spare if there is room: with its schedules,
 * and its kept calls parked, when the next communicator may adopt them (its placement trivial, its scratch never
 * grown, so that the kept calls' offsets into it hold in the state's first block). */
static void give_back_state(mca_coll_hdring_module_t *m)
{
    mca_coll_hdring_state_t *s = m->state;
    const bool keep = s->planned.valid && s->planned.trivial && s->scratch.mem == s->scratch.first.bytes;
    for (int c = 0; c < MCA_COLL_HDRING_NCOLLS; ++c) {
        if (0 != (s->ran & 1u << c) && mca_coll_hdring_repeat_park(s, (mca_coll_hdring_coll_t) c) && keep) {
            s->parked |= 1u << c;
        }
    }
    mca_coll_hdring_scratch_free(m);
    if (!keep) {
        forget_calls(s, s->ran);
    }
    m->state = NULL;
    OPAL_THREAD_LOCK(&mca_coll_hdring_component.lock);
    if (nspare_states < MAX_SPARE_STATES) {
        spare_states[nspare_states++] = s;
        s = NULL;
    }
    OPAL_THREAD_UNLOCK(&mca_coll_hdring_component.lock);
    if (NULL != s) {
        free_state(s);
    }
}

void mca_coll_hdring_free_spare_states(void)
{
    while (nspare_states > 0) {
        free_state(spare_states[--nspare_states]);
    }
}

static void hdring_module_construct(mca_coll_hdring_module_t *m)
{
    memset(&m->topo, 0, sizeof(m->topo));
    memset(&m->fallback, 0, sizeof(m->fallback));
    m->fallback_retained = false;
    m->state = NULL;
}

static void hdring_module_destruct(mca_coll_hdring_module_t *m)
{
    release_fallback(m);
    if (NULL != m->state) {
        give_back_state(m);
    }
    hdring_topo_free(&m->topo);
}

OBJ_CLASS_INSTANCE(mca_coll_hdring_module_t, mca_coll_base_module_t, hdring_module_construct,
                   hdring_module_destruct);

/*
 * Once per process, at MPI_Init. With hdring as the only coll component (--mca coll hdring) no communicator
 * can get barrier, alltoall, the nonblocking collectives...: say why, with a command line that works, and
 * decline, as Open MPI's components do when they cannot run; Open MPI then stops the job.
 */
int mca_coll_hdring_init_query(bool enable_progress_threads, bool enable_mpi_threads)
{
    (void) enable_progress_threads;
    (void) enable_mpi_threads;
    mca_coll_hdring_report_bad_values();
    if (1 == opal_list_get_size(&ompi_coll_base_framework.framework_components)) {
        mca_coll_hdring_report("hdring alone", ompi_process_info.nodename, mca_coll_hdring_component.priority);
        return OMPI_ERR_NOT_AVAILABLE;
    }
    return OMPI_SUCCESS;
}

mca_coll_base_module_t *mca_coll_hdring_comm_query(struct ompi_communicator_t *comm, int *priority)
{
    mca_coll_hdring_module_t *m;

    /* Read now, not at registration: MPI_T writes between communicator creations take effect. */
    *priority = mca_coll_hdring_component.priority;
    if (*priority < 0 || OMPI_COMM_IS_INTER(comm)) {
        return NULL;
    }
    m = OBJ_NEW(mca_coll_hdring_module_t);
    if (NULL == m) {
        return NULL;
    }
    if (NULL == (m->state = take_state())) {
        OBJ_RELEASE(m);
        return NULL;
    }
    m->state->generation = mca_coll_hdring_config_snapshot(&m->state->config);
    m->super.coll_module_enable = hdring_module_enable;
    m->super.coll_module_disable = hdring_module_disable;
    m->super.coll_allreduce = mca_coll_hdring_allreduce;
    m->super.coll_reduce_scatter = mca_coll_hdring_reduce_scatter;
    m->super.coll_reduce_scatter_block = mca_coll_hdring_reduce_scatter_block;
    m->super.coll_allgather = mca_coll_hdring_allgather;
    m->super.coll_bcast = mca_coll_hdring_bcast;
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
    if (mca_coll_hdring_component.priority <= tuned) {
        mca_coll_hdring_report("priority below tuned", mca_coll_hdring_component.priority, tuned);
    } else {
        mca_coll_hdring_report("no fallback", ompi_process_info.nodename, missing,
                               mca_coll_hdring_component.priority);
    }
}

static int hdring_module_enable(mca_coll_base_module_t *module, struct ompi_communicator_t *comm)
{
    mca_coll_hdring_module_t *m = (mca_coll_hdring_module_t *) module;
    const mca_coll_base_comm_coll_t *below = comm->c_coll;
    const char *missing = NULL;

    if (NULL == below->coll_allreduce_module) {
        missing = "allreduce";
    } else if (NULL == below->coll_reduce_scatter_module) {
        missing = "reduce_scatter";
    } else if (NULL == below->coll_reduce_scatter_block_module) {
        missing = "reduce_scatter_block";
    } else if (NULL == below->coll_allgather_module) {
        missing = "allgather";
    } else if (NULL == below->coll_bcast_module) {
        missing = "bcast";
    }
    if (NULL != missing) {
        report_no_fallback(missing);
        return OMPI_ERR_NOT_FOUND;
    }
    SAVE_FALLBACK(m, below, allreduce);
    SAVE_FALLBACK(m, below, reduce_scatter);
    SAVE_FALLBACK(m, below, reduce_scatter_block);
    SAVE_FALLBACK(m, below, allgather);
    SAVE_FALLBACK(m, below, bcast);
    m->fallback_retained = true;
    /* First that every rank decides alike (where ranks sit depends on the node map too), then where the ranks
     * sit, once per communicator. Either fails on ranks that disagree, out of memory, or if the communicator
     * cannot carry a message: then hdring does not serve this communicator. */
    int rc = mca_coll_hdring_agreement(m, comm);
    if (OMPI_SUCCESS == rc) {
        rc = mca_coll_hdring_locality(m, comm);
    }
    if (OMPI_SUCCESS == rc) {
        adopt_or_forget(m, comm);
    } else {
        release_fallback(m);
    }
    return rc;
}

static int hdring_module_disable(mca_coll_base_module_t *module, struct ompi_communicator_t *comm)
{
    (void) comm;
    release_fallback((mca_coll_hdring_module_t *) module);
    return OMPI_SUCCESS;
}
