/* Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* The hdring transport on SMPI: see smpi_xport.h. */
#include "smpi_xport.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct smpi_arena_block {
    smpi_arena_block_t *next;
    max_align_t data[];
};

static smpi_xport_t *of(const hdring_xport_t *x) { return x->ctx; }

static char *addr(const smpi_xport_t *t, const hdring_xport_t *x, hdring_loc_t at)
{
    at = hdring_view_loc(x->view, at);
    return t->base[at.buf] + at.off * t->elem;
}

static int comm_rank(const smpi_xport_t *t, const hdring_xport_t *x, int peer)
{
    const int base = hdring_view_peer(x->view, peer);
    return NULL == t->rank_of ? base : t->rank_of[base];
}

/* One message posted; *req MPI_REQUEST_NULL for an empty one. */
static int post(const smpi_xport_t *t, const hdring_xport_t *x, const hdring_msg_t *m, bool is_send,
                MPI_Request *req)
{
    *req = MPI_REQUEST_NULL;
    if (0 == m->count) {
        return HDRING_OK;
    }
    const size_t bytes = m->count * t->elem;
    if (bytes > (size_t) INT32_MAX) {
        return HDRING_ERR_UNSUPPORTED;
    }
    char *buf = addr(t, x, m->at);
    const int peer = comm_rank(t, x, m->peer);
    const int rc = is_send ? MPI_Isend(buf, (int) bytes, MPI_BYTE, peer, t->tag, t->comm, req)
                           : MPI_Irecv(buf, (int) bytes, MPI_BYTE, peer, t->tag, t->comm, req);
    return MPI_SUCCESS == rc ? HDRING_OK : HDRING_ERR_TRANSPORT;
}

static int xport_exchange(const hdring_xport_t *x, const hdring_msg_t *sends, int nsends, const hdring_msg_t *recvs,
                          int nrecvs)
{
    smpi_xport_t *t = of(x);
    MPI_Request stack[HDRING_EXCHANGE_STACK], *reqs = stack;
    const int n = nsends + nrecvs;
    if (n > HDRING_EXCHANGE_STACK && NULL == (reqs = hdring_take(x, (size_t) n, sizeof(*reqs)))) {
        return HDRING_ERR_NOMEM;
    }
    int rc = HDRING_OK, posted = 0;
    for (int i = 0; i < nrecvs && HDRING_OK == rc; ++i, ++posted) { /* receives first: a send finds its match */
        rc = post(t, x, &recvs[i], false, &reqs[posted]);
    }
    for (int i = 0; i < nsends && HDRING_OK == rc; ++i, ++posted) {
        rc = post(t, x, &sends[i], true, &reqs[posted]);
    }
    const int wrc = MPI_Waitall(posted, reqs, MPI_STATUSES_IGNORE);
    return HDRING_OK != rc ? rc : MPI_SUCCESS == wrc ? HDRING_OK : HDRING_ERR_TRANSPORT;
}

static int xport_start(const hdring_xport_t *x, const hdring_msg_t *msg, bool is_send, hdring_req_t *req)
{
    smpi_xport_t *t = of(x);
    int slot = 0;
    while (slot < HDRING_MAX_INFLIGHT && MPI_REQUEST_NULL != t->inflight[slot]) {
        ++slot;
    }
    if (HDRING_MAX_INFLIGHT == slot) {
        return HDRING_ERR_TRANSPORT;
    }
    const int rc = post(t, x, msg, is_send, &t->inflight[slot]);
    *req = HDRING_OK == rc && MPI_REQUEST_NULL != t->inflight[slot] ? slot : HDRING_REQ_NONE;
    return rc;
}

static int xport_wait(const hdring_xport_t *x, hdring_req_t *reqs, int n)
{
    smpi_xport_t *t = of(x);
    MPI_Request waiting[HDRING_MAX_INFLIGHT];
    int count = 0;
    for (int i = 0; i < n; ++i) {
        if (HDRING_REQ_NONE != reqs[i]) {
            waiting[count++] = t->inflight[reqs[i]];
            t->inflight[reqs[i]] = MPI_REQUEST_NULL; /* the slot is free again once waited for */
            reqs[i] = HDRING_REQ_NONE;
        }
    }
    return MPI_SUCCESS == MPI_Waitall(count, waiting, MPI_STATUSES_IGNORE) ? HDRING_OK : HDRING_ERR_TRANSPORT;
}

void smpi_charge_reduction(double bytes, double rate)
{
    if (bytes > 0) {
        smpi_execute_benched(bytes / rate);
    }
}

/* dst = left (op) right with the operand roles of the component's transport: the left operand is the lower
 * ranks' (hdring_transport.h). The check sums floats, where the roles cannot change a bit, but they stay. */
static int xport_reduce(const hdring_xport_t *x, hdring_loc_t left, hdring_loc_t right, hdring_loc_t dst,
                        size_t count, unsigned flags)
{
    const smpi_xport_t *t = of(x);
    (void) flags;
    if (t->compute) {
        const float *l = (const float *) addr(t, x, left), *r = (const float *) addr(t, x, right);
        float *d = (float *) addr(t, x, dst);
        for (size_t i = 0; i < count; ++i) {
            d[i] = l[i] + r[i];
        }
    }
    smpi_charge_reduction((double) (count * t->elem), t->reduce_rate);
    return HDRING_OK;
}

static int xport_copy(const hdring_xport_t *x, hdring_loc_t src, hdring_loc_t dst, size_t count)
{
    const smpi_xport_t *t = of(x);
    if (t->compute && count > 0) {
        memcpy(addr(t, x, dst), addr(t, x, src), count * t->elem);
    }
    return HDRING_OK;
}

static void *xport_take(const hdring_xport_t *x, size_t bytes)
{
    smpi_xport_t *t = of(x);
    smpi_arena_block_t *b = malloc(sizeof(*b) + bytes);
    if (NULL == b) {
        return NULL;
    }
    b->next = t->arena;
    t->arena = b;
    return b->data;
}

static const hdring_transport_ops_t smpi_ops = {
    .exchange = xport_exchange,
    .start = xport_start,
    .wait = xport_wait,
    .reduce = xport_reduce,
    .copy = xport_copy,
    .take = xport_take,
};

void smpi_xport_init(smpi_xport_t *t, MPI_Comm comm, int rank, int size, const int *rank_of, size_t elem,
                     double reduce_rate, bool compute)
{
    memset(t, 0, sizeof(*t));
    t->x = (hdring_xport_t) {&smpi_ops, t, rank, size, NULL, 0};
    t->comm = comm;
    t->tag = 4242;
    t->elem = elem;
    t->rank_of = rank_of;
    t->reduce_rate = reduce_rate;
    t->compute = compute;
    for (int i = 0; i < HDRING_MAX_INFLIGHT; ++i) {
        t->inflight[i] = MPI_REQUEST_NULL;
    }
}

void smpi_xport_release(smpi_xport_t *t)
{
    while (NULL != t->arena) {
        smpi_arena_block_t *next = t->arena->next;
        free(t->arena);
        t->arena = next;
    }
}
