/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring compiled schedules: a recorded schedule (hdring_schedule.h) with every message's communicator
 * rank, offset and count worked out once for the PML transport of a call kept for the repeat path
 * (coll_hdring_repeat.c), and its replay, which posts each exchange straight to the PML. A schedule of one
 * exchange of at most one whole message each way (every collective at 2 ranks) replays as that exchange alone:
 * no loop over steps, nothing to cut. hdring's own work per call was 354 instructions against tuned's 170 for an
 * allgather of 512 B a rank at 2 ranks (rank 0, callgrind), and the call 1.04-1.10x tuned's time at 8 B-4 KiB.
 */
#include "ompi_config.h"

#include <stdlib.h>

#include "coll_hdring_pml_exchange.h"

/* A message of a compiled exchange: what resolve makes of it but the buffer's address. */
static void plan_message(const mca_coll_hdring_pml_t *t, const hdring_msg_t *msg, bool is_send,
                         mca_coll_hdring_pml_planned_t *planned)
{
    planned->peer = mca_coll_hdring_pml_comm_rank(t, &t->xport, msg->peer);
    planned->buf = msg->at.buf;
    planned->at = (ptrdiff_t) msg->at.off * t->extent;
    planned->n = (int) msg->count;
    planned->same_bytes = is_send && mca_coll_hdring_pml_reads_same_bytes(t, msg->at, msg->count);
}

/* Whether the first step may run while t's same_bytes range is still being filled: a direct exchange none of
 * whose messages touches the range but for sends that read the same bytes elsewhere. */
static bool fills_in_flight(const mca_coll_hdring_pml_t *t, const hdring_schedule_t *s,
                            const mca_coll_hdring_pml_program_t *program)
{
    if (NULL == t->same_bytes.buf || 0 == s->nsteps || !program->direct[0]) {
        return false;
    }
    const hdring_step_t *st = &s->steps[0];
    const size_t lo = t->same_bytes.off, hi = lo + t->same_bytes.count;
    for (int k = 0; k < st->nsends + st->nrecvs; ++k) {
        const hdring_msg_t *msg = &s->msgs[st->first + (size_t) k];
        const bool overlaps = HDRING_BUF_OUT == msg->at.buf && msg->at.off < hi && lo < msg->at.off + msg->count;
        if (overlaps && !program->msgs[st->first + (size_t) k].same_bytes) {
            return false;
        }
    }
    return true;
}

/* Whether s is one direct exchange of at most one message each way, none in pieces (program->pair). */
static bool is_pair(const mca_coll_hdring_pml_t *t, const hdring_schedule_t *s,
                    const mca_coll_hdring_pml_program_t *program)
{
    if (1 != s->nsteps || !program->direct[0] || s->steps[0].nsends > 1 || s->steps[0].nrecvs > 1) {
        return false;
    }
    for (int k = 0; k < s->steps[0].nsends + s->steps[0].nrecvs; ++k) {
        const mca_coll_hdring_pml_planned_t *p = &program->msgs[k];
        if (mca_coll_hdring_pml_in_pieces(t, (size_t) p->n * t->dtype_size, p->peer)) {
            return false;
        }
    }
    return true;
}

bool mca_coll_hdring_pml_compile(const mca_coll_hdring_pml_t *t, const hdring_schedule_t *s,
                                 mca_coll_hdring_pml_program_t *program)
{
    if (!mca_coll_hdring_room((void **) &program->direct, &program->steps_cap, s->nsteps, sizeof(*program->direct)) ||
        !mca_coll_hdring_room((void **) &program->msgs, &program->msgs_cap, s->nmsgs, sizeof(*program->msgs))) {
        return false;
    }
    for (size_t i = 0; i < s->nsteps; ++i) {
        const hdring_step_t *st = &s->steps[i];
        const hdring_msg_t *msgs = &s->msgs[st->first];
        /* exchanges that need no memory (HDRING_EXCHANGE_STACK messages) and no derived datatype (a schedule's
         * messages are never empty) */
        bool direct = HDRING_STEP_EXCHANGE == st->kind && st->nsends + st->nrecvs <= HDRING_EXCHANGE_STACK;
        for (int k = 0; k < st->nsends + st->nrecvs && direct; ++k) {
            direct = msgs[k].count <= t->max_message;
            plan_message(t, &msgs[k], k < st->nsends, &program->msgs[st->first + (size_t) k]);
        }
        program->direct[i] = direct;
    }
    program->fill_in_flight = fills_in_flight(t, s, program);
    program->pair = is_pair(t, s, program);
    return true;
}

void mca_coll_hdring_pml_program_free(mca_coll_hdring_pml_program_t *program)
{
    free(program->direct);
    free(program->msgs);
    *program = (mca_coll_hdring_pml_program_t) {0};
}

