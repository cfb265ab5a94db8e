/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring prepared calls: a call's task (decision and schedule), the layout of its scratch and every message
 * of its schedule resolved (coll_hdring_exec.h), worked out once and kept by the communicator's module for the
 * calls like it: the same collective, datatypes, op, counts, root and MPI_IN_PLACE, buffers aside. Equal calls find
 * it again and only run it; that equality is the only thing that decides whether a prepared call serves a call.
 *
 * One object for every kind. A blocking call runs one to its end. A nonblocking call borrows one: the prepared
 * call is its request (an Open MPI nonblocking collective request, so MPI_Wait, MPI_Test and their -all, -any and
 * -some forms and MPI_Request_free treat it as any other), in use until the request is freed. A persistent request
 * owns one from MPI_<coll>_init to MPI_Request_free, and every MPI_Start runs it again. A module keeps a few
 * prepared calls, the most recently used first; those in use stay, the others go when more are made.
 *
 * Nonblocking runs are advanced by a progress function registered with Open MPI's progress engine (called from
 * MPI_Test, MPI_Wait and every other blocking call). Each nonblocking call takes a tag of its own from the
 * communicator's counter of nonblocking tags, which libnbc and every other component share
 * (ompi_coll_base_nbc_reserve_tags): collectives in flight on one communicator never mix their messages, whoever
 * serves them; a persistent request keeps the tag it was made with, as libnbc's do.
 *
 * A rank without memory for a prepared call still takes part: a blocking call runs its algorithm as it goes from
 * a task decided without allocating (its tables in the process's reserve, coll_hdring_memory.h); a nonblocking or
 * persistent one gets a request made when the component opened, which runs that way when started.
 */
#ifndef MCA_COLL_HDRING_PREPARED_H
#define MCA_COLL_HDRING_PREPARED_H

#include "coll_hdring_exec.h"
#include "coll_hdring_memory.h"
#include "coll_hdring_task.h"

#include <string.h>

#include "ompi/mca/coll/base/coll_base_util.h"

BEGIN_C_DECLS

/* Prepared calls a module keeps besides those in use. */
#define MCA_COLL_HDRING_PREPARED_KEPT 8

typedef struct mca_coll_hdring_prepared {
    ompi_coll_base_nbc_request_t super;           /* the request of a nonblocking or persistent call */
    struct mca_coll_hdring_prepared *newer, *older; /* in the module's list */
    mca_coll_hdring_module_t *module;
    struct ompi_communicator_t *comm;
    mca_coll_hdring_args_t call;    /* what it was prepared for: datatypes and op referenced, rcounts a copy */
    mca_coll_hdring_args_t args;    /* the call of the request it serves, as given (buffers included) */
    mca_coll_hdring_task_t *task;   /* referenced; NULL: one of the reserve's, for a rank without memory */
    bool built;                     /* the task was built for it (the trace) */
    bool in_use;                    /* a request's, until the request is freed */
    mca_coll_hdring_kind_t kind;    /* of the call using it */
    int tag;                        /* of its blocking calls' messages */
    int pick;                       /* what serves it (hdring_select.h): the model's choice, a picked one */
    bool settled;                   /* its pick is final for calls like it (not under measurement) */
    bool plain;                     /* a recorded run with nothing around its algorithm but scratch */
    unsigned char quick;            /* MCA_COLL_HDRING_QUICK_*: what the slots' quick path does with it */
    ptrdiff_t out_shift;            /* OUT's element 0 from the receive buffer (a bcast on bytes: the lower bound) */
    mca_coll_hdring_scratch_layout_t layout;
    mca_coll_hdring_scratch_t scratch; /* a request's scratch, kept from start to start and call to call */
    void *own_scratch;              /* a call's scratch beyond the kept */
    char *packed;                   /* bcast on bytes, not contiguous: the message's bytes in scratch */
    mca_coll_hdring_resolved_t *resolved; /* its schedule's messages */
    void *memory;                   /* resolved messages and the run's room, one block */
    void *copies;                   /* packed messages' memory, chained through their first word */
    mca_coll_hdring_exec_t t;
} mca_coll_hdring_prepared_t;

OBJ_CLASS_DECLARATION(mca_coll_hdring_prepared_t);

/* The quick path of the module's slots (coll_hdring_call.c) for its most recent prepared call: settled, not in use,
 * not traced, and either plain (run it) or handed on (call the fallback). */
enum { MCA_COLL_HDRING_QUICK_NONE, MCA_COLL_HDRING_QUICK_RUN, MCA_COLL_HDRING_QUICK_HAND_ON };

static inline unsigned char mca_coll_hdring_prepared_quick_of(const mca_coll_hdring_prepared_t *p)
{
    if (!p->settled || p->in_use || NULL == p->task || p->module->tracing) {
        return MCA_COLL_HDRING_QUICK_NONE;
    }
    return p->task->fallback ? MCA_COLL_HDRING_QUICK_HAND_ON
           : p->plain        ? MCA_COLL_HDRING_QUICK_RUN
                             : MCA_COLL_HDRING_QUICK_NONE;
}

/* p's pick final (or not) for calls like it. */
static inline void mca_coll_hdring_prepared_settle(mca_coll_hdring_prepared_t *p, bool settled)
{
    p->settled = settled;
    p->quick = mca_coll_hdring_prepared_quick_of(p);
}

/* Whether p was prepared for a call like a served by `pick` (the same datatypes, op, counts, root and MPI_IN_PLACE).
 * An allgather in place has no send type: MPI ignores it, and so does this. */
static inline bool mca_coll_hdring_prepared_for(const mca_coll_hdring_prepared_t *p, const mca_coll_hdring_args_t *a,
                                                int pick)
{
    const mca_coll_hdring_args_t *c = &p->call;
    const bool in_place = MPI_IN_PLACE == a->sbuf;
    return p->pick == pick && c->coll == a->coll && c->dtype == a->dtype && c->op == a->op && c->count == a->count &&
           c->root == a->root && (MPI_IN_PLACE == c->sbuf) == in_place &&
           (in_place || (c->sdtype == a->sdtype && c->scount == a->scount)) &&
           (NULL == c->rcounts || 0 == memcmp(c->rcounts, a->rcounts, (size_t) p->t.xport.size * sizeof(int)));
}

/* The slow half of mca_coll_hdring_prepared_get. */
mca_coll_hdring_prepared_t *mca_coll_hdring_prepared_find(mca_coll_hdring_module_t *m,
                                                          struct ompi_communicator_t *comm,
                                                          const mca_coll_hdring_args_t *a, int pick);
/* The prepared call for call a served by `pick` on module m's communicator comm, not in use: the most recent one
 * (most calls repeat the one before), one found further down the module's list, or one made now (not settled).
 * NULL without memory for it. */
static inline mca_coll_hdring_prepared_t *mca_coll_hdring_prepared_get(mca_coll_hdring_module_t *m,
                                                                       struct ompi_communicator_t *comm,
                                                                       const mca_coll_hdring_args_t *a, int pick)
{
    mca_coll_hdring_prepared_t *p = m->newest;
    return OPAL_LIKELY(NULL != p && !p->in_use && mca_coll_hdring_prepared_for(p, a, pick))
               ? p
               : mca_coll_hdring_prepared_find(m, comm, a, pick);
}

/* Runs p, prepared for a call like a, on a's buffers to its end: an Open MPI status. */
int mca_coll_hdring_prepared_run(mca_coll_hdring_prepared_t *p, const mca_coll_hdring_args_t *a);
/* The same for a plain one (p->plain), given the call's buffers alone: the path of most calls (coll_hdring_call.c
 * finds p->quick ones without making the call's arguments a struct). */
int mca_coll_hdring_prepared_run_plain(mca_coll_hdring_prepared_t *p, const void *sbuf, void *rbuf);
/* p as the request of call a of kind (nonblocking: started now; persistent: inactive until MPI_Start), its messages
 * tagged `tag`, in *request. */
void mca_coll_hdring_prepared_post(mca_coll_hdring_prepared_t *p, const mca_coll_hdring_args_t *a,
                                   mca_coll_hdring_kind_t kind, int tag, struct ompi_request_t **request);

/* The same for a nonblocking call of a quick one (p->quick), given the call's buffers alone, started now. */
void mca_coll_hdring_prepared_ipost(mca_coll_hdring_prepared_t *p, const void *sbuf, void *rbuf, int tag,
                                    struct ompi_request_t **request);

/* A blocking call a on m's communicator comm for which this rank had no memory to prepare: its algorithm run as it
 * goes, from a task decided without allocating, its tables in the process's reserve, so that the other ranks
 * still find every message (empty ones when it cannot run it either). Its Open MPI status. */
int mca_coll_hdring_prepared_unbuilt(mca_coll_hdring_module_t *m, struct ompi_communicator_t *comm,
                                     const mca_coll_hdring_args_t *a, int pick, int tag);
/* A request for a nonblocking or persistent call served by `pick` this rank had no memory to prepare: one of the few
 * made when the component opened, which runs the call that way when started; NULL when they are all in use. Post
 * it as any. */
mca_coll_hdring_prepared_t *mca_coll_hdring_prepared_reserve(mca_coll_hdring_module_t *m,
                                                             struct ompi_communicator_t *comm, int pick);

/* Every prepared call of m let go (when m goes: none is in use, their requests hold m). */
void mca_coll_hdring_prepared_forget_all(mca_coll_hdring_module_t *m);

/* At the component's open and close: the progress function, and the reserve. */
void mca_coll_hdring_prepared_open(void);
void mca_coll_hdring_prepared_close(void);

END_C_DECLS

#endif
