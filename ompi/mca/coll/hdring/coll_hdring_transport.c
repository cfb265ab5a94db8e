/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring transport over the PML: the hdring_transport.h operations for one collective call.
 *
 * Element offsets become addresses through the datatype's extent, so derived datatypes work unchanged.
 * A message of more than coll_hdring_max_message_elements elements (INT_MAX by default; reduce_scatter and
 * allgather totals can exceed it) is still one PML message, of a derived datatype (pml_message below).
 * Algorithm ranks are communicator ranks, or, when the call runs in the communicator's locality order, the
 * positions of that order (t->rank_of). Views (hdring_transport.h) are resolved here, per message.
 */
#include "ompi_config.h"

#include <limits.h>

#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/pml/pml.h"
#include "ompi/op/op.h"
#include "ompi/request/request.h"

#include "coll_hdring_pml_exchange.h"

_Static_assert(HDRING_MAX_INFLIGHT <= 32, "the slots of messages in flight are the bits of a uint32_t");

static char *loc_addr(const mca_coll_hdring_pml_t *t, hdring_loc_t at)
{
    return t->base[at.buf] + (ptrdiff_t) at.off * t->extent;
}

/* A message goes to the PML as one message of n elements of *type: the datatype itself up to
 * t->max_message elements; beyond, count 1 of a derived type made of whole runs of max_message elements and
 * the rest. A message is thus never cut in pieces whose boundaries would depend on how this rank describes
 * its data: peers describing the same bytes with other (count, datatype) pairs still match. Here: the derived
 * type of a message of more than t->max_message elements. */
static int __opal_attribute_noinline__ derived_message(const mca_coll_hdring_pml_t *t, const hdring_msg_t *msg,
                                                       pml_message_t *out)
{
    const size_t runs = msg->count / t->max_message, rest = msg->count % t->max_message;
    if (runs > INT_MAX) {
        return OMPI_ERR_NOT_SUPPORTED;
    }
    ompi_datatype_t *run;
    int rc = ompi_datatype_create_contiguous((int) t->max_message, t->dtype, &run);
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    const int lengths[2] = {(int) runs, (int) rest};
    const ptrdiff_t displs[2] = {0, (ptrdiff_t) (runs * t->max_message) * t->extent};
    ompi_datatype_t *const types[2] = {run, t->dtype};
    rc = ompi_datatype_create_struct(0 == rest ? 1 : 2, lengths, displs, types, &out->type);
    ompi_datatype_destroy(&run);
    if (OMPI_SUCCESS == rc) {
        rc = ompi_datatype_commit(&out->type);
        if (OMPI_SUCCESS != rc) {
            ompi_datatype_destroy(&out->type);
        }
    }
    out->n = 1;
    out->derived = OMPI_SUCCESS == rc;
    return rc;
}

/* msg to or from communicator rank peer, as the PML takes it. Inlined into every caller: a call of a few bytes
 * pays for each instruction here. */
static inline __opal_attribute_always_inline__ int pml_message(mca_coll_hdring_pml_t *t, const hdring_xport_t *x,
                                                               const hdring_msg_t *msg, bool is_send, int peer,
                                                               pml_message_t *out)
{
    const size_t bytes = msg->count * t->dtype_size;
    out->derived = false;
    if (OPAL_UNLIKELY(t->poisoned)) { /* an empty message: no buffer needed */
        out->addr = NULL;
        out->n = 0;
        out->type = t->dtype;
        return mca_coll_hdring_pml_cut(t, out, bytes, peer, is_send);
    }
    const hdring_loc_t at = hdring_view_loc(x->view, msg->at);
    if (is_send && mca_coll_hdring_pml_reads_same_bytes(t, at, msg->count)) {
        out->addr = (char *) t->same_bytes.buf;
        out->n = t->same_bytes.n;
        out->type = t->same_bytes.type;
        return mca_coll_hdring_pml_cut(t, out, bytes, peer, is_send);
    }
    out->addr = loc_addr(t, at);
    out->type = t->dtype;
    out->n = (int) msg->count;
    const int rc = mca_coll_hdring_pml_cut(t, out, bytes, peer, is_send);
    return OPAL_LIKELY(msg->count <= t->max_message) || OMPI_SUCCESS != rc || out->pieces > 1
               ? rc
               : derived_message(t, msg, out);
}

