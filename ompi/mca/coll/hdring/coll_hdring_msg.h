/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring messages as the PML takes them: one message of a run described for the PML (its peer, pieces,
 * derived datatype, packing), the blocking exchanges of such messages, and their posting and completion for the
 * nonblocking ones. The run above (coll_hdring_exec.h) describes each of its messages once, when a call is prepared,
 * and hands the descriptions here; nothing here knows of schedules or algorithms. The short helpers are inline: a
 * call of a few bytes pays for each instruction here.
 *
 * Poisoned runs: a rank that fails locally (no memory for its scratch, a bcast root that cannot pack) runs the rest of
 * its call poisoned: every message it sends is empty and it does no local work, so its peers still find every
 * message; a rank that receives an empty message where it expects data is poisoned by it and passes it on. Every
 * rank then returns an error instead of one of them leaving the others waiting.
 *
 * Messages in pieces: ob1 sends a message of at most HDRING_PML_INLINE_BYTES inline and a larger one through a send
 * request, which on a node with more ranks than cores costs a turn of the scheduler (hdring_defaults.h). A message
 * between ranks of one node of more than that and at most the run's pieces_bytes goes as pieces of
 * HDRING_PML_INLINE_BYTES bytes (the last one shorter), each a message of MPI_BYTE. Both ends cut alike without a
 * word between them: the message's size is the same at both (its type signatures match, whatever (count, datatype)
 * each side describes it with), and so is whether the two share a node. A side whose data are not contiguous packs
 * them first (a receive unpacks once all its pieces are in); a poisoned side sends or receives the same number of
 * pieces, empty.
 */
#ifndef MCA_COLL_HDRING_MSG_H
#define MCA_COLL_HDRING_MSG_H

#include "coll_hdring_ompi.h"

#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/pml/pml.h"
#include "ompi/request/request.h"

#include "hdring_defaults.h"
#include "hdring_pattern.h"
#include "hdring_transport.h"

BEGIN_C_DECLS

/* A run's connection to the PML: where its messages go and how a failure shows (coll_hdring_exec.h embeds it). */
typedef struct mca_coll_hdring_wire {
    struct ompi_communicator_t *comm;
    int tag;
    struct ompi_datatype_t *dtype; /* of the run's elements */
    ptrdiff_t extent;
    size_t dtype_size;             /* bytes of data in one element */
    int error;                     /* the Open MPI error behind a failure, or the reason the run is poisoned */
    bool poisoned;                 /* the run failed on this rank: empty messages, no local work */
    struct {                       /* allgather: this rank's block, copied into OUT while the first messages travel */
        void *dst;                 /* where it goes; NULL: nothing to copy */
        const void *src;
        int n, count;              /* src's count of stype; the block's elements of dtype */
        struct ompi_datatype_t *stype;
        int status;                /* the copy's Open MPI status once made */
    } fill;
    void *(*take)(void *ctx, size_t bytes); /* memory until the run ends (an exchange wider than its room) */
    void *take_ctx;
} mca_coll_hdring_wire_t;

/* One PML message: n elements of *type at addr, given to the PML as one message or as `pieces` messages of
 * bytes. */
typedef struct mca_coll_hdring_msg {
    char *addr;
    int n;
    struct ompi_datatype_t *type;
    bool derived;     /* type was made for this message: destroyed with it (mca_coll_hdring_msg_release) */
    int pieces;       /* 1: (addr, n, type) is the PML's message; more: bytes [0, bytes) of flat, in that many */
    bool inline_size; /* at most HDRING_PML_INLINE_BYTES by the call's description: a send completes at once */
    int bytes;        /* the pieces' bytes in all: 0 when the run is poisoned (empty pieces) */
    char *flat;       /* where those bytes are: at addr, or a packed copy of (addr, n, type) */
    bool packed;      /* flat is a copy: a receive unpacks it into (addr, n, type) once all its pieces are in */
} mca_coll_hdring_msg_t;

