/*
 * hdring transport interface: the only way the algorithms touch data.
 *
 * The kernels and algorithms are written once against this interface. The component implements it over the
 * PML (coll_hdring_transport.c); the unit tests implement it over in-memory mailboxes between virtual ranks
 * (test/sim). The interface is deliberately small:
 *
 *   exchange  post a batch of sends and receives of element ranges, wait for all of them;
 *   reduce    dst = left (op) right on an element range, left being the operand of the lower ranks;
 *   copy      a local element-range copy.
 *
 * Buffers are named, not pointed to: the transport maps a name and an element offset to memory (offset times
 * the datatype's extent), so kernels work unchanged for contiguous, padded and strided datatypes. IN may be the
 * same memory as OUT (MPI_IN_PLACE); kernels never read an IN range after writing the same range of OUT.
 *
 * Peers are algorithm ranks 0..size-1; the transport maps them to communicator ranks (bcast rotates them so the
 * root is 0). A message or reduction of 0 elements is a no-op on both sides, so kernels need not special-case
 * empty blocks: sender and receiver compute the same counts. Kernels never send to themselves.
 */
#ifndef HDRING_TRANSPORT_H
#define HDRING_TRANSPORT_H

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

typedef struct hdring_transport_ops {
    /* Post all receives and sends, return when all are complete. HDRING_OK or an HDRING_ERR_ code
     * (hdring_status.h). */
    int (*exchange)(void *ctx, const hdring_msg_t *sends, int nsends, const hdring_msg_t *recvs, int nrecvs);
    /* dst = left (op) right. dst is exactly left, exactly right, or overlaps neither. When dst is left, the
     * right range may be overwritten (used as scratch). With HDRING_REDUCE_REPLICATED several ranks compute
     * this same reduction and must get the same bits: the transport then evaluates op with fixed operand
     * roles whatever dst is. Otherwise, for a commutative op, it may swap them to save a pass. */
    int (*reduce)(void *ctx, hdring_loc_t left, hdring_loc_t right, hdring_loc_t dst, size_t count, unsigned flags);
    /* src and dst must not overlap (equal locations are a no-op). */
    int (*copy)(void *ctx, hdring_loc_t src, hdring_loc_t dst, size_t count);
} hdring_transport_ops_t;

typedef struct hdring_xport {
    const hdring_transport_ops_t *ops;
    void *ctx;
    int rank; /* algorithm rank */
    int size;
} hdring_xport_t;

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

static inline int hdring_sendrecv(const hdring_xport_t *x, hdring_msg_t send, hdring_msg_t recv)
{
    return x->ops->exchange(x->ctx, &send, 1, &recv, 1);
}

static inline int hdring_send(const hdring_xport_t *x, hdring_msg_t send)
{
    return x->ops->exchange(x->ctx, &send, 1, NULL, 0);
}

static inline int hdring_recv(const hdring_xport_t *x, hdring_msg_t recv)
{
    return x->ops->exchange(x->ctx, NULL, 0, &recv, 1);
}

static inline int hdring_reduce(const hdring_xport_t *x, hdring_loc_t left, hdring_loc_t right, hdring_loc_t dst,
                                size_t count)
{
    return x->ops->reduce(x->ctx, left, right, dst, count, 0);
}

/* A reduction computed identically on several ranks (both partners of a recursive-doubling step). */
static inline int hdring_reduce_replicated(const hdring_xport_t *x, hdring_loc_t left, hdring_loc_t right,
                                           hdring_loc_t dst, size_t count)
{
    return x->ops->reduce(x->ctx, left, right, dst, count, HDRING_REDUCE_REPLICATED);
}

static inline int hdring_copy(const hdring_xport_t *x, hdring_loc_t src, hdring_loc_t dst, size_t count)
{
    return x->ops->copy(x->ctx, src, dst, count);
}

#endif
