/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * hdring transport interface: the only way the algorithms touch data.
 *
 * The kernels and algorithms are written once against this interface. The component implements it over the
 * PML (coll_hdring_transport.c); the unit tests implement it over in-memory mailboxes between virtual ranks
 * (test/sim). The interface is deliberately small:
 *
 *   exchange  post a batch of sends and receives of element ranges, wait for all of them;
 *   start     post one send or receive and return at once; wait completes the messages started: pipelined
 *             kernels keep a bounded number in flight (HDRING_MAX_INFLIGHT) so that one segment's transfer
 *             overlaps another's reduction or forwarding;
 *   reduce    dst = left (op) right on an element range, left being the operand of the lower ranks;
 *   copy      a local element-range copy;
 *   take      memory for a call's message lists and tables (never data), until the call returns.
 *
 * Schedules recorded from the algorithms (hdring_schedule.h) can also run without blocking: post_exchange and
 * test_exchange split an exchange in two, test is a wait that gives up when a message is still in flight. Only
 * hdring_exec_run calls them; a transport that runs blocking schedules alone may leave them NULL.
 *
 * Buffers are named, not pointed to: the transport maps a name and an element offset to memory (offset times
 * the datatype's extent), so kernels work unchanged for contiguous, padded and strided datatypes. IN may be the
 * same memory as OUT (MPI_IN_PLACE); kernels never read an IN range after writing the same range of OUT.
 *
 * Peers are algorithm ranks 0..size-1; the transport maps them to communicator ranks. A message or reduction
 * of 0 elements is a no-op on both sides, so kernels need not special-case empty blocks: sender and receiver
 * compute the same counts. Kernels never send to themselves.
 *
 * Channels: messages of different channels of one transport never match one another (the component gives each
 * collective call in flight tags of its own; the simulator keeps them apart), so several schedules may run at once.
 *
 * Views: a collective can run any algorithm on a sub-group of its ranks and a window of its buffers (the ranks
 * of one node, a slice of the vector) through hdring_view(): the new transport handle numbers the sub-group's
 * ranks 0..size-1 and names its own IN, OUT, TMP and WORK, each mapped to a parent buffer from an element
 * offset. Views nest; the base transport resolves every peer and buffer through the chain
 * (hdring_view_peer, hdring_view_loc), so kernels never know they run on a view.
 */
#ifndef HDRING_TRANSPORT_H
#define HDRING_TRANSPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "hdring_status.h"

typedef enum hdring_buf {
    HDRING_BUF_IN,   /* the caller's input vector (read-only) */
    HDRING_BUF_OUT,  /* the caller's output buffer */
    HDRING_BUF_TMP,  /* scratch for received operands */
    HDRING_BUF_WORK, /* scratch accumulator when OUT cannot hold the whole vector (reduce_scatter) */
    HDRING_NBUFS
} hdring_buf_t;

typedef struct hdring_loc {
    hdring_buf_t buf;
    size_t off; /* elements */
} hdring_loc_t;

typedef struct hdring_msg {
    int peer;
    hdring_loc_t at;
    size_t count; /* elements */
} hdring_msg_t;

/* reduce() flags */
enum { HDRING_REDUCE_REPLICATED = 1 };

/* A sub-group and buffer window of a parent transport. Sub rank i is parent rank
 * first + ((i + rotate) mod size) * stride; sub buffer b is parent location buf[b] onwards. */
typedef struct hdring_view {
    const struct hdring_view *parent; /* NULL: the base transport's own ranks and buffers */
    int first, stride, size, rotate;
    hdring_loc_t buf[HDRING_NBUFS];
} hdring_view_t;

typedef struct hdring_xport hdring_xport_t;

/* A message in flight (hdring_isend, hdring_irecv): a slot of the transport's, or HDRING_REQ_NONE (nothing in
 * flight: a message of 0 elements, or one already completed). */
typedef int hdring_req_t;
#define HDRING_REQ_NONE (-1)
#define HDRING_MAX_INFLIGHT 32 /* messages one rank may have in flight at once */
#define HDRING_EXCHANGE_STACK 16 /* messages an exchange serves without memory from take */

typedef struct hdring_transport_ops {
    /* Post all receives and sends, return when all are complete. HDRING_OK or an HDRING_ERR_ code
     * (hdring_status.h). Up to HDRING_EXCHANGE_STACK messages in all, it needs no memory (messages of more than
     * INT_MAX elements aside, which the PML transport describes with a derived datatype): a rank that has none
     * left still sends them. */
    int (*exchange)(const hdring_xport_t *x, const hdring_msg_t *sends, int nsends, const hdring_msg_t *recvs,
                    int nrecvs);
    /* Post one message and return: *req is in flight until wait completes it. A send's range must not change and
     * a receive's must not be read until then. HDRING_ERR_TRANSPORT when HDRING_MAX_INFLIGHT are in flight. */
    int (*start)(const hdring_xport_t *x, const hdring_msg_t *msg, bool is_send, hdring_req_t *req);
    /* Complete the messages reqs[0..n) (HDRING_REQ_NONE entries are skipped) and set them to HDRING_REQ_NONE.
     * Messages still in flight when a collective call fails are withdrawn by the transport. */
    int (*wait)(const hdring_xport_t *x, hdring_req_t *reqs, int n);
    /* dst = left (op) right. dst is exactly left, exactly right, or overlaps neither. When dst is left, the
     * right range may be overwritten (used as scratch). With HDRING_REDUCE_REPLICATED several ranks compute
     * this same reduction and must get the same bits: the transport then evaluates op with fixed operand
     * roles whatever dst is. Otherwise, for a commutative op, it may swap them to save a pass. */
    int (*reduce)(const hdring_xport_t *x, hdring_loc_t left, hdring_loc_t right, hdring_loc_t dst, size_t count,
                  unsigned flags);
    /* src and dst must not overlap (equal locations are a no-op). */
    int (*copy)(const hdring_xport_t *x, hdring_loc_t src, hdring_loc_t dst, size_t count);
    /* `bytes` of memory aligned for any type, valid until the collective call returns; NULL if none is left. */
    void *(*take)(const hdring_xport_t *x, size_t bytes);
    /* Nonblocking exchange: post_exchange posts what exchange would and returns at once; test_exchange completes
     * them all (*done true, as exchange returns) once every one has, and otherwise leaves them in flight (*done
     * false). One exchange at a time per transport handle. */
    int (*post_exchange)(const hdring_xport_t *x, const hdring_msg_t *sends, int nsends, const hdring_msg_t *recvs,
                         int nrecvs);
    int (*test_exchange)(const hdring_xport_t *x, bool *done);
    /* wait for messages that have all completed (*done true); otherwise (*done false) nothing changes. */
    int (*test)(const hdring_xport_t *x, hdring_req_t *reqs, int n, bool *done);
} hdring_transport_ops_t;

struct hdring_xport {
    const hdring_transport_ops_t *ops;
    void *ctx;
    int rank; /* algorithm rank */
    int size;
    const hdring_view_t *view; /* NULL: the base transport's ranks and buffers */
    int channel;               /* messages match only messages of the same channel (0 unless several run) */
};

static inline hdring_loc_t hdring_at(hdring_buf_t buf, size_t off)
{
    hdring_loc_t loc = {buf, off};
    return loc;
}

static inline hdring_msg_t hdring_msg(int peer, hdring_loc_t at, size_t count)
{
    hdring_msg_t m = {peer, at, count};
    return m;
}

/* The base transport's rank of a view's rank, and location of a view's location. */
static inline int hdring_view_peer(const hdring_view_t *v, int peer)
{
    for (; NULL != v; v = v->parent) {
        peer = v->first + (peer + v->rotate) % v->size * v->stride;
    }
    return peer;
}

static inline hdring_loc_t hdring_view_loc(const hdring_view_t *v, hdring_loc_t at)
{
    for (; NULL != v; v = v->parent) {
        at = hdring_at(v->buf[at.buf].buf, v->buf[at.buf].off + at.off);
    }
    return at;
}

/* A view of x: `size` ranks first, first + stride, ... rotated by `rotate`, with x's buffers unchanged (change
 * v->buf afterwards to move a window). The caller must be one of the ranks, and v must outlive the handle. */
static inline hdring_xport_t hdring_view(const hdring_xport_t *x, hdring_view_t *v, int first, int stride, int size,
                                         int rotate)
{
    hdring_xport_t sub = {x->ops, x->ctx, 0, size, v, x->channel};
    v->parent = x->view;
    v->first = first;
    v->stride = stride;
    v->size = size;
    v->rotate = rotate;
    for (int b = 0; b < HDRING_NBUFS; ++b) {
        v->buf[b] = hdring_at((hdring_buf_t) b, 0);
    }
    sub.rank = ((x->rank - first) / stride - rotate % size + size) % size;
    return sub;
}

static inline int hdring_exchange(const hdring_xport_t *x, const hdring_msg_t *sends, int nsends,
                                  const hdring_msg_t *recvs, int nrecvs)
{
    return x->ops->exchange(x, sends, nsends, recvs, nrecvs);
}

static inline int hdring_sendrecv(const hdring_xport_t *x, hdring_msg_t send, hdring_msg_t recv)
{
    return x->ops->exchange(x, &send, 1, &recv, 1);
}

static inline int hdring_send(const hdring_xport_t *x, hdring_msg_t send)
{
    return x->ops->exchange(x, &send, 1, NULL, 0);
}

static inline int hdring_recv(const hdring_xport_t *x, hdring_msg_t recv)
{
    return x->ops->exchange(x, NULL, 0, &recv, 1);
}

/* A message of 0 elements is never posted: *req is HDRING_REQ_NONE. */
static inline int hdring_isend(const hdring_xport_t *x, hdring_msg_t send, hdring_req_t *req)
{
    *req = HDRING_REQ_NONE;
    return 0 == send.count ? HDRING_OK : x->ops->start(x, &send, true, req);
}

static inline int hdring_irecv(const hdring_xport_t *x, hdring_msg_t recv, hdring_req_t *req)
{
    *req = HDRING_REQ_NONE;
    return 0 == recv.count ? HDRING_OK : x->ops->start(x, &recv, false, req);
}

static inline int hdring_wait(const hdring_xport_t *x, hdring_req_t *reqs, int n)
{
    return x->ops->wait(x, reqs, n);
}

static inline int hdring_reduce(const hdring_xport_t *x, hdring_loc_t left, hdring_loc_t right, hdring_loc_t dst,
                                size_t count)
{
    return x->ops->reduce(x, left, right, dst, count, 0);
}

/* A reduction computed identically on several ranks (both partners of a recursive-doubling step). */
static inline int hdring_reduce_replicated(const hdring_xport_t *x, hdring_loc_t left, hdring_loc_t right,
                                           hdring_loc_t dst, size_t count)
{
    return x->ops->reduce(x, left, right, dst, count, HDRING_REDUCE_REPLICATED);
}

/* A copy onto itself (an algorithm's block already in place) costs nothing. */
static inline int hdring_copy(const hdring_xport_t *x, hdring_loc_t src, hdring_loc_t dst, size_t count)
{
    return src.buf == dst.buf && src.off == dst.off ? HDRING_OK : x->ops->copy(x, src, dst, count);
}

/* Memory for n items of `size` bytes until the call returns (hdring_transport_ops_t.take); NULL on overflow or
 * when none is left. */
static inline void *hdring_take(const hdring_xport_t *x, size_t n, size_t size)
{
    return 0 != size && n > (size_t) -1 / size ? NULL : x->ops->take(x, n * size);
}

#endif
