/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring transport over the PML (coll_hdring_pml.h): the hdring_transport.h operations for one run.
 *
 * Element offsets become addresses through the datatype's extent, so derived datatypes work unchanged.
 * A message of more than coll_hdring_max_message_elements elements (INT_MAX by default; reduce_scatter and
 * allgather totals can exceed it) is still one PML message, of a derived datatype (pml_message below).
 * Algorithm ranks are communicator ranks, or, when the call runs in the communicator's locality order, the
 * positions of that order (t->rank_of). Views (hdring_transport.h) are resolved here, per message. Runs of
 * recorded schedules name no views and take the same paths.
 */
#include "coll_hdring_pml.h"

#include <limits.h>

#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/pml/pml.h"
#include "ompi/op/op.h"
#include "ompi/request/request.h"

#include "coll_hdring_memory.h"
#include "coll_hdring_pml_msg.h"

static const hdring_transport_ops_t pml_ops;

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
        return pml_cut(t, out, bytes, peer, is_send);
    }
    const hdring_loc_t at = hdring_view_loc(x->view, msg->at);
    if (is_send && pml_reads_same_bytes(t, at, msg->count)) {
        out->addr = (char *) t->same_bytes.buf;
        out->n = t->same_bytes.n;
        out->type = t->same_bytes.type;
        return pml_cut(t, out, bytes, peer, is_send);
    }
    out->addr = loc_addr(t, at);
    out->type = t->dtype;
    out->n = (int) msg->count;
    const int rc = pml_cut(t, out, bytes, peer, is_send);
    return OPAL_LIKELY(msg->count <= t->max_message) || OMPI_SUCCESS != rc || out->pieces > 1
               ? rc
               : derived_message(t, msg, out);
}

static inline __opal_attribute_always_inline__ int resolve(mca_coll_hdring_pml_t *t, const hdring_xport_t *x,
                                                           const hdring_msg_t *msg, bool is_send, pml_side_t *side)
{
    side->peer = pml_comm_rank(t, x, msg->peer);
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
            pml_release(&s.m);
        }
    }
    if (OMPI_SUCCESS != rc) {
        return pml_failed(t, rc);
    }
    return pml_exchange_pair(t, NULL == send ? NULL : &s, NULL == recv ? NULL : &r);
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
            return pml_failed(t, OMPI_ERR_OUT_OF_RESOURCE);
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
            pml_release(&sides[i].m);
        }
        return pml_failed(t, rc);
    }
    return mca_coll_hdring_msg_exchange_sides(t, sides, nrecv_sides, n, reqs, statuses, room);
}

/* ---- messages in flight ----
 * Each started message holds a slot of t->inflight until it is waited for; a kernel that fails may leave some,
 * which mca_coll_hdring_pml_withdraw settles before the call returns (its buffers may go with it). */

static int pml_start(const hdring_xport_t *x, const hdring_msg_t *msg, bool is_send, hdring_req_t *req)
{
    mca_coll_hdring_pml_t *t = x->ctx;
    const uint32_t free_slots = ~t->inflight.used;
    if (0 == free_slots) {
        return pml_failed(t, OMPI_ERR_OUT_OF_RESOURCE);
    }
    const int slot = __builtin_ctz(free_slots), peer = pml_comm_rank(t, x, msg->peer);
    pml_message_t *m = &t->inflight.msg[slot];
    int rc = pml_message(t, x, msg, is_send, peer, m);
    if (OMPI_SUCCESS == rc) {
        rc = mca_coll_hdring_msg_post(t, m, peer, is_send, t->inflight.req[slot]);
        if (OMPI_SUCCESS != rc) {
            pml_release(m);
        }
    }
    if (OMPI_SUCCESS != rc) {
        return pml_failed(t, rc);
    }
    t->inflight.used |= 1u << slot;
    t->inflight.receives = is_send ? t->inflight.receives & ~(1u << slot) : t->inflight.receives | 1u << slot;
    *req = slot;
    return HDRING_OK;
}

static void settle(mca_coll_hdring_pml_t *t, int slot)
{
    pml_release(&t->inflight.msg[slot]);
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
    rc = settled(t, rc, statuses, nwaiting);
    for (int i = 0; i < count; ++i) {
        if (OMPI_SUCCESS == rc && (t->inflight.receives & 1u << slots[i])) {
            rc = mca_coll_hdring_msg_received(t, &t->inflight.msg[slots[i]], &statuses[first[i]]);
        }
        settle(t, slots[i]);
    }
    return OMPI_SUCCESS == rc ? HDRING_OK : pml_failed(t, rc);
}

/* As a failed exchange does: receives cancelled (the caller may free their buffers once it has the error),
 * sends left to complete on their own. */
