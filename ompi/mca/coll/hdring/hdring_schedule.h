/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * hdring schedules: an algorithm's transport operations for one call, recorded once and run step by step,
 * MPI-free.
 *
 * An algorithm's messages, reductions and copies depend on its arguments, the rank and the group size, never
 * on the data: every call with the same arguments performs the same operations. Recording runs the algorithm
 * once against a transport that only notes what it is asked to do, with every view resolved to the base
 * transport's ranks and buffers and every empty message, reduction and copy dropped (the transport ignores them:
 * hdring_transport.h). Running a schedule hands the same operations, in the same order, to the real transport:
 * the same messages, the same bits, none of the algorithm's index arithmetic, views or tables. Buffers are
 * named, so a schedule runs on whatever memory and datatype a call brings.
 *
 * Running a recorded schedule hands the transport pointers into the schedule's own message array (s->msgs), so a
 * transport may keep what it worked out for each message once, index for index, and find it again.
 *
 * A run (hdring_exec) goes through the steps in order. Blocking, each step completes before the next: that is the
 * algorithm run directly, in other words. Nonblocking, a step whose messages are still in flight returns
 * HDRING_PENDING and the next call carries on from it; a progress engine calls it until it is done, and
 * several runs on channels of their own (hdring_transport.h) interleave on one transport without their messages
 * ever meeting. Pipelined algorithms keep their overlap either way: their started messages (HDRING_STEP_START)
 * stay in flight across the steps that follow until a wait step completes them.
 */
#ifndef HDRING_SCHEDULE_H
#define HDRING_SCHEDULE_H

#include <stdint.h>

#include "hdring_algorithms.h"

/* A schedule of more steps is not recorded (its call runs the algorithm directly): 2^20 steps of 96 bytes. */
#define HDRING_SCHEDULE_MAX_STEPS (1u << 20)

typedef enum hdring_step_kind {
    HDRING_STEP_EXCHANGE, /* msgs[first .. first + nsends) sent and the next nrecvs received, all completed */
    HDRING_STEP_START,    /* msgs[first] started (sent if is_send), as slot `slot` */
    HDRING_STEP_WAIT,     /* the started messages of the slots in the bit set `slots` completed */
    HDRING_STEP_REDUCE,   /* dst = left (op) right on count elements, with `flags` */
    HDRING_STEP_COPY,     /* left copied to dst, count elements */
} hdring_step_kind_t;

typedef struct hdring_step {
    hdring_step_kind_t kind;
    bool is_send;
    unsigned flags;
    int slot, nsends, nrecvs;
    uint32_t slots;
    size_t first, count;
    hdring_loc_t left, right, dst;
} hdring_step_t;

typedef struct hdring_schedule {
    hdring_step_t *steps;
    size_t nsteps, steps_cap;
    hdring_msg_t *msgs; /* the base transport's ranks and buffers */
    size_t nmsgs, msgs_cap;
    int widest;         /* most messages of one exchange step */
} hdring_schedule_t;

/* An empty schedule (all zero); hdring_schedule_free releases what it grew. */
void hdring_schedule_init(hdring_schedule_t *s);
void hdring_schedule_free(hdring_schedule_t *s);
/* Bytes its steps and messages take. */
size_t hdring_schedule_bytes(const hdring_schedule_t *s);

/* Records into s what algorithm alg does with args a on x's rank (x may be a view: its ranks and buffers are
 * resolved to the base transport's). HDRING_OK; HDRING_ERR_UNSUPPORTED when it takes more than
 * HDRING_SCHEDULE_MAX_STEPS steps; the algorithm's error (hdring_run) or HDRING_ERR_NOMEM otherwise. Only x's
 * take is used. */
int hdring_schedule_record(hdring_schedule_t *s, const hdring_xport_t *x, hdring_alg_t alg, const hdring_args_t *a);

/* Runs algorithm alg with args a on x's rank without recording it: each operation goes to x (the base transport: no
 * view) as it comes, every view resolved and every empty message, reduction and copy dropped, as a recorded
 * schedule would hand them over. For algorithms whose schedule is not kept (too long, or hdring's own exchanges at
 * communicator creation): one way of handing operations to a transport. The algorithm's status. */
int hdring_schedule_stream(const hdring_xport_t *x, hdring_alg_t alg, const hdring_args_t *a);

/* ---- runs ---- */

typedef struct hdring_exec {
    const hdring_schedule_t *s;
    size_t next;                         /* the step to run, or to finish when `posted` */
    bool posted;                         /* step next's exchange is posted (nonblocking runs) */
    hdring_req_t live[HDRING_MAX_INFLIGHT]; /* recorded slot -> the transport's message in flight */
} hdring_exec_t;

