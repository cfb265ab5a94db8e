/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring messages as the PML takes them (coll_hdring_msg.h): pieces, posting and completing, and the blocking
 * exchanges.
 */
#include "coll_hdring_msg.h"

void mca_coll_hdring_msg_pieces(mca_coll_hdring_msg_t *m, size_t bytes, ptrdiff_t *lb)
{
    size_t type_size;
    ompi_datatype_type_size(m->type, &type_size);
    m->pieces = (int) hdring_segments(bytes, HDRING_PML_INLINE_BYTES);
    /* what this side describes, which only an erroneous call makes differ from `bytes` (an allgather whose send
     * count and type hold less than its receive count and type): never read past it, send short pieces */
    m->bytes = (int) ((size_t) m->n * type_size < bytes ? (size_t) m->n * type_size : bytes);
    m->packed = 0 != m->bytes && !ompi_datatype_is_contiguous_memory_layout(m->type, m->n);
    *lb = 0;
    if (!m->packed && 0 != m->bytes) { /* the bytes start at the type's true lower bound */
        ptrdiff_t true_extent;
        ompi_datatype_get_true_extent(m->type, lb, &true_extent);
    }
}

int mca_coll_hdring_msg_post(const mca_coll_hdring_wire_t *w, const mca_coll_hdring_msg_t *m, int peer, bool is_send,
                             ompi_request_t **reqs)
{
    if (1 == m->pieces) {
        return is_send ? MCA_PML_CALL(isend(m->addr, m->n, m->type, peer, w->tag, MCA_PML_BASE_SEND_STANDARD,
                                            w->comm, reqs))
                       : MCA_PML_CALL(irecv(m->addr, m->n, m->type, peer, w->tag, w->comm, reqs));
    }
    int rc = OMPI_SUCCESS, posted = 0;
    for (; posted < m->pieces && OMPI_SUCCESS == rc; posted += OMPI_SUCCESS == rc) {
        char *at = m->flat + (ptrdiff_t) posted * HDRING_PML_INLINE_BYTES;
        const int len = mca_coll_hdring_piece_bytes(m, posted);
        rc = is_send ? MCA_PML_CALL(isend(at, len, MPI_BYTE, peer, w->tag, MCA_PML_BASE_SEND_STANDARD, w->comm,
                                          &reqs[posted]))
                     : MCA_PML_CALL(irecv(at, len, MPI_BYTE, peer, w->tag, w->comm, &reqs[posted]));
    }
    if (OMPI_SUCCESS != rc) {
        mca_coll_hdring_msg_unpost(reqs, posted, is_send);
    }
    return rc;
}

int mca_coll_hdring_msg_post_sides(const mca_coll_hdring_wire_t *w, const mca_coll_hdring_side_t *sides, int from,
                                   int to, bool sends, ompi_request_t **reqs, int *nposted)
{
    int rc = OMPI_SUCCESS;
    *nposted = 0;
    for (int i = from; i < to && OMPI_SUCCESS == rc; ++i) {
        rc = mca_coll_hdring_msg_post(w, &sides[i].m, sides[i].peer, sends, &reqs[*nposted]);
        *nposted += OMPI_SUCCESS == rc ? sides[i].m.pieces : 0;
    }
    return rc;
}

void mca_coll_hdring_msg_unpost(ompi_request_t **reqs, int n, bool is_send)
{
    for (int i = 0; i < n; ++i) {
        if (is_send) {
            ompi_request_free(&reqs[i]);
        } else {
            ompi_request_cancel(reqs[i]);
            ompi_request_wait(&reqs[i], MPI_STATUS_IGNORE);
        }
    }
}

void mca_coll_hdring_msg_empty_received(mca_coll_hdring_wire_t *w, const mca_coll_hdring_msg_t *m)
{
    size_t type_size;
    ompi_datatype_type_size(m->type, &type_size);
    if (0 != type_size) {
        mca_coll_hdring_wire_poison(w, OMPI_ERROR);
    }
}

int mca_coll_hdring_msg_received(mca_coll_hdring_wire_t *w, const mca_coll_hdring_msg_t *m,
                                 const ompi_status_public_t *statuses)
{
    if (1 == m->pieces) {
        mca_coll_hdring_msg_check_received(w, m, &statuses[0]);
        return OMPI_SUCCESS;
    }
    for (int j = 0; j < m->pieces; ++j) {
        if (0 == statuses[j]._ucount && 0 != mca_coll_hdring_piece_bytes(m, j)) {
            mca_coll_hdring_wire_poison(w, OMPI_ERROR);
        }
    }
    return m->packed && !w->poisoned ? ompi_datatype_sndrcv(m->flat, m->bytes, MPI_BYTE, m->addr, m->n, m->type)
                                     : OMPI_SUCCESS;
}

/* ---- blocking exchanges ---- */

/* Requests of sides[0 .. n). */
static int requests_of(const mca_coll_hdring_side_t *sides, int n)
{
    int total = 0;
    for (int i = 0; i < n; ++i) {
        total += sides[i].m.pieces;
    }
    return total;
}

/* Whether sides[0 .. n), sends all, each complete as soon as they are sent. */
static bool inline_sends(const mca_coll_hdring_side_t *sides, int nrecvs, int n)
{
    bool all = 0 == nrecvs;
    for (int i = 0; i < n && all; ++i) {
        all = 1 == sides[i].m.pieces && sides[i].m.inline_size;
    }
    return all;
}