/* A planned message on this call's buffers, before it is cut. */
static inline __opal_attribute_always_inline__ void planned_message(const mca_coll_hdring_pml_t *t,
                                                                   const mca_coll_hdring_pml_planned_t *p,
                                                                   pml_side_t *side)
{
    side->peer = p->peer;
    side->m.derived = false;
    if (p->same_bytes) {
        side->m.addr = (char *) t->same_bytes.buf;
        side->m.n = t->same_bytes.n;
        side->m.type = t->same_bytes.type;
    } else {
        side->m.addr = t->base[p->buf] + p->at;
        side->m.n = p->n;
        side->m.type = t->dtype;
    }
}

/* A planned message on this call's buffers, cut (mca_coll_hdring_pml_cut). */
static inline __opal_attribute_always_inline__ int planned_side(mca_coll_hdring_pml_t *t,
                                                                const mca_coll_hdring_pml_planned_t *p, bool is_send,
                                                                pml_side_t *side)
{
    planned_message(t, p, side);
    return mca_coll_hdring_pml_cut(t, &side->m, (size_t) p->n * t->dtype_size, p->peer, is_send);
}

/* A program->pair schedule: its one exchange, its messages whole. */
static int replay_pair(mca_coll_hdring_pml_t *t, const mca_coll_hdring_pml_planned_t *planned, int nsends,
                       int nrecvs)
{
    pml_side_t send, recv;
    if (1 == nsends) {
        planned_message(t, &planned[0], &send);
        send.m.pieces = 1;
    }
    if (1 == nrecvs) {
        planned_message(t, &planned[nsends], &recv);
        recv.m.pieces = 1;
    }
    const int rc = mca_coll_hdring_pml_exchange_pair(t, 1 == nsends ? &send : NULL, 1 == nrecvs ? &recv : NULL);
    mca_coll_hdring_pml_fill(t); /* the exchange fills while its messages travel; this covers one of neither */
    return rc;
}

/* A compiled exchange: sends planned[0 .. nsends), receives planned[nsends .. nsends + nrecvs). */
static int compiled_exchange(mca_coll_hdring_pml_t *t, const mca_coll_hdring_pml_planned_t *planned, int nsends,
                             int nrecvs)
{
    pml_side_t sides[HDRING_EXCHANGE_STACK];
    ompi_request_t *reqs[HDRING_EXCHANGE_STACK];
    ompi_status_public_t statuses[HDRING_EXCHANGE_STACK];
    int rc = OMPI_SUCCESS;

    if (nsends <= 1 && nrecvs <= 1) {
        if (1 == nsends) {
            rc = planned_side(t, &planned[0], true, &sides[0]);
        }
        if (1 == nrecvs && OMPI_SUCCESS == rc) {
            rc = planned_side(t, &planned[nsends], false, &sides[1]);
        }
        return OMPI_SUCCESS != rc ? mca_coll_hdring_pml_failed(t, rc)
                                  : mca_coll_hdring_pml_exchange_pair(t, 1 == nsends ? &sides[0] : NULL,
                                                                      1 == nrecvs ? &sides[1] : NULL);
    }
    for (int i = 0; i < nrecvs && OMPI_SUCCESS == rc; ++i) { /* receives first */
        rc = planned_side(t, &planned[nsends + i], false, &sides[i]);
    }
    for (int i = 0; i < nsends && OMPI_SUCCESS == rc; ++i) {
        rc = planned_side(t, &planned[i], true, &sides[nrecvs + i]);
    }
    return OMPI_SUCCESS != rc ? mca_coll_hdring_pml_failed(t, rc)
                              : mca_coll_hdring_pml_exchange_sides(t, sides, nrecvs, nsends + nrecvs, reqs, statuses,
                                                                   HDRING_EXCHANGE_STACK);
}

int mca_coll_hdring_pml_replay(mca_coll_hdring_pml_t *t, const hdring_schedule_t *s,
                               const mca_coll_hdring_pml_program_t *program)
{
    if (program->pair && !t->poisoned) {
        return replay_pair(t, program->msgs, s->steps[0].nsends, s->steps[0].nrecvs);
    }
    hdring_req_t live[HDRING_MAX_INFLIGHT];
    int rc = HDRING_OK;

    for (size_t i = 0; i < s->nsteps && HDRING_OK == rc; ++i) {
        const hdring_step_t *st = &s->steps[i];
        rc = program->direct[i] && !t->poisoned
                 ? compiled_exchange(t, &program->msgs[st->first], st->nsends, st->nrecvs)
                 : hdring_schedule_step(&t->xport, s, i, live);
        mca_coll_hdring_pml_fill(t); /* an unfilled range is filled by the end of the first step */
    }
    return rc;
}
