/* Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* hdring Bruck kernels: see hdring_kernels.h. */
#include "hdring_kernels.h"

/* The most ranks a step's window spans. */
static int widest_window(int p)
{
    int widest = 0;
    for (int d = 1; d < p; d *= 2) {
        widest = hdring_bruck_window(p, d) > widest ? hdring_bruck_window(p, d) : widest;
    }
    return widest;
}

size_t hdring_bruck_staging(const hdring_blocks_t *blocks)
{
    const size_t widest = (size_t) widest_window(blocks->parts->nparts) * hdring_partition_max_part(blocks->parts);
    const size_t total = hdring_partition_total(blocks->parts);
    return widest < total ? widest : total;
}

/* Copies the blocks of the window (first, nranks) between their places in `buf` and consecutive elements from
 * `packed`, in window order, a run at a time. */
static int pack(const hdring_xport_t *x, const hdring_blocks_t *blocks, int first, int nranks, hdring_buf_t buf,
                hdring_loc_t packed, bool to_packed)
{
    int rc = HDRING_OK;
    for (int i = 0; i < nranks && HDRING_OK == rc;) {
        size_t at, count;
        i += hdring_window_run(blocks, (first + i) % x->size, nranks - i, &at, &count);
        rc = hdring_copy(x, to_packed ? hdring_at(buf, at) : packed, to_packed ? packed : hdring_at(buf, at), count);
        packed.off += count;
    }
    return rc;
}

/* Whether the window is one run in memory; *at its first element. */
static bool one_run(const hdring_blocks_t *blocks, int first, int nranks, size_t *at)
{
    size_t count;
    return hdring_window_run(blocks, first, nranks, at, &count) == nranks;
}

int hdring_bruck_allgather(const hdring_xport_t *x, const hdring_blocks_t *blocks, hdring_buf_t acc)
{
    const int p = x->size, r = x->rank;
    const hdring_loc_t send_staging = hdring_at(HDRING_BUF_TMP, 0);
    const hdring_loc_t recv_staging = hdring_at(HDRING_BUF_TMP, hdring_bruck_staging(blocks));
    int rc = HDRING_OK;

    for (int d = 1; d < p && HDRING_OK == rc; d *= 2) {
        const int c = hdring_bruck_window(p, d), from = (r + d) % p;
        size_t send_at, recv_at;
        const bool send_direct = one_run(blocks, r, c, &send_at), recv_direct = one_run(blocks, from, c, &recv_at);
        const hdring_msg_t send = hdring_msg((r - d + p) % p, send_direct ? hdring_at(acc, send_at) : send_staging,
                                             hdring_window_count(blocks, r, c));
        const hdring_msg_t recv = hdring_msg(from, recv_direct ? hdring_at(acc, recv_at) : recv_staging,
                                             hdring_window_count(blocks, from, c));
        if (!send_direct) {
            rc = pack(x, blocks, r, c, acc, send_staging, true);
        }
        if (HDRING_OK == rc) {
            rc = hdring_sendrecv(x, send, recv);
        }
        if (HDRING_OK == rc && !recv_direct) {
            rc = pack(x, blocks, from, c, acc, recv_staging, false);
        }
    }
    return rc;
}

/* The send of a reduce-scatter step: the partial sums of the window (first, c), the first `from_acc` of its ranks
 * in acc and the rest still in `in`; straight from memory when that is one run of one buffer. */
static int send_partials(const hdring_xport_t *x, const hdring_blocks_t *blocks, int first, int c, int from_acc,
                         hdring_buf_t in, hdring_buf_t acc, hdring_loc_t staging, hdring_msg_t *send)
{
    size_t at;
    int rc;
    if ((0 == from_acc || c == from_acc) && one_run(blocks, first, c, &at)) {
        send->at = hdring_at(0 == from_acc ? in : acc, at);
        return HDRING_OK;
    }
    send->at = staging;
    rc = pack(x, blocks, first, from_acc, acc, staging, true);
    staging.off += hdring_window_count(blocks, first, from_acc);
    return HDRING_OK == rc ? pack(x, blocks, (first + from_acc) % x->size, c - from_acc, in, staging, true) : rc;
}

/* acc = received (op) right over the blocks of the window (first, nranks), a run at a time; `received` holds them
 * packed in window order and moves past them. */
static int reduce_window(const hdring_xport_t *x, const hdring_blocks_t *blocks, int first, int nranks,
                         hdring_loc_t *received, hdring_buf_t right, hdring_buf_t acc)
{
    int rc = HDRING_OK;
    for (int i = 0; i < nranks && HDRING_OK == rc;) {
        size_t at, count;
        i += hdring_window_run(blocks, (first + i) % x->size, nranks - i, &at, &count);
        rc = hdring_reduce(x, *received, hdring_at(right, at), hdring_at(acc, at), count);
        received->off += count;
    }
    return rc;
}

int hdring_bruck_reduce_scatter(const hdring_xport_t *x, const hdring_blocks_t *blocks, hdring_buf_t in,
                                hdring_buf_t acc, hdring_loc_t dst)
{
    const int p = x->size, r = x->rank;
    const hdring_loc_t send_staging = hdring_at(HDRING_BUF_TMP, 0);
    const hdring_loc_t recv_staging = hdring_at(HDRING_BUF_TMP, hdring_bruck_staging(blocks));
    int touched = 0; /* the partial sums of ranks r .. r + touched - 1 are in acc, the others still in `in` */
    int rc = HDRING_OK;

    for (int d = p > 1 ? 1 << (hdring_ceil_log2(p) - 1) : 0; d >= 1 && HDRING_OK == rc; d /= 2) {
        const int c = hdring_bruck_window(p, d), to = (r + d) % p;
        const int sent_from_acc = touched <= d ? 0 : (touched - d < c ? touched - d : c); /* window r+d .. */
        const int received_into_acc = touched < c ? touched : c;                           /* window r .. */
        hdring_msg_t send = hdring_msg(to, send_staging, hdring_window_count(blocks, to, c));
        const hdring_msg_t recv = hdring_msg((r - d + p) % p, recv_staging, hdring_window_count(blocks, r, c));
        hdring_loc_t received = recv_staging;

        rc = send_partials(x, blocks, to, c, sent_from_acc, in, acc, send_staging, &send);
        if (HDRING_OK == rc) {
            rc = hdring_sendrecv(x, send, recv);
        }
        if (HDRING_OK == rc) {
            rc = reduce_window(x, blocks, r, received_into_acc, &received, acc, acc);
        }
        if (HDRING_OK == rc) {
            rc = reduce_window(x, blocks, (r + received_into_acc) % p, c - received_into_acc, &received, in, acc);
        }
        touched = c > touched ? c : touched;
    }
    if (HDRING_OK == rc) {
        const hdring_buf_t result = p > 1 ? acc : in;
        rc = hdring_copy(x, hdring_at(result, hdring_block_offset(blocks, r)), dst, hdring_block_count(blocks, r));
    }
    return rc;
}
