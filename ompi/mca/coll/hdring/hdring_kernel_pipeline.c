/* Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* Pipelined kernels (root = algorithm rank 0): see hdring_kernels.h. */
#include "hdring_kernels.h"

/* Segment t of count elements cut in segments of `seg`, as a message to or from `peer`. */
static hdring_msg_t segment_msg(int peer, hdring_loc_t at, size_t count, size_t seg, size_t t)
{
    const size_t first = t * seg, n = count - first < seg ? count - first : seg;
    return hdring_msg(peer, hdring_at(at.buf, at.off + first), n);
}

int hdring_chain_bcast(const hdring_xport_t *x, hdring_loc_t at, size_t count, size_t segment)
{
    const int r = x->rank, p = x->size;
    const size_t seg = 0 == segment || segment > count ? count : segment;
    const size_t nseg = 0 == count ? 0 : (count + seg - 1) / seg;
    int rc = HDRING_OK;

    /* step t: receive segment t (not the root), pass segment t-1 on (not the last rank) */
    for (size_t t = 0; t <= nseg && HDRING_OK == rc; ++t) {
        const bool receives = r > 0 && t < nseg, passes = r < p - 1 && t > 0;
        hdring_msg_t send, recv;
        if (receives) {
            recv = segment_msg(r - 1, at, count, seg, t);
        }
        if (passes) {
            send = segment_msg(r + 1, at, count, seg, t - 1);
        }
        if (receives || passes) {
            rc = hdring_exchange(x, &send, passes ? 1 : 0, &recv, receives ? 1 : 0);
        }
    }
    return rc;
}