/* One message of an exchange: its description and the communicator rank at the other end. */
typedef struct mca_coll_hdring_side {
    mca_coll_hdring_msg_t m;
    int peer;
} mca_coll_hdring_side_t;

/* A failed PML call: its error kept, the core told HDRING_ERR_TRANSPORT. */
static inline int mca_coll_hdring_wire_failed(mca_coll_hdring_wire_t *w, int ompi_error)
{
    w->error = ompi_error;
    return HDRING_ERR_TRANSPORT;
}

/* Runs the rest of the call poisoned, for the Open MPI error ompi_error. */
static inline void mca_coll_hdring_wire_poison(mca_coll_hdring_wire_t *w, int ompi_error)
{
    w->poisoned = true;
    w->error = ompi_error;
}

/* This rank's allgather block copied into OUT, if it is still to be copied: once the run's first messages are
 * posted (they read the send buffer instead, coll_hdring_exec.h), so that the copy overlaps their flight. */
static inline void mca_coll_hdring_wire_fill(mca_coll_hdring_wire_t *w)
{
    if (OPAL_UNLIKELY(NULL != w->fill.dst)) {
        w->fill.status = ompi_datatype_sndrcv(w->fill.src, w->fill.n, w->fill.stype, w->fill.dst, w->fill.count,
                                              w->dtype);
        w->fill.dst = NULL;
    }
}

/* The status of completed messages (rc, as the PML's wait returned it, and their statuses). A wait that says the
 * error is in the statuses (or, under ULFM, that some are pending because the communicator was revoked or a peer
 * died) gives the first real error among them: MPI_ERR_PROC_FAILED or MPI_ERR_REVOKED, as the caller should see
 * it. A poisoned rank posted its receives empty: a peer that did not know yet sent it data, and those receives end
 * truncated, which it ignores (the data are not its to keep). */
static inline int mca_coll_hdring_settled(const mca_coll_hdring_wire_t *w, int rc, const ompi_status_public_t *statuses,
                                          int n)
{
    if (OPAL_LIKELY(OMPI_SUCCESS == rc)) {
        return rc;
    }
    if (MPI_ERR_IN_STATUS == rc || MPI_ERR_PENDING == rc) {
        for (int i = 0; i < n; ++i) {
            const int e = statuses[i].MPI_ERROR;
            if (MPI_SUCCESS != e && MPI_ERR_PENDING != e && !(w->poisoned && MPI_ERR_TRUNCATE == e)) {
                return e;
            }
        }
        return w->poisoned ? OMPI_SUCCESS : rc;
    }
    return w->poisoned && MPI_ERR_TRUNCATE == rc ? OMPI_SUCCESS : rc;
}

/* ---- describing a message ---- */

/* Whether a message of `bytes` bytes by the call's description goes in pieces: larger than an inline send, within
 * pieces_bytes, and within the node (between nodes every piece would pay the network's latency). */
static inline bool mca_coll_hdring_in_pieces(size_t bytes, size_t pieces_bytes, bool same_node)
{
    return bytes > HDRING_PML_INLINE_BYTES && bytes <= pieces_bytes && same_node;
}

/* m, described by (addr, n, type) and of `bytes` bytes by the call's description, in pieces: sets m->pieces,
 * m->bytes and m->packed (its data are not contiguous: they go through a copy); when they are, they start *lb bytes
 * from m->addr. m->flat is the caller's to set: addr + *lb, or memory for the copy, which a send fills before it
 * posts (mca_coll_hdring_msg_pack). */
void mca_coll_hdring_msg_pieces(mca_coll_hdring_msg_t *m, size_t bytes, ptrdiff_t *lb);
static inline int mca_coll_hdring_msg_pack(const mca_coll_hdring_msg_t *m)
{
    return ompi_datatype_sndrcv(m->addr, m->n, m->type, m->flat, m->bytes, MPI_BYTE);
}