void mca_coll_hdring_pml_empty_received(mca_coll_hdring_pml_t *t, const pml_message_t *m)
{
    size_t type_size;
    ompi_datatype_type_size(m->type, &type_size);
    if (0 != type_size) {
        mca_coll_hdring_pml_poison(t, OMPI_ERROR);
    }
}

int mca_coll_hdring_pml_cut_pieces(mca_coll_hdring_pml_t *t, pml_message_t *m, size_t bytes, bool is_send)
{
    size_t type_size;
    ompi_datatype_type_size(m->type, &type_size);
    m->pieces = (int) hdring_segments(bytes, HDRING_PML_INLINE_BYTES);
    /* what this side describes, which only an erroneous call makes differ from `bytes` (an allgather whose send
     * count and type hold less than its receive count and type): never read past it, send short pieces */
    m->bytes = (int) ((size_t) m->n * type_size < bytes ? (size_t) m->n * type_size : bytes);
    m->packed = 0 != m->bytes && !ompi_datatype_is_contiguous_memory_layout(m->type, m->n);
    if (!m->packed) { /* the bytes start at the type's true lower bound (none when empty) */
        ptrdiff_t true_lb = 0, true_extent;
        if (0 != m->bytes) {
            ompi_datatype_get_true_extent(m->type, &true_lb, &true_extent);
        }
        m->flat = m->addr + true_lb;
        return OMPI_SUCCESS;
    }
    m->flat = mca_coll_hdring_tables_take(t, bytes);
    if (NULL == m->flat) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    return is_send ? ompi_datatype_sndrcv(m->addr, m->n, m->type, m->flat, m->bytes, MPI_BYTE) : OMPI_SUCCESS;
}

int mca_coll_hdring_pml_post(mca_coll_hdring_pml_t *t, const pml_message_t *m, int peer, bool is_send,
                             ompi_request_t **reqs)
{
    if (1 == m->pieces) {
        return is_send ? MCA_PML_CALL(isend(m->addr, m->n, m->type, peer, t->tag, MCA_PML_BASE_SEND_STANDARD,
                                            t->comm, reqs))
                       : MCA_PML_CALL(irecv(m->addr, m->n, m->type, peer, t->tag, t->comm, reqs));
    }
    int rc = OMPI_SUCCESS, posted = 0;
    for (; posted < m->pieces && OMPI_SUCCESS == rc; posted += OMPI_SUCCESS == rc) {
        char *at = m->flat + (ptrdiff_t) posted * HDRING_PML_INLINE_BYTES;
        const int len = mca_coll_hdring_pml_piece_bytes(m, posted);
        rc = is_send ? MCA_PML_CALL(isend(at, len, MPI_BYTE, peer, t->tag, MCA_PML_BASE_SEND_STANDARD, t->comm,
                                          &reqs[posted]))
                     : MCA_PML_CALL(irecv(at, len, MPI_BYTE, peer, t->tag, t->comm, &reqs[posted]));
    }
    if (OMPI_SUCCESS != rc) {
        mca_coll_hdring_pml_unpost(reqs, posted, is_send);
    }
    return rc;
}

void mca_coll_hdring_pml_unpost(ompi_request_t **reqs, int n, bool is_send)
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

int mca_coll_hdring_pml_received(mca_coll_hdring_pml_t *t, const pml_message_t *m,
                                 const ompi_status_public_t *statuses)
{
    if (1 == m->pieces) {
        mca_coll_hdring_pml_check_received(t, m, &statuses[0]);
        return OMPI_SUCCESS;
    }
    for (int j = 0; j < m->pieces; ++j) {
        if (0 == statuses[j]._ucount && 0 != mca_coll_hdring_pml_piece_bytes(m, j)) {
            mca_coll_hdring_pml_poison(t, OMPI_ERROR);
        }
    }
    return m->packed && !t->poisoned ? ompi_datatype_sndrcv(m->flat, m->bytes, MPI_BYTE, m->addr, m->n, m->type)
                                     : OMPI_SUCCESS;
}

