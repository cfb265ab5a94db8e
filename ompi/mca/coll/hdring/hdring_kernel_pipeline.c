/* Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* Pipelined kernels (root = algorithm rank 0): see hdring_kernels.h. */
#include "hdring_kernels.h"

#define RECV_AHEAD 2                         /* receives posted ahead of the segment at hand, per lane */
#define RECV_RING (2 * RECV_AHEAD)           /* receives in flight, per lane */
#define SEND_DEPTH (2 * HDRING_MAX_CHILDREN) /* sends in flight, per lane */

typedef struct lane_state {
    size_t seg, nseg;      /* elements per segment, segments */
    size_t posted;         /* receives posted */
    size_t sent;           /* sends started */
    hdring_req_t recv[RECV_RING], send[SEND_DEPTH];
} lane_state_t;

/* Segment t of a lane, as a message to or from `peer`. */
static hdring_msg_t segment_msg(const hdring_lane_t *lane, const lane_state_t *ls, size_t t, int peer)
{
    return hdring_msg(peer, hdring_at(lane->at.buf, lane->at.off + t * ls->seg),
                      hdring_segment_count(lane->count, ls->seg, t));
}

/* Segment t of a lane: posts the receives up to RECV_AHEAD further (each into its ring slot once the request
 * there is complete), takes segment t, and starts its sends (each slot, again, once its last send is done). */
static int pass_on(const hdring_xport_t *x, const hdring_lane_t *lane, lane_state_t *ls, size_t t)
{
    int rc = HDRING_OK;
    if (lane->tree.parent >= 0) {
        while (ls->posted <= t + RECV_AHEAD && ls->posted < ls->nseg && HDRING_OK == rc) {
            hdring_req_t *slot = &ls->recv[ls->posted % RECV_RING];
            rc = hdring_wait(x, slot, 1);
            if (HDRING_OK == rc) {
                rc = hdring_irecv(x, segment_msg(lane, ls, ls->posted++, lane->tree.parent), slot);
            }
        }
        if (HDRING_OK == rc) {
            rc = hdring_wait(x, &ls->recv[t % RECV_RING], 1);
        }
    }
    for (int i = 0; i < lane->tree.nchildren && HDRING_OK == rc; ++i) {
        hdring_req_t *slot = &ls->send[ls->sent++ % SEND_DEPTH];
        rc = hdring_wait(x, slot, 1);
        if (HDRING_OK == rc) {
            rc = hdring_isend(x, segment_msg(lane, ls, t, lane->tree.child[i]), slot);
        }
    }
    return rc;
}

/* Segment t of a lane reaches a rank of depth d about d steps after the root sent it: a rank takes its lanes'
 * segments in the order they arrive, segment t of a lane at step t + d, so a lane where it sits deep does not
 * hold up one where it sits near the root. */
int hdring_pipelined_bcast(const hdring_xport_t *x, const hdring_lane_t *lanes, int nlanes, size_t segment)
{
    lane_state_t state[HDRING_MAX_LANES];
    size_t steps = 0;
    int rc = HDRING_OK;

    for (int l = 0; l < nlanes; ++l) {
        lane_state_t *ls = &state[l];
        const size_t count = lanes[l].count;
        ls->seg = 0 == segment || segment > count ? count : segment;
        ls->nseg = 0 == count ? 0 : hdring_segments(count, ls->seg);
        ls->posted = ls->sent = 0;
        for (int i = 0; i < RECV_RING; ++i) {
            ls->recv[i] = HDRING_REQ_NONE;
        }
        for (int i = 0; i < SEND_DEPTH; ++i) {
            ls->send[i] = HDRING_REQ_NONE;
        }
        const size_t last = ls->nseg + (size_t) lanes[l].tree.depth;
        steps = ls->nseg > 0 && last > steps ? last : steps;
    }
    for (size_t v = 0; v < steps && HDRING_OK == rc; ++v) {
        for (int l = 0; l < nlanes && HDRING_OK == rc; ++l) {
            const size_t depth = (size_t) lanes[l].tree.depth;
            if (v >= depth && v - depth < state[l].nseg) {
                rc = pass_on(x, &lanes[l], &state[l], v - depth);
            }
        }
    }
    for (int l = 0; l < nlanes && HDRING_OK == rc; ++l) {
        rc = hdring_wait(x, state[l].recv, RECV_RING);
        if (HDRING_OK == rc) {
            rc = hdring_wait(x, state[l].send, SEND_DEPTH);
        }
    }
    return rc;
}