/* The sends of sides[0 .. n), one after another, blocking: an Open MPI status. */
static int send_one_by_one(mca_coll_hdring_wire_t *w, const mca_coll_hdring_side_t *sides, int n)
{
    int rc = OMPI_SUCCESS;
    for (int i = 0; i < n && OMPI_SUCCESS == rc; ++i) {
        const mca_coll_hdring_msg_t *m = &sides[i].m;
        rc = MCA_PML_CALL(send(m->addr, m->n, m->type, sides[i].peer, w->tag, MCA_PML_BASE_SEND_STANDARD, w->comm));
    }
    mca_coll_hdring_wire_fill(w);
    return rc;
}

/* Every side posted, sends first, then a wait for all: an Open MPI status. */
static int post_and_wait(mca_coll_hdring_wire_t *w, const mca_coll_hdring_side_t *sides, int nrecvs, int n,
                         ompi_request_t **reqs, ompi_status_public_t *statuses, int room)
{
    const int total = requests_of(sides, n), recv_reqs = requests_of(sides, nrecvs);
    int sent = 0, received = 0, rc = OMPI_SUCCESS;

    if (total > room) {
        reqs = w->take(w->take_ctx, (size_t) total * sizeof(*reqs));
        statuses = w->take(w->take_ctx, (size_t) total * sizeof(*statuses));
        rc = NULL == reqs || NULL == statuses ? OMPI_ERR_OUT_OF_RESOURCE : OMPI_SUCCESS;
    }
    /* The sends are posted first. A receive whose message is already here (its sender was ahead) reads it as it
     * is posted: a large message over shared memory is copied then, by this rank. Posted after the sends, that copy
     * overlaps the peer's copy of this rank's message; posted before, it holds the peer's back. */
    if (OMPI_SUCCESS == rc) { /* reqs as sides: the receives' first */
        rc = mca_coll_hdring_msg_post_sides(w, sides, nrecvs, n, true, reqs + recv_reqs, &sent);
    }
    if (OMPI_SUCCESS == rc) {
        rc = mca_coll_hdring_msg_post_sides(w, sides, 0, nrecvs, false, reqs, &received);
    }
    mca_coll_hdring_wire_fill(w);
    if (OMPI_SUCCESS == rc) {
        rc = mca_coll_hdring_settled(w, ompi_request_wait_all((size_t) total, reqs, statuses), statuses, total);
        for (int i = 0, first = 0; i < nrecvs && OMPI_SUCCESS == rc; first += sides[i++].m.pieces) {
            rc = mca_coll_hdring_msg_received(w, &sides[i].m, &statuses[first]);
        }
    } else {
        /* A post failed: withdraw the posted receives, whose buffers the caller may free once it has the error,
         * and let the posted sends complete on their own. */
        mca_coll_hdring_msg_unpost(reqs, received, false);
        mca_coll_hdring_msg_unpost(reqs + recv_reqs, sent, true);
    }
    return rc;
}

int mca_coll_hdring_msg_exchange_sides(mca_coll_hdring_wire_t *w, const mca_coll_hdring_side_t *sides, int nrecvs,
                                       int n, ompi_request_t **reqs, ompi_status_public_t *statuses, int room)
{
    const int rc = inline_sends(sides, nrecvs, n) ? send_one_by_one(w, sides, n)
                                                   : post_and_wait(w, sides, nrecvs, n, reqs, statuses, room);
    return OMPI_SUCCESS == rc ? HDRING_OK : mca_coll_hdring_wire_failed(w, rc);
}

int mca_coll_hdring_msg_sending_first(mca_coll_hdring_wire_t *w, const mca_coll_hdring_side_t *send, char *send_at,
                                      const mca_coll_hdring_side_t *recv, char *recv_at)
{
    const mca_coll_hdring_msg_t *m = &send->m, *r = &recv->m;
    ompi_request_t *req;
    ompi_status_public_t status;

    int rc = MCA_PML_CALL(isend(send_at, m->n, m->type, send->peer, w->tag, MCA_PML_BASE_SEND_STANDARD, w->comm,
                                &req));
    mca_coll_hdring_wire_fill(w); /* while the send's message is on its way */
    if (OMPI_SUCCESS == rc) {
        rc = mca_coll_hdring_settled(w, MCA_PML_CALL(recv(recv_at, r->n, r->type, recv->peer, w->tag, w->comm,
                                                          &status)),
                                     &status, 1);
        const int send_rc = ompi_request_wait(&req, MPI_STATUS_IGNORE);
        rc = OMPI_SUCCESS != rc ? rc : send_rc;
    }
    if (OMPI_SUCCESS == rc) {
        mca_coll_hdring_msg_check_received(w, r, &status);
    }
    return OMPI_SUCCESS == rc ? HDRING_OK : mca_coll_hdring_wire_failed(w, rc);
}

/* A pair where a message goes in pieces: the general exchange of two sides. */
int mca_coll_hdring_msg_in_pieces(mca_coll_hdring_wire_t *w, const mca_coll_hdring_side_t *send,
                                  const mca_coll_hdring_side_t *recv)
{
    mca_coll_hdring_side_t sides[2];
    ompi_request_t *reqs[2 * HDRING_MAX_PIECES];
    ompi_status_public_t statuses[2 * HDRING_MAX_PIECES];
    int n = 0;

    if (NULL != recv) {
        sides[n++] = *recv;
    }
    if (NULL != send) {
        sides[n++] = *send;
    }
    return mca_coll_hdring_msg_exchange_sides(w, sides, NULL != recv, n, reqs, statuses, 2 * HDRING_MAX_PIECES);
}