/* Requests of sides[0 .. n). */
static int requests_of(const pml_side_t *sides, int n)
{
    int total = 0;
    for (int i = 0; i < n; ++i) {
        total += sides[i].m.pieces;
    }
    return total;
}

/* Whether sides[0 .. n), sends all, each complete as soon as they are sent (mca_coll_hdring_pml_exchange_sides). */
static bool inline_sends(const pml_side_t *sides, int nrecvs, int n)
{
    bool all = 0 == nrecvs;
    for (int i = 0; i < n && all; ++i) {
        all = 1 == sides[i].m.pieces && sides[i].m.inline_size;
    }
    return all;
}

/* The sends of sides[0 .. n), one after another, blocking: an Open MPI status. */
static int send_one_by_one(mca_coll_hdring_pml_t *t, const pml_side_t *sides, int n)
{
    int rc = OMPI_SUCCESS;
    for (int i = 0; i < n && OMPI_SUCCESS == rc; ++i) {
        const pml_message_t *m = &sides[i].m;
        rc = MCA_PML_CALL(send(m->addr, m->n, m->type, sides[i].peer, t->tag, MCA_PML_BASE_SEND_STANDARD, t->comm));
    }
    mca_coll_hdring_pml_fill(t);
    return rc;
}

/* Every side posted, receives first, then a wait for all: an Open MPI status. */
static int post_and_wait(mca_coll_hdring_pml_t *t, const pml_side_t *sides, int nrecvs, int n, ompi_request_t **reqs,
                         ompi_status_public_t *statuses, int room)
{
    const int total = requests_of(sides, n);
    int posted = 0, nposted = 0, recv_reqs = 0, rc = OMPI_SUCCESS;

    if (total > room) {
        reqs = mca_coll_hdring_tables_take(t, (size_t) total * sizeof(*reqs));
        statuses = mca_coll_hdring_tables_take(t, (size_t) total * sizeof(*statuses));
        rc = NULL == reqs || NULL == statuses ? OMPI_ERR_OUT_OF_RESOURCE : OMPI_SUCCESS;
    }
    for (; posted < n && OMPI_SUCCESS == rc; ++posted) {
        rc = mca_coll_hdring_pml_post(t, &sides[posted].m, sides[posted].peer, posted >= nrecvs, &reqs[nposted]);
        nposted += OMPI_SUCCESS == rc ? sides[posted].m.pieces : 0;
        recv_reqs = posted < nrecvs ? nposted : recv_reqs;
    }
    mca_coll_hdring_pml_fill(t);
    if (OMPI_SUCCESS == rc) {
        rc = ompi_request_wait_all((size_t) nposted, reqs, statuses);
        for (int i = 0, first = 0; i < nrecvs && OMPI_SUCCESS == rc; first += sides[i++].m.pieces) {
            rc = mca_coll_hdring_pml_received(t, &sides[i].m, &statuses[first]);
        }
    } else {
        /* A post failed: withdraw the posted receives, whose buffers the caller may free once it has the
         * error, and let the posted sends complete on their own. */
        mca_coll_hdring_pml_unpost(reqs, recv_reqs, false);
        mca_coll_hdring_pml_unpost(reqs + recv_reqs, nposted - recv_reqs, true);
    }
    return rc;
}

int mca_coll_hdring_pml_exchange_sides(mca_coll_hdring_pml_t *t, pml_side_t *sides, int nrecvs, int n,
                                       ompi_request_t **reqs, ompi_status_public_t *statuses, int room)
{
    const int rc = inline_sends(sides, nrecvs, n) ? send_one_by_one(t, sides, n)
                                                   : post_and_wait(t, sides, nrecvs, n, reqs, statuses, room);
    for (int i = 0; i < n; ++i) {
        mca_coll_hdring_pml_release(&sides[i].m);
    }
    return OMPI_SUCCESS == rc ? HDRING_OK : mca_coll_hdring_pml_failed(t, rc);
}

