/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring runs: a schedule's steps (hdring_schedule.h) on the PML, for one call at a time.
 *
 * A run is the transport the core's schedules run on (hdring_transport.h) over the PML, and where a schedule
 * stands. Its messages are resolved once, when a call is prepared (coll_hdring_prepared.h): the communicator rank
 * of each peer, the byte offset of each range, the datatype the PML gets (the call's, or one made for a message of
 * more than coll_hdring_max_message_elements elements), whether it goes in pieces, whether it reads the send
 * buffer. A call then only puts its buffers' addresses in and runs the steps; every later call with the same
 * arguments does the same, without resolving anything again. A run of an algorithm that was not recorded (a
 * schedule too long to keep, hdring's own exchanges at communicator creation) resolves each message as it comes
 * (hdring_schedule_stream hands them over with every view already resolved).
 *
 * Blocking runs take the cheapest path the PML offers for each exchange's shape (coll_hdring_msg.h); nonblocking
 * ones post each exchange (sends first) and test it when Open MPI's progress engine calls. A run that fails on this
 * rank goes on poisoned (coll_hdring_msg.h) to its end, so every rank of the call returns.
 */
#ifndef MCA_COLL_HDRING_EXEC_H
#define MCA_COLL_HDRING_EXEC_H

#include "coll_hdring_msg.h"

#include "hdring_schedule.h"
#include "hdring_topo.h"

BEGIN_C_DECLS

/* One message of a schedule, resolved: a side of an exchange is made of it, call after call. */
typedef struct mca_coll_hdring_resolved {
    mca_coll_hdring_side_t side; /* its peer's communicator rank, and all of the message but addr and flat; a derived
                                    type belongs to the resolved message */
    hdring_buf_t buf;
    ptrdiff_t off;      /* bytes from element 0 of buf */
    bool contribution;  /* a send of exactly this rank's allgather block: reads the send buffer instead of OUT */
    ptrdiff_t lb;       /* in pieces, not packed: where its bytes start from addr */
    char *packing;      /* in pieces, packed: the copy's memory */
} mca_coll_hdring_resolved_t;

/* A run's room: sides for an exchange, with their requests and statuses (pieces count one request each). */
typedef struct mca_coll_hdring_room {
    mca_coll_hdring_side_t *sides;
    ompi_request_t **reqs;
    ompi_status_public_t *statuses;
    int nsides, nreqs;
} mca_coll_hdring_room_t;

typedef struct mca_coll_hdring_exec {
    mca_coll_hdring_wire_t w;
    struct ompi_op_t *op;      /* NULL for collectives without reduction */
    const int *rank_of;        /* algorithm rank -> communicator rank (the locality order); NULL: the same */
    const int *node_of;        /* communicator rank -> node; NULL: all on this rank's node */
    int node;
    size_t pieces_bytes;       /* messages within a node cut in pieces up to this; 0: every message whole */
    size_t max_message;        /* elements per PML message before a derived datatype carries it */
    char *base[HDRING_NBUFS];  /* element 0 of each buffer */
    struct {                   /* allgather: sends of exactly this range of OUT read the send buffer instead */
        size_t off, count;     /* in elements of OUT; count 0: none */
        int n;
        struct ompi_datatype_t *type;
        const void *buf;       /* the call's send buffer */
    } contribution;
    const hdring_schedule_t *sched;            /* a recorded run's schedule */
    const mca_coll_hdring_resolved_t *resolved; /* its messages resolved, index for index; NULL: as they come */
    mca_coll_hdring_room_t room;               /* a nonblocking run's exchanges, and a blocking run's wide ones */
    struct {                   /* messages started and not yet waited for (the schedule's start and wait steps) */
        uint32_t used;         /* bit i: slot i holds one */
        uint32_t receives;     /* bit i: it is a receive */
        struct ompi_request_t *req[HDRING_MAX_INFLIGHT][HDRING_MAX_PIECES]; /* one per piece */
        mca_coll_hdring_msg_t msg[HDRING_MAX_INFLIGHT];
    } inflight;
    struct {                   /* a nonblocking exchange in flight: its sides in room, receives first */
        int n, nrecvs, nreqs;
        bool quick;            /* posted by the quick path: one request a message, receives' description: */
        const mca_coll_hdring_side_t *recv;
    } posted;
    hdring_exec_t at;          /* where the schedule stands */
    hdring_xport_t xport;
    bool blocking;
    int status;                /* the schedule's hdring status once done */
} mca_coll_hdring_exec_t;

/* A run on comm of elements of dtype (reduced with op; NULL when nothing is reduced), its ranks placed as topo
 * says (NULL: one node, rank order), algorithm ranks in topo's locality order when locality_order. Messages within
 * a node of more than an inline send and at most pieces_bytes go in pieces; more than max_message elements as one
 * message of a derived datatype. take gives memory until the run ends (exchanges wider than the run's room). */
void mca_coll_hdring_exec_init(mca_coll_hdring_exec_t *t, struct ompi_communicator_t *comm,
                               struct ompi_datatype_t *dtype, struct ompi_op_t *op, const hdring_topo_t *topo,
                               bool locality_order, size_t pieces_bytes, size_t max_message,
                               void *(*take)(void *ctx, size_t bytes), void *take_ctx);

/* Every message of sched resolved for runs of t into resolved[0 .. sched->nmsgs), t's contribution range and
 * type set first; packed copies' memory from take. OMPI_SUCCESS, or an error with nothing left to release. */
int mca_coll_hdring_exec_resolve(const mca_coll_hdring_exec_t *t, const hdring_schedule_t *sched,
                                 mca_coll_hdring_resolved_t *resolved, void *(*take)(void *ctx, size_t bytes),
                                 void *take_ctx);
/* What resolving made (derived datatypes), released. */
void mca_coll_hdring_exec_unresolve(mca_coll_hdring_resolved_t *resolved, size_t n);

/* Where this rank's allgather block goes (mca_coll_hdring_exec_start): copied now, or while the first exchange's
 * messages travel; its copy's status in t->w.fill.status. */
void mca_coll_hdring_exec_contribute(mca_coll_hdring_exec_t *t, bool fill_in_flight);

/* Runs of t are of sched, with its messages resolved (resolved NULL: as they come), until it is given another. */
static inline void mca_coll_hdring_exec_of(mca_coll_hdring_exec_t *t, const hdring_schedule_t *sched,
                                           const mca_coll_hdring_resolved_t *resolved)
{
    t->sched = sched;
    t->resolved = resolved;
    t->at.s = sched;
}

/* A run of t's schedule from its first step, its messages tagged `tag`; blocking or not. The buffers (t->base,
 * t->contribution.buf) are the caller's to set, and a failure before the run poisons it
 * (mca_coll_hdring_wire_poison); with fill_in_flight, this rank's allgather block is copied into OUT while the
 * first exchange's messages travel, otherwise now. Inline: every call starts here. */
static inline void mca_coll_hdring_exec_start(mca_coll_hdring_exec_t *t, int tag, bool blocking, bool fill_in_flight)
{
    t->w.tag = tag;
    t->blocking = blocking;
    t->status = HDRING_PENDING;
    t->at.next = 0;
    t->at.posted = false;
    if (OPAL_UNLIKELY(0 != t->contribution.count)) {
        mca_coll_hdring_exec_contribute(t, fill_in_flight);
    }
}
/* Advances the run: HDRING_OK when its schedule is done (or failed: mca_coll_hdring_exec_end says how);
 * HDRING_PENDING when a nonblocking run waits for messages. */
int mca_coll_hdring_exec_steps(mca_coll_hdring_exec_t *t);
static inline int mca_coll_hdring_exec_progress(mca_coll_hdring_exec_t *t)
{
    const int rc = mca_coll_hdring_exec_steps(t);
    if (HDRING_PENDING == rc) {
        return HDRING_PENDING;
    }
    t->status = rc;
    return HDRING_OK;
}
/* A blocking run of t's schedule from start to end (mca_coll_hdring_exec_start, _progress, _end): the call's Open MPI
 * status. Its steps' operations are called directly: the path of most calls. */
int mca_coll_hdring_exec_blocking(mca_coll_hdring_exec_t *t, int tag, bool fill_in_flight);
/* Whether a nonblocking run can move on: the messages it waits for have all completed (or failed), or it has
 * something to post. What a progress engine asks of each run at each poll: it costs little. */
bool mca_coll_hdring_exec_ready(const mca_coll_hdring_exec_t *t);
/* Algorithm alg with arguments a, run to its end as it goes (no schedule), its messages tagged `tag`; the buffers
 * are the caller's to set. Its hdring status. */
int mca_coll_hdring_exec_direct(mca_coll_hdring_exec_t *t, hdring_alg_t alg, const hdring_args_t *a, int tag);
/* mca_coll_hdring_exec_end for a run that failed or left something to do. */
int mca_coll_hdring_exec_finish(mca_coll_hdring_exec_t *t);
/* Ends a run that progress reported done, or a direct one: what a failure left in flight withdrawn (receives
 * cancelled, sends left to complete), t clean for the next run. The call's Open MPI status: the poisoned run's
 * reason, the transport's error, or the contribution's copy's. */
static inline int mca_coll_hdring_exec_end(mca_coll_hdring_exec_t *t)
{
    return OPAL_LIKELY(HDRING_OK == t->status && !t->w.poisoned && NULL == t->w.fill.dst && 0 == t->inflight.used)
               ? t->w.fill.status
               : mca_coll_hdring_exec_finish(t);
}

END_C_DECLS

#endif