void mca_coll_hdring_pml_withdraw(mca_coll_hdring_pml_t *t)
{
    for (int slot = 0; slot < HDRING_MAX_INFLIGHT && 0 != t->inflight.used; ++slot) {
        if (t->inflight.used & 1u << slot) {
            mca_coll_hdring_msg_unpost(t->inflight.req[slot], t->inflight.msg[slot].pieces,
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
    return OMPI_SUCCESS == rc ? HDRING_OK : pml_failed(t, rc);
}

static int pml_copy(const hdring_xport_t *x, hdring_loc_t src, hdring_loc_t dst, size_t count)
{
    mca_coll_hdring_pml_t *t = x->ctx;
    int rc = 0 == count || t->poisoned ? OMPI_SUCCESS
                        : copy_range(t, loc_addr(t, hdring_view_loc(x->view, dst)), loc_addr(t, hdring_view_loc(x->view, src)),
                                     count);
    return OMPI_SUCCESS == rc ? HDRING_OK : pml_failed(t, rc);
}

static void *pml_take(const hdring_xport_t *x, size_t bytes)
{
    const mca_coll_hdring_pml_t *t = x->ctx;
    return mca_coll_hdring_tables_take(t->tables, bytes);
}

/* ---- nonblocking ----
 * An exchange is posted (sends first: pml_post_exchange) into the run's own room (mca_coll_hdring_pml_room)
 * and left in flight; a test completes it once every request has. Started messages (slots) are tested the same
 * way. A test looks at the requests' completion only: it never calls Open MPI's progress engine, which calls this
 * transport's tests (coll_hdring_request.c). */

static int pml_post_exchange(const hdring_xport_t *x, const hdring_msg_t *sends, int nsends,
                             const hdring_msg_t *recvs, int nrecvs)
{
    mca_coll_hdring_pml_t *t = x->ctx;
    mca_coll_hdring_pml_posted_t *p = &t->posted;
    int n = 0, nreqs = 0, recv_reqs = 0, rc = OMPI_SUCCESS;

    if (nsends + nrecvs > p->room_sides) {
        return pml_failed(t, OMPI_ERR_OUT_OF_RESOURCE);
    }
    p->nrecvs = 0;
    for (int i = 0; i < nrecvs + nsends && OMPI_SUCCESS == rc; ++i) { /* the receives' sides first */
        const bool is_send = i >= nrecvs;
        const hdring_msg_t *msg = is_send ? &sends[i - nrecvs] : &recvs[i];
        if (0 != msg->count && OMPI_SUCCESS == (rc = resolve(t, x, msg, is_send, &p->sides[n]))) {
            nreqs += p->sides[n++].m.pieces;
        }
        p->nrecvs = is_send ? p->nrecvs : n;
        recv_reqs = is_send ? recv_reqs : nreqs;
    }
    if (OMPI_SUCCESS == rc && nreqs > p->room_reqs) {
        rc = OMPI_ERR_OUT_OF_RESOURCE;
    }
    /* The sends are posted first. A receive whose message is already here (its sender was ahead) reads it as it is
     * posted: a large message over shared memory is copied then, by this rank. Posted after the sends, that copy
     * overlaps the peer's copy of this rank's message; posted before, it holds the peer's back (2 ranks, allreduce
     * of 256 KiB: 1.2-1.5x the blocking call's time, 1.0x with the sends first). */
    int sent = 0, received = 0;
    if (OMPI_SUCCESS == rc) {
        rc = mca_coll_hdring_msg_post_sides(t, p->sides, p->nrecvs, n, true, &p->reqs[recv_reqs], &sent);
    }
    if (OMPI_SUCCESS == rc) {
        rc = mca_coll_hdring_msg_post_sides(t, p->sides, 0, p->nrecvs, false, p->reqs, &received);
    }
    pml_fill(t);
    if (OMPI_SUCCESS != rc) { /* the posted receives cancelled, the posted sends left to complete */
        mca_coll_hdring_msg_unpost(p->reqs, received, false);
        mca_coll_hdring_msg_unpost(&p->reqs[recv_reqs], sent, true);
        for (int i = 0; i < n; ++i) {
            pml_release(&p->sides[i].m);
        }
        p->n = 0;
        return pml_failed(t, rc);
    }
    p->n = n;
    p->nreqs = nreqs;
    return HDRING_OK;
}

/* Whether the requests reqs[0 .. n) have completed (NULL entries were completed before), in error when they never
 * will (a dead peer, a revoked communicator: hdring_request_failed). */
static bool all_complete(ompi_request_t *const *reqs, int n)
{
    for (int i = 0; i < n; ++i) {
        if (NULL != reqs[i] && !REQUEST_COMPLETE(reqs[i]) && !hdring_request_failed(reqs[i])) {
            return false;
        }
    }
    return true;
}

/* Collects the statuses of completed requests and frees them: the first error. */
static int collect(ompi_request_t **reqs, int n, ompi_status_public_t *statuses)
{
    int rc = OMPI_SUCCESS;
    for (int i = 0; i < n; ++i) {
        const int r = ompi_request_wait(&reqs[i], &statuses[i]); /* complete: returns at once */
        rc = OMPI_SUCCESS == rc ? r : rc;
    }
    return rc;
}

static int pml_test_exchange(const hdring_xport_t *x, bool *done)
{
    mca_coll_hdring_pml_t *t = x->ctx;
    mca_coll_hdring_pml_posted_t *p = &t->posted;
    ompi_status_public_t statuses[HDRING_MAX_PIECES];
    int rc = OMPI_SUCCESS;

    *done = all_complete(p->reqs, p->nreqs);
    if (!*done) {
        return HDRING_OK;
    }
    for (int i = 0, first = 0; i < p->n; first += p->sides[i++].m.pieces) {
        const int r = settled(t, collect(&p->reqs[first], p->sides[i].m.pieces, statuses), statuses,
                              p->sides[i].m.pieces);
        rc = OMPI_SUCCESS == rc ? r : rc;
        if (OMPI_SUCCESS == rc && i < p->nrecvs) {
            rc = mca_coll_hdring_msg_received(t, &p->sides[i].m, statuses);
        }
        pml_release(&p->sides[i].m);
    }
    p->n = p->nreqs = 0;
    return OMPI_SUCCESS == rc ? HDRING_OK : pml_failed(t, rc);
}

static int pml_test(const hdring_xport_t *x, hdring_req_t *reqs, int n, bool *done)
{
    const mca_coll_hdring_pml_t *t = x->ctx;
    *done = true;
    for (int i = 0; i < n && *done; ++i) {
        if (HDRING_REQ_NONE != reqs[i]) {
            *done = all_complete(t->inflight.req[reqs[i]], t->inflight.msg[reqs[i]].pieces);
        }
    }
    return *done ? pml_wait(x, reqs, n) : HDRING_OK;
}

static const hdring_transport_ops_t pml_ops = {
    .exchange = pml_exchange,
    .start = pml_start,
    .wait = pml_wait,
    .reduce = pml_reduce,
    .copy = pml_copy,
    .take = pml_take,
    .post_exchange = pml_post_exchange,
    .test_exchange = pml_test_exchange,
    .test = pml_test,
};

void mca_coll_hdring_pml_init(mca_coll_hdring_pml_t *t, struct ompi_communicator_t *comm, int tag,
                              struct ompi_datatype_t *dtype, struct ompi_op_t *op, const hdring_topo_t *topo,
                              bool locality_order, size_t pieces_bytes, size_t max_message,
                              mca_coll_hdring_tables_t *tables)
{
    const int size = ompi_comm_size(comm), rank = ompi_comm_rank(comm);
    const bool renumbered = locality_order && NULL != topo && NULL != topo->order;

    t->comm = comm;
    t->dtype = dtype;
    t->op = op;
    t->tag = tag;
    t->rank_of = renumbered ? topo->order : NULL;
    ompi_datatype_type_extent(dtype, &t->extent);
    ompi_datatype_type_size(dtype, &t->dtype_size);
    t->inline_pieces_bytes = pieces_bytes;
    t->node_of = NULL == topo || 1 == topo->shape.nodes ? NULL : topo->node_of;
    t->node = NULL == t->node_of ? 0 : t->node_of[rank];
    t->tables = tables;
    t->max_message = max_message;
    t->posted.room_sides = t->posted.room_reqs = 0;
    mca_coll_hdring_pml_again(t);
    t->xport.ops = &pml_ops;
    t->xport.ctx = t;
    t->xport.size = size;
    t->xport.rank = renumbered ? topo->vrank_of[rank] : rank;
    t->xport.view = NULL;
    t->xport.channel = 0;
}

void mca_coll_hdring_pml_again(mca_coll_hdring_pml_t *t)
{
    for (int b = 0; b < HDRING_NBUFS; ++b) {
        t->base[b] = NULL;
    }
    t->same_bytes.buf = NULL;
    t->same_bytes.type = NULL;
    t->same_bytes.unfilled = false;
    t->same_bytes.fill_status = OMPI_SUCCESS;
    t->error = OMPI_SUCCESS;
    t->poisoned = false;
    t->inflight.used = 0;
    t->posted.n = 0;
    t->posted.nreqs = 0;
}

void mca_coll_hdring_pml_room(mca_coll_hdring_pml_t *t, mca_coll_hdring_pml_side_t *sides, int nsides,
                              struct ompi_request_t **reqs, int nreqs)
{
    t->posted.sides = sides;
    t->posted.room_sides = nsides;
    t->posted.reqs = reqs;
    t->posted.room_reqs = nreqs;
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
        pml_fill(t);
    }
    return t->same_bytes.fill_status;
}