int mca_coll_hdring_pml_exchange_in_pieces(mca_coll_hdring_pml_t *t, pml_side_t *send, pml_side_t *recv)
{
    pml_side_t sides[2];
    ompi_request_t *reqs[2 * HDRING_MAX_PIECES];
    ompi_status_public_t statuses[2 * HDRING_MAX_PIECES];
    int n = 0;

    if (NULL != recv) {
        sides[n++] = *recv;
    }
    if (NULL != send) {
        sides[n++] = *send;
    }
    return mca_coll_hdring_pml_exchange_sides(t, sides, NULL != recv, n, reqs, statuses, 2 * HDRING_MAX_PIECES);
}

/* A message of an exchange as the PML takes it. */
static inline __opal_attribute_always_inline__ int resolve(mca_coll_hdring_pml_t *t, const hdring_xport_t *x,
                                                           const hdring_msg_t *msg, bool is_send, pml_side_t *side)
{
    side->peer = mca_coll_hdring_pml_comm_rank(t, x, msg->peer);
    return pml_message(t, x, msg, is_send, side->peer, &side->m);
}

static inline __opal_attribute_always_inline__ int exchange_simple(mca_coll_hdring_pml_t *t, const hdring_xport_t *x,
                                                                   const hdring_msg_t *send, const hdring_msg_t *recv)
{
    pml_side_t s, r;
    int rc = OMPI_SUCCESS;

    if (NULL != send) {
        rc = resolve(t, x, send, true, &s);
    }
    if (NULL != recv && OMPI_SUCCESS == rc) {
        rc = resolve(t, x, recv, false, &r);
        if (OMPI_SUCCESS != rc && NULL != send) {
            mca_coll_hdring_pml_release(&s.m);
        }
    }
    if (OMPI_SUCCESS != rc) {
        return mca_coll_hdring_pml_failed(t, rc);
    }
    return mca_coll_hdring_pml_exchange_pair(t, NULL == send ? NULL : &s, NULL == recv ? NULL : &r);
}

static int pml_exchange(const hdring_xport_t *x, const hdring_msg_t *sends, int nsends, const hdring_msg_t *recvs,
                        int nrecvs)
{
    mca_coll_hdring_pml_t *t = x->ctx;
    ompi_request_t *stack_reqs[HDRING_EXCHANGE_STACK], **reqs = stack_reqs;
    pml_side_t stack_sides[HDRING_EXCHANGE_STACK], *sides = stack_sides;
    ompi_status_public_t stack_statuses[HDRING_EXCHANGE_STACK], *statuses = stack_statuses;
    const hdring_msg_t *one_send = NULL, *one_recv = NULL;
    int nonempty = 0, n = 0, room = HDRING_EXCHANGE_STACK, rc = OMPI_SUCCESS;

    if (nsends <= 1 && nrecvs <= 1) { /* most exchanges: no lists to sift */
        return exchange_simple(t, x, 1 == nsends && 0 != sends[0].count ? sends : NULL,
                               1 == nrecvs && 0 != recvs[0].count ? recvs : NULL);
    }
    for (int i = 0; i < nsends; ++i) {
        nonempty += 0 != sends[i].count;
        one_send = 0 != sends[i].count ? &sends[i] : one_send;
    }
    for (int i = 0; i < nrecvs; ++i) {
        nonempty += 0 != recvs[i].count;
        one_recv = 0 != recvs[i].count ? &recvs[i] : one_recv;
    }
    if (0 == nonempty) {
        return HDRING_OK;
    }
    if (1 == nonempty || (2 == nonempty && NULL != one_send && NULL != one_recv)) {
        return exchange_simple(t, x, one_send, one_recv);
    }
    if (nonempty > HDRING_EXCHANGE_STACK) {
        reqs = hdring_take(x, (size_t) nonempty, sizeof(*reqs));
        sides = hdring_take(x, (size_t) nonempty, sizeof(*sides));
        statuses = hdring_take(x, (size_t) nonempty, sizeof(*statuses));
        if (NULL == reqs || NULL == sides || NULL == statuses) {
            return mca_coll_hdring_pml_failed(t, OMPI_ERR_OUT_OF_RESOURCE);
        }
        room = nonempty;
    }
    for (int i = 0; i < nrecvs && OMPI_SUCCESS == rc; ++i) {
        if (0 != recvs[i].count) {
            rc = resolve(t, x, &recvs[i], false, &sides[n]);
            n += OMPI_SUCCESS == rc;
        }
    }
    const int nrecv_sides = n;
    for (int i = 0; i < nsends && OMPI_SUCCESS == rc; ++i) {
        if (0 != sends[i].count) {
            rc = resolve(t, x, &sends[i], true, &sides[n]);
            n += OMPI_SUCCESS == rc;
        }
    }
    if (OMPI_SUCCESS != rc) {
        for (int i = 0; i < n; ++i) {
            mca_coll_hdring_pml_release(&sides[i].m);
        }
        return mca_coll_hdring_pml_failed(t, rc);
    }
    return mca_coll_hdring_pml_exchange_sides(t, sides, nrecv_sides, n, reqs, statuses, room);
}

