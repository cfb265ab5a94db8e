/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring messages as the PML takes them: a message of a run described for the PML (its communicator rank,
 * pieces, derived datatype, packing), posted and completed, and the blocking exchanges of messages so described.
 * Private to the transport over the PML (coll_hdring_pml.c, coll_hdring_pml_msg.c). The short helpers are inline:
 * a call of a few bytes pays for each instruction here.
 */
#ifndef MCA_COLL_HDRING_PML_MSG_H
#define MCA_COLL_HDRING_PML_MSG_H

#include "coll_hdring.h"

#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/pml/pml.h"
#include "ompi/request/request.h"

typedef mca_coll_hdring_pml_msg_t pml_message_t;

typedef mca_coll_hdring_pml_side_t pml_side_t;

/* The communicator rank of an algorithm rank of x (a view of t's transport, or the transport itself). */
static inline int pml_comm_rank(const mca_coll_hdring_pml_t *t, const hdring_xport_t *x, int peer)
{
    const int rank = hdring_view_peer(x->view, peer);
    return NULL == t->rank_of ? rank : t->rank_of[rank];
}

/* Whether a send of count elements at `at` (a base location) reads t's same_bytes instead
 * (pml_contribute). */
static inline bool pml_reads_same_bytes(const mca_coll_hdring_pml_t *t, hdring_loc_t at,
                                                        size_t count)
{
    return NULL != t->same_bytes.buf && HDRING_BUF_OUT == at.buf && t->same_bytes.off == at.off &&
           t->same_bytes.count == count;
}

/* A failed PML call: its error kept for pml_error, the kernel told HDRING_ERR_TRANSPORT. */
static inline int pml_failed(mca_coll_hdring_pml_t *t, int ompi_error)
{
    t->error = ompi_error;
    return HDRING_ERR_TRANSPORT;
}

/* The status of completed messages (rc, as the PML's wait returned it, and their statuses). A wait that says the
 * error is in the statuses (or, under ULFM, that some are pending because the communicator was revoked or a peer
 * died) gives the first real error among them: MPI_ERR_PROC_FAILED or MPI_ERR_REVOKED, as the caller should see
 * it. A poisoned rank posted its receives empty: a peer that did not know yet sent it data, and those receives end
 * truncated, which it ignores (the data are not its to keep). */
static inline int settled(const mca_coll_hdring_pml_t *t, int rc, const ompi_status_public_t *statuses, int n)
{
    if (OPAL_LIKELY(OMPI_SUCCESS == rc)) {
        return rc;
    }
    if (MPI_ERR_IN_STATUS == rc || MPI_ERR_PENDING == rc) {
        for (int i = 0; i < n; ++i) {
            const int e = statuses[i].MPI_ERROR;
            if (MPI_SUCCESS != e && MPI_ERR_PENDING != e && !(t->poisoned && MPI_ERR_TRUNCATE == e)) {
                return e;
            }
        }
        return t->poisoned ? OMPI_SUCCESS : rc;
    }
    return t->poisoned && MPI_ERR_TRUNCATE == rc ? OMPI_SUCCESS : rc;
}

/* ---- messages in pieces ----
 * ob1 sends a message of at most HDRING_PML_INLINE_BYTES inline and a larger one through a send request, which on
 * a node with more ranks than cores costs a turn of the scheduler (hdring_defaults.h, mca_coll_hdring_pieces_bytes).
 * A message between ranks of one node of more than that and at most t->inline_pieces_bytes there goes as pieces of
 * HDRING_PML_INLINE_BYTES bytes (the last one shorter), each a message of MPI_BYTE. Both ends cut alike without a
 * word between them: the message's size is the same at both (its type signatures match, whatever (count, datatype)
 * each side describes it with), and so is whether the two share a node. A side whose data are not contiguous
 * packs them first (a receive unpacks once all its pieces are in); a poisoned side sends or receives the same
 * number of pieces, empty. */

/* Whether a message of `bytes` bytes by the call's description, to or from communicator rank peer, goes in pieces:
 * larger than an inline send, within t's limit, and within the node (between nodes every piece would pay the
 * network's latency). */
static inline bool pml_in_pieces(const mca_coll_hdring_pml_t *t, size_t bytes, int peer)
{
    return bytes > HDRING_PML_INLINE_BYTES && bytes <= t->inline_pieces_bytes &&
           (NULL == t->node_of || t->node_of[peer] == t->node);
}