/* A run of s from its first step. */
static inline void hdring_exec_init(hdring_exec_t *e, const hdring_schedule_t *s)
{
    e->s = s;
    e->next = 0;
    e->posted = false;
}
/* Runs e's steps on x, the base transport (no view), from where it stands: HDRING_OK once every step has run;
 * without `block`, HDRING_PENDING when a step still waits for messages (call again later); or the error of the
 * step that failed (the transport's, hdring_status.h), where the run stops. */
int hdring_exec_run(hdring_exec_t *e, const hdring_xport_t *x, bool block);

/* ---- the runner, for transports that compile it against their own operations ----
 * hdring_exec_run is hdring_exec_steps with x's operations. A transport that calls hdring_exec_steps with its own
 * (constant) operations instead lets the compiler call them directly, inline: the same steps, the same order, a
 * few dozen instructions fewer per step where a call costs a few hundred in all. */

/* The transport's messages of the slots in `slots`, into reqs; how many. */
static inline int hdring_exec_live(const hdring_exec_t *e, uint32_t slots, hdring_req_t *reqs)
{
    int n = 0;
    for (; 0 != slots; slots &= slots - 1) {
        reqs[n++] = e->live[__builtin_ctz(slots)];
    }
    return n;
}

/* Step st, blocking: HDRING_OK or the transport's error. */
static inline __attribute__((always_inline)) int hdring_exec_step(hdring_exec_t *e, const hdring_xport_t *x,
                                                                   const hdring_transport_ops_t *ops,
                                                                   const hdring_step_t *st)
{
    const hdring_msg_t *msgs = &e->s->msgs[st->first];
    hdring_req_t waiting[HDRING_MAX_INFLIGHT];
    switch (st->kind) {
    case HDRING_STEP_EXCHANGE:
        return ops->exchange(x, msgs, st->nsends, msgs + st->nsends, st->nrecvs);
    case HDRING_STEP_START:
        return ops->start(x, msgs, st->is_send, &e->live[st->slot]);
    case HDRING_STEP_WAIT:
        return ops->wait(x, waiting, hdring_exec_live(e, st->slots, waiting));
    case HDRING_STEP_REDUCE:
        return ops->reduce(x, st->left, st->right, st->dst, st->count, st->flags);
    case HDRING_STEP_COPY:
        return ops->copy(x, st->left, st->dst, st->count);
    }
    return HDRING_ERR_UNSUPPORTED;
}

/* Step st, nonblocking: HDRING_OK when it is done, HDRING_PENDING when its messages are in flight. */
static inline int hdring_exec_step_nonblocking(hdring_exec_t *e, const hdring_xport_t *x,
                                               const hdring_transport_ops_t *ops, const hdring_step_t *st)
{
    const hdring_msg_t *msgs = &e->s->msgs[st->first];
    hdring_req_t waiting[HDRING_MAX_INFLIGHT];
    bool done = false;
    int rc;
    switch (st->kind) {
    case HDRING_STEP_EXCHANGE:
        if (!e->posted) {
            rc = ops->post_exchange(x, msgs, st->nsends, msgs + st->nsends, st->nrecvs);
            if (HDRING_OK != rc) {
                return rc;
            }
            e->posted = true;
        }
        rc = ops->test_exchange(x, &done);
        e->posted = HDRING_OK == rc && !done;
        return HDRING_OK == rc && !done ? HDRING_PENDING : rc;
    case HDRING_STEP_WAIT:
        rc = ops->test(x, waiting, hdring_exec_live(e, st->slots, waiting), &done);
        return HDRING_OK == rc && !done ? HDRING_PENDING : rc;
    default:
        return hdring_exec_step(e, x, ops, st);
    }
}

/* hdring_exec_run with these operations. */
static inline __attribute__((always_inline)) int hdring_exec_steps(hdring_exec_t *e, const hdring_xport_t *x, const hdring_transport_ops_t *ops,
                                    bool block)
{
    const hdring_step_t *const steps = e->s->steps;
    const size_t nsteps = e->s->nsteps;
    int rc = HDRING_OK;
    if (block) { /* its own loop: the path of every blocking call */
        while (HDRING_OK == rc && e->next < nsteps) {
            rc = hdring_exec_step(e, x, ops, &steps[e->next]);
            e->next += HDRING_OK == rc;
        }
        return rc;
    }
    while (HDRING_OK == rc && e->next < nsteps) {
        rc = hdring_exec_step_nonblocking(e, x, ops, &steps[e->next]);
        e->next += HDRING_OK == rc;
    }
    return rc;
}

#endif