/* ---- messages in flight ----
 * Each started message holds a slot of t->inflight until it is waited for; a kernel that fails may leave some,
 * which mca_coll_hdring_pml_withdraw settles before the call returns (its buffers may go with it). */

static int pml_start(const hdring_xport_t *x, const hdring_msg_t *msg, bool is_send, hdring_req_t *req)
{
    mca_coll_hdring_pml_t *t = x->ctx;
    const uint32_t free_slots = ~t->inflight.used;
    if (0 == free_slots) {
        return mca_coll_hdring_pml_failed(t, OMPI_ERR_OUT_OF_RESOURCE);
    }
    const int slot = __builtin_ctz(free_slots), peer = mca_coll_hdring_pml_comm_rank(t, x, msg->peer);
    pml_message_t *m = &t->inflight.msg[slot];
    int rc = pml_message(t, x, msg, is_send, peer, m);
    if (OMPI_SUCCESS == rc) {
        rc = mca_coll_hdring_pml_post(t, m, peer, is_send, t->inflight.req[slot]);
        if (OMPI_SUCCESS != rc) {
            mca_coll_hdring_pml_release(m);
        }
    }
    if (OMPI_SUCCESS != rc) {
        return mca_coll_hdring_pml_failed(t, rc);
    }
    t->inflight.used |= 1u << slot;
    t->inflight.receives = is_send ? t->inflight.receives & ~(1u << slot) : t->inflight.receives | 1u << slot;
    *req = slot;
    return HDRING_OK;
}

static void settle(mca_coll_hdring_pml_t *t, int slot)
{
    mca_coll_hdring_pml_release(&t->inflight.msg[slot]);
    t->inflight.used &= ~(1u << slot);
}

/* Waits for the slots' messages, all of them at once (one wait for all their pieces). */
static int pml_wait(const hdring_xport_t *x, hdring_req_t *reqs, int n)
{
    mca_coll_hdring_pml_t *t = x->ctx;
    ompi_request_t *waiting[HDRING_MAX_INFLIGHT * HDRING_MAX_PIECES];
    ompi_status_public_t statuses[HDRING_MAX_INFLIGHT * HDRING_MAX_PIECES];
    int slots[HDRING_MAX_INFLIGHT], first[HDRING_MAX_INFLIGHT], count = 0, nwaiting = 0, rc = OMPI_SUCCESS;

    for (int i = 0; i < n; ++i) {
        if (HDRING_REQ_NONE != reqs[i]) {
            const int slot = reqs[i];
            slots[count] = slot;
            first[count++] = nwaiting;
            for (int j = 0; j < t->inflight.msg[slot].pieces; ++j) {
                waiting[nwaiting++] = t->inflight.req[slot][j];
            }
            reqs[i] = HDRING_REQ_NONE;
        }
    }
    if (1 == nwaiting) {
        rc = ompi_request_wait(&waiting[0], &statuses[0]);
    } else if (nwaiting > 1) {
        rc = ompi_request_wait_all((size_t) nwaiting, waiting, statuses);
    }
    for (int i = 0; i < count; ++i) {
        if (OMPI_SUCCESS == rc && (t->inflight.receives & 1u << slots[i])) {
            rc = mca_coll_hdring_pml_received(t, &t->inflight.msg[slots[i]], &statuses[first[i]]);
        }
        settle(t, slots[i]);
    }
    return OMPI_SUCCESS == rc ? HDRING_OK : mca_coll_hdring_pml_failed(t, rc);
}