/* Bytes of piece j of m: none beyond m->bytes (an empty call, or a short erroneous one). */
static inline int mca_coll_hdring_piece_bytes(const mca_coll_hdring_msg_t *m, int j)
{
    return m->bytes <= j * HDRING_PML_INLINE_BYTES
               ? 0
               : (int) hdring_segment_count((size_t) m->bytes, HDRING_PML_INLINE_BYTES, (size_t) j);
}

/* Once the PML is done with a message described for one use. */
static inline void mca_coll_hdring_msg_release(mca_coll_hdring_msg_t *m)
{
    if (m->derived) {
        ompi_datatype_destroy(&m->type);
        m->derived = false;
    }
}

/* ---- posting and completing ---- */

/* Posts m to the PML, nonblocking: its pieces' requests (m->pieces of them) in reqs. On failure none is left
 * posted. */
int mca_coll_hdring_msg_post(const mca_coll_hdring_wire_t *w, const mca_coll_hdring_msg_t *m, int peer, bool is_send,
                             ompi_request_t **reqs);
/* Posts sides[from .. to), sends if `sends`, receives otherwise, their requests one after another from reqs[0]: an
 * Open MPI status, and in *nposted how many requests it posted (on failure, what was posted stays posted: withdraw
 * them with mca_coll_hdring_msg_unpost). */
int mca_coll_hdring_msg_post_sides(const mca_coll_hdring_wire_t *w, const mca_coll_hdring_side_t *sides, int from,
                                   int to, bool sends, ompi_request_t **reqs, int *nposted);
/* Withdraws n posted requests: receives cancelled (the caller may free their buffers once it has the error),
 * sends left to complete on their own. */
void mca_coll_hdring_msg_unpost(ompi_request_t **reqs, int n, bool is_send);
/* After a receive of m completed with these statuses (one per piece): whether each found an empty message where
 * it expected data (the sender was poisoned: this run is too), and m's packed bytes unpacked. An Open MPI status. */
int mca_coll_hdring_msg_received(mca_coll_hdring_wire_t *w, const mca_coll_hdring_msg_t *m,
                                 const ompi_status_public_t *statuses);

/* ---- blocking exchanges ---- */

/* A receive of m that found an empty message where it expected data: the sender was poisoned, and so is this run.
 * Every receive passes here; the type's size is looked up only for an empty one. */
void mca_coll_hdring_msg_empty_received(mca_coll_hdring_wire_t *w, const mca_coll_hdring_msg_t *m);
static inline void mca_coll_hdring_msg_check_received(mca_coll_hdring_wire_t *w, const mca_coll_hdring_msg_t *m,
                                                      const ompi_status_public_t *status)
{
    if (OPAL_UNLIKELY(0 == status->_ucount && 0 != m->n)) {
        mca_coll_hdring_msg_empty_received(w, m);
    }
}

/* mca_coll_hdring_msg_exchange_pair's send larger than an inline one with a receive: the send posted first (a
 * receive posted while its message is already here copies it there and then, and posted first it would hold this
 * rank's send back until that copy is done), the receive blocking, then the send waited for. */
int mca_coll_hdring_msg_sending_first(mca_coll_hdring_wire_t *w, const mca_coll_hdring_side_t *send, char *send_at,
                                      const mca_coll_hdring_side_t *recv, char *recv_at);
/* mca_coll_hdring_msg_exchange_pair where a message goes in pieces: the general exchange of two sides. */
int mca_coll_hdring_msg_in_pieces(mca_coll_hdring_wire_t *w, const mca_coll_hdring_side_t *send,
                                  const mca_coll_hdring_side_t *recv);

/* Sends first, then receives, then a wait for all: sides[0 .. nrecvs) are the receives, sides[nrecvs .. n) the
 * sends. Sends alone of at most HDRING_PML_INLINE_BYTES each go one after another, blocking: ob1 copies each into
 * the BTL at once, so none waits for its receiver, and no request is posted, waited on and freed. reqs and
 * statuses have room for `room` requests (a message in pieces needs one per piece); more are taken from the wire.
 * HDRING_OK, or HDRING_ERR_TRANSPORT with the error in w. */
