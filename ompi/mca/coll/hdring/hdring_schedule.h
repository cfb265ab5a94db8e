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

/* ---- runs ---- */

typedef struct hdring_exec {
    const hdring_schedule_t *s;
    size_t next;                         /* the step to run, or to finish when `posted` */
    bool posted;                         /* step next's exchange is posted (nonblocking runs) */
    hdring_req_t live[HDRING_MAX_INFLIGHT]; /* recorded slot -> the transport's message in flight */
} hdring_exec_t;

/* A run of s from its first step. */
void hdring_exec_init(hdring_exec_t *e, const hdring_schedule_t *s);
/* Runs e's steps on x, the base transport (no view), from where it stands: HDRING_OK once every step has run;
 * without `block`, HDRING_PENDING when a step still waits for messages (call again later); or the error of the
 * step that failed (the transport's, hdring_status.h), where the run stops. */
int hdring_exec_run(hdring_exec_t *e, const hdring_xport_t *x, bool block);

#endif