/* As a failed exchange does: receives cancelled (the caller may free their buffers once it has the error),
 * sends left to complete on their own. */
void mca_coll_hdring_pml_withdraw(mca_coll_hdring_pml_t *t)
{
    for (int slot = 0; slot < HDRING_MAX_INFLIGHT && 0 != t->inflight.used; ++slot) {
        if (t->inflight.used & 1u << slot) {
            mca_coll_hdring_pml_unpost(t->inflight.req[slot], t->inflight.msg[slot].pieces,
                                       !(t->inflight.receives & 1u << slot));
            settle(t, slot);
        }
    }
}

static int copy_range(const mca_coll_hdring_pml_t *t, char *dst, char *src, size_t count)
{
    return dst == src ? OMPI_SUCCESS : ompi_datatype_copy_content_same_ddt(t->dtype, count, dst, src);
}

/*
 * Operand roles. Open MPI evaluates ompi_op_reduce(op, source, target) as target = f(target, source) for its
 * own operations and as the user function's inoutvec = invec (op) inoutvec, and ompi_3buff_op_reduce(op, a, b,
 * out) as out = f(a, b). The canonical evaluation of left (op) right is therefore ompi_op_reduce(op, left,
 * right), or ompi_3buff_op_reduce(op, right, left, dst): the same f(right, left) either way. A rank that must
 * agree bit for bit with another computing the same reduction (MAX of NaN and a number, +0 and -0, a user op
 * that is commutative but not symmetric in its bits) has to use it.
 */

/* dst = left (op) right, canonical, with dst distinct from both operands. */
static int reduce_3buff(const mca_coll_hdring_pml_t *t, char *left, char *right, char *dst, size_t count)
{
    if (ompi_op_is_intrinsic(t->op) && ompi_datatype_is_predefined(t->dtype) &&
        NULL != t->op->o_3buff_intrinsic.fns[ompi_op_ddt_map[t->dtype->id]]) {
        while (count > 0) { /* one pass */
            const int n = count > INT_MAX ? INT_MAX : (int) count;
            ompi_3buff_op_reduce(t->op, right, left, dst, n, t->dtype);
            left += (ptrdiff_t) n * t->extent;
            right += (ptrdiff_t) n * t->extent;
            dst += (ptrdiff_t) n * t->extent;
            count -= (size_t) n;
        }
        return OMPI_SUCCESS;
    }
    int rc = copy_range(t, dst, right, count);
    if (OMPI_SUCCESS == rc) {
        ompi_op_reduce(t->op, left, dst, count, t->dtype);
    }
    return rc;
}

static int pml_reduce(const hdring_xport_t *x, hdring_loc_t left_at, hdring_loc_t right_at, hdring_loc_t dst_at,
                      size_t count, unsigned flags)
{
    mca_coll_hdring_pml_t *t = x->ctx;
    if (0 == count || t->poisoned) {
        return HDRING_OK;
    }
    char *left = loc_addr(t, hdring_view_loc(x->view, left_at)), *right = loc_addr(t, hdring_view_loc(x->view, right_at));
    char *dst = loc_addr(t, hdring_view_loc(x->view, dst_at));
    int rc = OMPI_SUCCESS;

    if (dst == right) {
        ompi_op_reduce(t->op, left, right, count, t->dtype); /* canonical */
    } else if (dst == left) {
        if (ompi_op_is_commute(t->op) && !(flags & HDRING_REDUCE_REPLICATED)) {
            ompi_op_reduce(t->op, right, left, count, t->dtype); /* roles swapped: computed on this rank only */
        } else {
            ompi_op_reduce(t->op, left, right, count, t->dtype); /* canonical, into right, then back */
            rc = copy_range(t, left, right, count);
        }
    } else {
        rc = reduce_3buff(t, left, right, dst, count);
    }
    return OMPI_SUCCESS == rc ? HDRING_OK : mca_coll_hdring_pml_failed(t, rc);
}