int mca_coll_hdring_msg_exchange_sides(mca_coll_hdring_wire_t *w, const mca_coll_hdring_side_t *sides, int nrecvs,
                                       int n, ompi_request_t **reqs, ompi_status_public_t *statuses, int room);

/* One message, or one send and one receive (NULL: none), each of one piece, their data at send_at and recv_at
 * (their sides' own addr is not read): most exchanges of every algorithm. Blocking calls cost far less per call this
 * way than posting both and waiting on the array: a pair whose send is sent inline posts the receive and sends,
 * blocking (as Open MPI's own sendrecv does); a pair with a larger send sends first. HDRING_OK, or
 * HDRING_ERR_TRANSPORT with the error in w. Inline: a call of a few bytes pays for each instruction here. */
static inline __opal_attribute_always_inline__ int
mca_coll_hdring_msg_exchange_at(mca_coll_hdring_wire_t *w, const mca_coll_hdring_side_t *send, char *send_at,
                                const mca_coll_hdring_side_t *recv, char *recv_at)
{
    ompi_request_t *req;
    ompi_status_public_t status;
    int rc = OMPI_SUCCESS;

    if (NULL != send && NULL != recv && !send->m.inline_size) {
        return mca_coll_hdring_msg_sending_first(w, send, send_at, recv, recv_at);
    }
    if (NULL != recv) {
        if (NULL == send) {
            mca_coll_hdring_wire_fill(w);
            rc = mca_coll_hdring_settled(w, MCA_PML_CALL(recv(recv_at, recv->m.n, recv->m.type, recv->peer, w->tag,
                                                              w->comm, &status)),
                                         &status, 1);
        } else {
            rc = MCA_PML_CALL(irecv(recv_at, recv->m.n, recv->m.type, recv->peer, w->tag, w->comm, &req));
        }
    }
    if (NULL != send && OMPI_SUCCESS == rc) {
        rc = MCA_PML_CALL(send(send_at, send->m.n, send->m.type, send->peer, w->tag, MCA_PML_BASE_SEND_STANDARD,
                               w->comm));
        mca_coll_hdring_wire_fill(w); /* while the receive's message is on its way */
        if (NULL != recv) {
            if (OMPI_SUCCESS != rc) { /* withdraw the receive: the caller may free its buffer */
                ompi_request_cancel(req);
            }
            const int recv_rc = mca_coll_hdring_settled(w, ompi_request_wait(&req, &status), &status, 1);
            rc = OMPI_SUCCESS != rc ? rc : recv_rc;
        }
    }
    if (NULL != recv && OMPI_SUCCESS == rc) {
        mca_coll_hdring_msg_check_received(w, &recv->m, &status);
    }
    return OMPI_SUCCESS == rc ? HDRING_OK : mca_coll_hdring_wire_failed(w, rc);
}

/* One message, or one send and one receive (NULL: none), as described by their sides, in pieces or not. */
static inline __opal_attribute_always_inline__ int mca_coll_hdring_msg_exchange_pair(mca_coll_hdring_wire_t *w,
                                                                                     const mca_coll_hdring_side_t *send,
                                                                                     const mca_coll_hdring_side_t *recv)
{
    if (OPAL_UNLIKELY((NULL != send && send->m.pieces > 1) || (NULL != recv && recv->m.pieces > 1))) {
        return mca_coll_hdring_msg_in_pieces(w, send, recv);
    }
    return mca_coll_hdring_msg_exchange_at(w, send, NULL == send ? NULL : send->m.addr, recv,
                                           NULL == recv ? NULL : recv->m.addr);
}

_Static_assert(HDRING_MAX_INFLIGHT <= 32, "the slots of messages in flight are the bits of a uint32_t");

END_C_DECLS

#endif
