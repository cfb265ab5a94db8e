/* Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* Binomial tree kernels (root = algorithm rank 0): see hdring_kernels.h. */
#include "hdring_kernels.h"

/* The lowest set bit of r (its subtree spans [r, r + lowbit)); for the root, the first power of two >= p. */
static int subtree_span(int r, int p)
{
    int mask = 1;
    while (mask < p && !(r & mask)) {
        mask <<= 1;
    }
    return mask;
}

/* The sends to this rank's children, largest subtree first, in one exchange, so the children receive
 * concurrently (the model still queues them on the send port). Without `blocks` every child gets `count`
 * elements at `whole`; with them, the blocks of its subtree from acc. */
static int send_to_children(const hdring_xport_t *x, int span, const hdring_partition_t *blocks, hdring_buf_t acc,
                            hdring_loc_t whole, size_t count)
{
    const int r = x->rank, p = x->size;
    hdring_msg_t msgs[HDRING_MAX_LOG2_P + 1];
    int n = 0;

    for (int mask = span >> 1; mask > 0; mask >>= 1) {
        const int child = r + mask;
        if (child >= p) {
            continue;
        }
        if (NULL == blocks) {
            msgs[n++] = hdring_msg(child, whole, count);
        } else {
            const int end = child + mask < p ? child + mask : p;
            const size_t at = hdring_part_offset(blocks, child);
            msgs[n++] = hdring_msg(child, hdring_at(acc, at), hdring_part_offset(blocks, end) - at);
        }
    }
    return hdring_exchange(x, msgs, n, NULL, 0);
}

int hdring_binomial_bcast(const hdring_xport_t *x, hdring_loc_t at, size_t count)
{
    const int r = x->rank, span = subtree_span(r, x->size);
    int rc = HDRING_OK;

    if (r != 0) {
        rc = hdring_recv(x, hdring_msg(r - span, at, count));
    }
    return HDRING_OK == rc ? send_to_children(x, span, NULL, at.buf, at, count) : rc;
}

int hdring_flat_bcast(const hdring_xport_t *x, hdring_loc_t at, size_t count)
{
    if (0 != x->rank) {
        return hdring_recv(x, hdring_msg(0, at, count));
    }
    const int receivers = x->size - 1;
    if (0 == receivers) {
        return HDRING_OK;
    }
    const hdring_partition_t batches = hdring_partition_balanced(hdring_flat_batches(receivers), (size_t) receivers);
    hdring_msg_t msgs[HDRING_EXCHANGE_STACK];
    int rc = HDRING_OK;
    for (int b = 0; b < batches.nparts && HDRING_OK == rc; ++b) {
        const int first = 1 + (int) hdring_part_offset(&batches, b), n = (int) hdring_part_count(&batches, b);
        for (int i = 0; i < n; ++i) {
            msgs[i] = hdring_msg(first + i, at, count);
        }
        rc = hdring_exchange(x, msgs, n, NULL, 0);
    }
    return rc;
}

int hdring_binomial_scatter(const hdring_xport_t *x, const hdring_partition_t *blocks, hdring_buf_t acc)
{
    const int r = x->rank, p = x->size, span = subtree_span(r, p);
    int rc = HDRING_OK;

    if (r != 0) {
        const int end = r + span < p ? r + span : p;
        const size_t at = hdring_part_offset(blocks, r);
        rc = hdring_recv(x, hdring_msg(r - span, hdring_at(acc, at), hdring_part_offset(blocks, end) - at));
    }
    return HDRING_OK == rc ? send_to_children(x, span, blocks, acc, hdring_at(acc, 0), 0) : rc;
}