static int pml_copy(const hdring_xport_t *x, hdring_loc_t src, hdring_loc_t dst, size_t count)
{
    mca_coll_hdring_pml_t *t = x->ctx;
    int rc = 0 == count || t->poisoned ? OMPI_SUCCESS
                        : copy_range(t, loc_addr(t, hdring_view_loc(x->view, dst)), loc_addr(t, hdring_view_loc(x->view, src)),
                                     count);
    return OMPI_SUCCESS == rc ? HDRING_OK : mca_coll_hdring_pml_failed(t, rc);
}

static void *pml_take(const hdring_xport_t *x, size_t bytes) { return mca_coll_hdring_tables_take(x->ctx, bytes); }

static const hdring_transport_ops_t pml_ops = {
    .exchange = pml_exchange,
    .start = pml_start,
    .wait = pml_wait,
    .reduce = pml_reduce,
    .copy = pml_copy,
    .take = pml_take,
};

void mca_coll_hdring_pml_init(mca_coll_hdring_pml_t *t, mca_coll_hdring_module_t *m,
                              struct ompi_communicator_t *comm, mca_coll_hdring_coll_t coll,
                              struct ompi_datatype_t *dtype, struct ompi_op_t *op, bool locality_order)
{
    const int size = ompi_comm_size(comm), rank = ompi_comm_rank(comm);
    const bool renumbered = locality_order && NULL != m->topo.order;

    t->comm = comm;
    t->dtype = dtype;
    t->op = op;
    t->tag = mca_coll_hdring_coll_tag(coll);
    t->rank_of = renumbered ? m->topo.order : NULL;
    ompi_datatype_type_extent(dtype, &t->extent);
    ompi_datatype_type_size(dtype, &t->dtype_size);
    t->inline_pieces_bytes = mca_coll_hdring_pieces_bytes(m, coll);
    t->node_of = 1 == m->topo.shape.nodes ? NULL : m->topo.node_of;
    t->node = NULL == m->topo.node_of ? 0 : m->topo.node_of[rank];
    for (int b = 0; b < HDRING_NBUFS; ++b) {
        t->base[b] = NULL;
    }
    t->own_scratch = NULL;
    t->tables = &m->state->tables;
    t->max_message = m->state->config.max_message_elements;
    t->same_bytes.buf = NULL;
    t->same_bytes.type = NULL;
    t->same_bytes.unfilled = false;
    t->same_bytes.fill_status = OMPI_SUCCESS;
    t->error = OMPI_SUCCESS;
    t->poisoned = false;
    t->inflight.used = 0;
    t->xport.ops = &pml_ops;
    t->xport.ctx = t;
    t->xport.size = size;
    t->xport.rank = renumbered ? m->topo.vrank_of[rank] : rank;
    t->xport.view = NULL;
}

void mca_coll_hdring_pml_poison(mca_coll_hdring_pml_t *t, int ompi_error)
{
    t->poisoned = true;
    t->error = ompi_error;
}

int mca_coll_hdring_pml_error(const mca_coll_hdring_pml_t *t, int rc)
{
    if (t->poisoned) {
        return t->error;
    }
    switch (rc) {
    case HDRING_OK:
        return OMPI_SUCCESS;
    case HDRING_ERR_NOMEM:
        return OMPI_ERR_OUT_OF_RESOURCE;
    case HDRING_ERR_TRANSPORT:
        return t->error;
    default:
        return OMPI_ERR_NOT_SUPPORTED;
    }
}

int mca_coll_hdring_pml_contribute(mca_coll_hdring_pml_t *t, size_t off, size_t count, const void *buf, int n,
                                   struct ompi_datatype_t *type, bool in_flight)
{
    t->same_bytes.off = off;
    t->same_bytes.count = count;
    t->same_bytes.buf = buf;
    t->same_bytes.n = n;
    t->same_bytes.type = type;
    t->same_bytes.unfilled = true;
    t->same_bytes.fill_status = OMPI_SUCCESS;
    if (!in_flight) {
        mca_coll_hdring_pml_fill(t);
    }
    return t->same_bytes.fill_status;
}