/* The slow half of pml_cut: a message that goes in pieces (coll_hdring_pml_msg.c). */
int mca_coll_hdring_msg_cut_pieces(mca_coll_hdring_pml_t *t, pml_message_t *m, size_t bytes, bool is_send);

/* Decides whether m, of `bytes` bytes by the call's description (whether or not the call is poisoned), to or
 * from communicator rank peer, goes in pieces: sets m->pieces and, for pieces, the rest; packs a send that needs
 * it. An Open MPI status. */
static inline __opal_attribute_always_inline__ int pml_cut(mca_coll_hdring_pml_t *t, pml_message_t *m,
                                                                          size_t bytes, int peer, bool is_send)
{
    m->pieces = 1;
    m->inline_size = bytes <= HDRING_PML_INLINE_BYTES;
    if (OPAL_LIKELY(!pml_in_pieces(t, bytes, peer))) {
        return OMPI_SUCCESS;
    }
    return mca_coll_hdring_msg_cut_pieces(t, m, bytes, is_send);
}

/* Bytes of piece j of m: none beyond m->bytes (an empty call, or a short erroneous one). */
static inline int pml_piece_bytes(const pml_message_t *m, int j)
{
    return m->bytes <= j * HDRING_PML_INLINE_BYTES
               ? 0
               : (int) hdring_segment_count((size_t) m->bytes, HDRING_PML_INLINE_BYTES, (size_t) j);
}

/* Posts m to the PML, nonblocking: its pieces' requests (m->pieces of them) in reqs. On failure none is left
 * posted. */
int mca_coll_hdring_msg_post(mca_coll_hdring_pml_t *t, const pml_message_t *m, int peer, bool is_send,
                             ompi_request_t **reqs);

/* Posts sides[from .. to), sends if `sends`, receives otherwise, their requests one after another from reqs[0]: an
 * Open MPI status, and in *nposted how many requests it posted (on failure, what was posted stays posted: withdraw
 * them with mca_coll_hdring_msg_unpost). */
int mca_coll_hdring_msg_post_sides(mca_coll_hdring_pml_t *t, const pml_side_t *sides, int from, int to, bool sends,
                                   ompi_request_t **reqs, int *nposted);

/* Withdraws n posted requests: receives cancelled (the caller may free their buffers once it has the error),
 * sends left to complete on their own. */
void mca_coll_hdring_msg_unpost(ompi_request_t **reqs, int n, bool is_send);

/* After a receive of m completed with these statuses (one per piece): whether each found an empty message where
 * it expected data (pml_check_received), and m's packed bytes unpacked. An Open MPI status. */
int mca_coll_hdring_msg_received(mca_coll_hdring_pml_t *t, const pml_message_t *m,
                                 const ompi_status_public_t *statuses);

/* Once the PML is done with the message. */
static inline void pml_release(pml_message_t *m)
{
    if (m->derived) {
        ompi_datatype_destroy(&m->type);
    }
}

/* The same_bytes range's copy, if it is still to be made (pml_contribute). */
static inline void pml_fill(mca_coll_hdring_pml_t *t)
{
    if (t->same_bytes.unfilled) {
        char *range = t->base[HDRING_BUF_OUT] + (ptrdiff_t) t->same_bytes.off * t->extent;
        t->same_bytes.unfilled = false;
        t->same_bytes.fill_status = ompi_datatype_sndrcv(t->same_bytes.buf, t->same_bytes.n, t->same_bytes.type,
                                                         range, (int) t->same_bytes.count, t->dtype);
    }
}

/* A receive of m that found an empty message: poisons t if m's type has data (coll_hdring_pml_msg.c). */
void mca_coll_hdring_msg_empty_received(mca_coll_hdring_pml_t *t, const pml_message_t *m);

/* A receive that found an empty message where it expected data: the sender was poisoned (pml_poison). Every
 * receive passes here; the type's size is looked up only for an empty one. */
static inline void pml_check_received(mca_coll_hdring_pml_t *t, const pml_message_t *m,
                                                      const ompi_status_public_t *status)
{
    if (0 == status->_ucount && 0 != m->n) {
        mca_coll_hdring_msg_empty_received(t, m);
    }
}

