/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * hdring schedules: an algorithm's transport operations for one call, recorded once and replayed, MPI-free.
 *
 * An algorithm's messages, reductions and copies depend on its arguments, the rank and the group size, never
 * on the data: a call that repeats the one before with the same arguments repeats its operations exactly.
 * Recording runs the algorithm once against a transport that only notes what it is asked to do, with every
 * view resolved to the base transport's ranks and buffers and every empty message, reduction and copy dropped
 * (the transport ignores them: hdring_transport.h). Replaying hands the same operations, in the same order,
 * to the real transport: the same messages, the same bits, none of the algorithm's index arithmetic, views or
 * tables. Buffers are named, so a replay runs on whatever memory and datatype the new call brings.
 *
 * hdring_schedule_run is the whole policy: a call runs directly until `record_after` consecutive calls had the
 * same arguments; then it records the schedule and from then on replays it. A schedule longer than
 * HDRING_SCHEDULE_MAX_STEPS is not kept (its call is long enough for the algorithm's own work not to matter):
 * such calls keep running directly.
 */
#ifndef HDRING_SCHEDULE_H
#define HDRING_SCHEDULE_H

#include <stdint.h>

#include "hdring_algorithms.h"

#define HDRING_SCHEDULE_MAX_STEPS 1024

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

/* How hdring_schedule_run ran the last call. */
typedef enum hdring_schedule_how {
    HDRING_RAN_DIRECT,   /* the algorithm itself */
    HDRING_RAN_RECORDED, /* recorded its schedule, then replayed it */
    HDRING_RAN_REPLAYED, /* replayed the schedule recorded for an earlier call */
} hdring_schedule_how_t;

typedef struct hdring_schedule {
    /* the arguments of the last call (its key) and how many consecutive calls had them */
    bool keyed;
    hdring_alg_t alg;
    int rank, size;
    hdring_args_t args;
    hdring_blocks_t blocks;
    hdring_partition_t parts;
    size_t *displ; /* a copy of the caller's boundaries (parts.displ != NULL), growing as needed */
    size_t displ_cap;
    int calls;
    bool recorded; /* steps hold this key's schedule */
    bool direct;   /* recording it failed or found it too long: calls with this key run directly */
    hdring_step_t *steps;
    size_t nsteps, steps_cap;
    hdring_msg_t *msgs;
    size_t nmsgs, msgs_cap;
    hdring_schedule_how_t how;
} hdring_schedule_t;

/* An empty schedule (all zero); hdring_schedule_free releases what it grew. */
void hdring_schedule_init(hdring_schedule_t *s);
void hdring_schedule_free(hdring_schedule_t *s);

/* Whether a call of alg with args on x's rank and size has the arguments s was last keyed with. blocks are
 * compared by their boundaries; block_of and owner_of by address (one table per group, kept by the caller). */
bool hdring_schedule_matches(const hdring_schedule_t *s, const hdring_xport_t *x, hdring_alg_t alg,
                             const hdring_args_t *a);

/* Records s for this call (x the base transport, no view): HDRING_OK; HDRING_ERR_UNSUPPORTED when it is longer
 * than HDRING_SCHEDULE_MAX_STEPS; the algorithm's error (hdring_run) or HDRING_ERR_NOMEM otherwise. Only
 * x's take is used. */
int hdring_schedule_record(hdring_schedule_t *s, const hdring_xport_t *x, hdring_alg_t alg, const hdring_args_t *a);

/* Performs s's steps on x (the base transport, no view): what hdring_run would have returned. */
int hdring_schedule_replay(const hdring_xport_t *x, const hdring_schedule_t *s);
/* Performs step i of s on x: a replay is this for every step in order. live[HDRING_MAX_INFLIGHT] holds the
 * messages started and not yet waited for, from one step to the next. */
int hdring_schedule_step(const hdring_xport_t *x, const hdring_schedule_t *s, size_t i, hdring_req_t *live);

/* Runs alg for this call: directly, or by replaying s (record_after >= 1 consecutive calls with the same
 * arguments record it; 0 never). Keeps s's key and count up to date. */
int hdring_schedule_run(hdring_schedule_t *s, const hdring_xport_t *x, hdring_alg_t alg, const hdring_args_t *a,
                        int record_after);

#endif