/* pml_exchange_pair where a message goes in pieces (coll_hdring_pml_msg.c). */
int mca_coll_hdring_msg_exchange_in_pieces(mca_coll_hdring_pml_t *t, pml_side_t *send, pml_side_t *recv);
/* pml_exchange_pair of a send and a receive where the send is larger than an inline one (coll_hdring_pml_msg.c). */
int mca_coll_hdring_msg_exchange_sending_first(mca_coll_hdring_pml_t *t, pml_side_t *send, pml_side_t *recv);

/* One message, or one send and one receive (NULL: none): most exchanges of every algorithm. Blocking calls cost
 * far less per call than posting both and waiting on the array. A pair whose send is sent inline posts the
 * receive and sends, blocking (as Open MPI's own sendrecv does). A pair with a larger send sends first
 * (mca_coll_hdring_msg_exchange_sending_first): a receive posted while its message is already here copies it
 * there and then, and posted first it would hold this rank's send back until that copy is done. Releases both
 * messages. */
static inline __opal_attribute_always_inline__ int pml_exchange_pair(mca_coll_hdring_pml_t *t,
                                                                                     pml_side_t *send,
                                                                                     pml_side_t *recv)
{
    ompi_request_t *req;
    ompi_status_public_t status;
    int rc = OMPI_SUCCESS;

    if (OPAL_UNLIKELY((NULL != send && send->m.pieces > 1) || (NULL != recv && recv->m.pieces > 1))) {
        return mca_coll_hdring_msg_exchange_in_pieces(t, send, recv);
    }
    if (NULL != send && NULL != recv && !send->m.inline_size) {
        return mca_coll_hdring_msg_exchange_sending_first(t, send, recv);
    }
    if (NULL != recv) {
        pml_message_t *r = &recv->m;
        if (NULL == send) {
            pml_fill(t);
            rc = settled(t, MCA_PML_CALL(recv(r->addr, r->n, r->type, recv->peer, t->tag, t->comm, &status)), &status, 1);
        } else {
            rc = MCA_PML_CALL(irecv(r->addr, r->n, r->type, recv->peer, t->tag, t->comm, &req));
        }
    }
    if (NULL != send && OMPI_SUCCESS == rc) {
        const pml_message_t *m = &send->m;
        rc = MCA_PML_CALL(send(m->addr, m->n, m->type, send->peer, t->tag, MCA_PML_BASE_SEND_STANDARD, t->comm));
        pml_fill(t); /* while the receive's message is on its way */
        if (NULL != recv) {
            if (OMPI_SUCCESS != rc) { /* withdraw the receive: the caller may free its buffer */
                ompi_request_cancel(req);
            }
            const int recv_rc = settled(t, ompi_request_wait(&req, &status), &status, 1);
            rc = OMPI_SUCCESS != rc ? rc : recv_rc;
        }
    }
    if (NULL != recv && OMPI_SUCCESS == rc) {
        pml_check_received(t, &recv->m, &status);
    }
    if (NULL != send) {
        pml_release(&send->m);
    }
    if (NULL != recv) {
        pml_release(&recv->m);
    }
    return OMPI_SUCCESS == rc ? HDRING_OK : pml_failed(t, rc);
}

/* Sends first, then receives (as mca_coll_hdring_msg_exchange_sending_first, and for the same reason), then a wait
 * for all: sides[0 .. nrecvs) are the receives, sides[nrecvs .. n) the sends. Sends alone of at most
 * HDRING_PML_INLINE_BYTES each go one after another, blocking: ob1 copies each into the BTL at once, so none waits
 * for its receiver, and no request is posted, waited on and freed (a binomial bcast's root at 4 ranks: 1300
 * instructions per 64-byte call, 1500 through requests). reqs and statuses have room for `room` requests (a message
 * in pieces needs one per piece; more is taken from t's tables). Releases every message. */
int mca_coll_hdring_msg_exchange_sides(mca_coll_hdring_pml_t *t, pml_side_t *sides, int nrecvs, int n,
                                       ompi_request_t **reqs, ompi_status_public_t *statuses, int room);


_Static_assert(HDRING_MAX_INFLIGHT <= 32, "the slots of messages in flight are the bits of a uint32_t");

#endif
