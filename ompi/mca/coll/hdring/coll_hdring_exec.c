/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring runs (coll_hdring_exec.h): the hdring_transport.h operations over the PML, for messages resolved
 * once or as they come.
 *
 * Element offsets become byte offsets through the datatype's extent, so derived datatypes work unchanged. A
 * message of more than max_message elements (INT_MAX by default; reduce_scatter and allgather totals can exceed
 * it) is still one PML message, of a derived datatype: never cut in pieces whose boundaries would depend on how
 * this rank describes its data, so peers describing the same bytes with other (count, datatype) pairs still match.
 */
#include "coll_hdring_exec.h"

#include <limits.h>
#include <string.h>

#include "ompi/op/op.h"

/* ---- resolving a message ---- */

/* The derived type of a message of count elements of t's datatype, more than t->max_message: whole runs of
 * max_message elements and the rest, as one element. An Open MPI status. */
static int __opal_attribute_noinline__ derived_type(const mca_coll_hdring_exec_t *t, size_t count,
                                                    struct ompi_datatype_t **out)
{
    const size_t runs = count / t->max_message, rest = count % t->max_message;
    if (runs > INT_MAX) {
        return OMPI_ERR_NOT_SUPPORTED;
    }
    ompi_datatype_t *run;
    int rc = ompi_datatype_create_contiguous((int) t->max_message, t->w.dtype, &run);
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    const int lengths[2] = {(int) runs, (int) rest};
    const ptrdiff_t displs[2] = {0, (ptrdiff_t) (runs * t->max_message) * t->w.extent};
    ompi_datatype_t *const types[2] = {run, t->w.dtype};
    rc = ompi_datatype_create_struct(0 == rest ? 1 : 2, lengths, displs, types, out);
    ompi_datatype_destroy(&run);
    if (OMPI_SUCCESS == rc && OMPI_SUCCESS != (rc = ompi_datatype_commit(out))) {
        ompi_datatype_destroy(out);
    }
    return rc;
}

/* msg (base ranks and buffers: no view), sent or received by runs of t, resolved into *r; packed copies' memory
 * from take. An Open MPI status. */
static int resolve(const mca_coll_hdring_exec_t *t, const hdring_msg_t *msg, bool is_send,
                   void *(*take)(void *ctx, size_t bytes), void *take_ctx, mca_coll_hdring_resolved_t *r)
{
    const size_t bytes = msg->count * t->w.dtype_size;
    r->side.peer = NULL == t->rank_of ? msg->peer : t->rank_of[msg->peer];
    r->buf = msg->at.buf;
    r->off = (ptrdiff_t) msg->at.off * t->w.extent;
    r->contribution = is_send && 0 != t->contribution.count && HDRING_BUF_OUT == msg->at.buf &&
                      t->contribution.off == msg->at.off && t->contribution.count == msg->count;
    r->lb = 0;
    r->packing = NULL;
    r->side.m = (mca_coll_hdring_msg_t) {.n = r->contribution ? t->contribution.n : (int) msg->count,
                                    .type = r->contribution ? t->contribution.type : t->w.dtype,
                                    .pieces = 1,
                                    .inline_size = bytes <= HDRING_PML_INLINE_BYTES};
    if (OPAL_UNLIKELY(mca_coll_hdring_in_pieces(bytes, t->pieces_bytes,
                                                NULL == t->node_of || t->node_of[r->side.peer] == t->node))) {
        mca_coll_hdring_msg_pieces(&r->side.m, bytes, &r->lb);
        if (r->side.m.packed && NULL == (r->packing = take(take_ctx, bytes))) {
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
        return OMPI_SUCCESS;
    }
    if (OPAL_UNLIKELY(!r->contribution && msg->count > t->max_message)) {
        r->side.m.n = 1;
        r->side.m.derived = OMPI_SUCCESS == derived_type(t, msg->count, &r->side.m.type);
        return r->side.m.derived ? OMPI_SUCCESS : OMPI_ERR_OUT_OF_RESOURCE;
    }
    return OMPI_SUCCESS;
}

/* The side of a call's exchange made of r: its addresses for this call (a poisoned run's messages are empty), a
 * packed send's copy made. An Open MPI status. */
static inline __opal_attribute_always_inline__ int side_of(mca_coll_hdring_exec_t *t,
                                                           const mca_coll_hdring_resolved_t *r, bool is_send,
                                                           mca_coll_hdring_side_t *s)
{
    s->peer = r->side.peer;
    s->m.pieces = r->side.m.pieces;
    s->m.inline_size = r->side.m.inline_size;
    s->m.derived = false; /* r's */
    if (OPAL_UNLIKELY(t->w.poisoned)) {
        s->m.addr = s->m.flat = NULL;
        s->m.n = s->m.bytes = 0;
        s->m.type = t->w.dtype;
        s->m.packed = false;
        return OMPI_SUCCESS;
    }
    s->m.n = r->side.m.n;
    s->m.type = r->side.m.type;
    s->m.addr = OPAL_UNLIKELY(r->contribution) ? (char *) t->contribution.buf : t->base[r->buf] + r->off;
    if (OPAL_LIKELY(1 == s->m.pieces)) {
        return OMPI_SUCCESS;
    }
    s->m.bytes = r->side.m.bytes;
    s->m.packed = r->side.m.packed;
    s->m.flat = NULL != r->packing ? r->packing : s->m.addr + r->lb;
    return is_send && s->m.packed ? mca_coll_hdring_msg_pack(&s->m) : OMPI_SUCCESS;
}

/* The resolved message of msg: t's, index for index (a recorded run), or resolved now into *own (release it with
 * release_own). An Open MPI status. */
static inline int resolved_of(mca_coll_hdring_exec_t *t, const hdring_msg_t *msg, bool is_send,
                              mca_coll_hdring_resolved_t *own, const mca_coll_hdring_resolved_t **r)
{
    if (OPAL_LIKELY(NULL != t->resolved)) {
        *r = &t->resolved[msg - t->sched->msgs];
        return OMPI_SUCCESS;
    }
    *r = own;
    return resolve(t, msg, is_send, t->w.take, t->w.take_ctx, own);
}

static inline void release_own(const mca_coll_hdring_exec_t *t, mca_coll_hdring_resolved_t *own)
{
    if (NULL == t->resolved) {
        mca_coll_hdring_exec_unresolve(own, 1);
    }
}

/* msg's side: resolved, then made for this call. An Open MPI status. */
static int make_side(mca_coll_hdring_exec_t *t, const hdring_msg_t *msg, bool is_send, mca_coll_hdring_resolved_t *own,
                     mca_coll_hdring_side_t *s)
{
    const mca_coll_hdring_resolved_t *r;
    int rc = resolved_of(t, msg, is_send, own, &r);
    if (OMPI_SUCCESS == rc && OMPI_SUCCESS != (rc = side_of(t, r, is_send, s))) {
        release_own(t, own);
    }
    return rc;
}

/* ---- blocking exchanges ---- */

/* An exchange the quick path below does not take: wider, in pieces, poisoned, or resolved as it comes. */
static int __opal_attribute_noinline__ exchange(const hdring_xport_t *x, const hdring_msg_t *sends, int nsends,
                                                const hdring_msg_t *recvs, int nrecvs)
{
    mca_coll_hdring_exec_t *t = x->ctx;
    mca_coll_hdring_resolved_t own[2];
    mca_coll_hdring_side_t pair[2];
    int rc;

    if (nsends <= 1 && nrecvs <= 1) { /* one message, or a pair resolved as it comes */
        rc = 0 == nsends ? OMPI_SUCCESS : make_side(t, sends, true, &own[0], &pair[0]);
        if (OMPI_SUCCESS == rc && 0 != nrecvs && OMPI_SUCCESS != (rc = make_side(t, recvs, false, &own[1], &pair[1])) &&
            0 != nsends) {
            release_own(t, &own[0]);
        }
        if (OMPI_SUCCESS != rc) {
            return mca_coll_hdring_wire_failed(&t->w, rc);
        }
        rc = mca_coll_hdring_msg_exchange_pair(&t->w, 0 == nsends ? NULL : &pair[0], 0 == nrecvs ? NULL : &pair[1]);
        if (OPAL_UNLIKELY(NULL == t->resolved)) {
            if (0 != nsends) {
                release_own(t, &own[0]);
            }
            if (0 != nrecvs) {
                release_own(t, &own[1]);
            }
        }
        return rc;
    }
    /* wider: the receives' sides first, in the run's room or in memory taken for the call */
    const int n = nsends + nrecvs;
    mca_coll_hdring_side_t *sides = t->room.sides;
    mca_coll_hdring_resolved_t *owns = NULL;
    if (n > t->room.nsides || NULL == t->resolved) {
        sides = t->w.take(t->w.take_ctx, (size_t) n * sizeof(*sides));
        owns = NULL == t->resolved ? t->w.take(t->w.take_ctx, (size_t) n * sizeof(*owns)) : NULL;
        if (NULL == sides || (NULL == t->resolved && NULL == owns)) {
            return mca_coll_hdring_wire_failed(&t->w, OMPI_ERR_OUT_OF_RESOURCE);
        }
    }
    int made = 0;
    rc = OMPI_SUCCESS;
    for (; made < n && OMPI_SUCCESS == rc; made += OMPI_SUCCESS == rc) {
        const bool is_send = made >= nrecvs;
        const hdring_msg_t *msg = is_send ? &sends[made - nrecvs] : &recvs[made];
        rc = make_side(t, msg, is_send, NULL == owns ? NULL : &owns[made], &sides[made]);
    }
    if (OMPI_SUCCESS == rc) {
        rc = mca_coll_hdring_msg_exchange_sides(&t->w, sides, nrecvs, n, t->room.reqs, t->room.statuses,
                                                t->room.nreqs);
    } else {
        rc = mca_coll_hdring_wire_failed(&t->w, rc);
    }
    for (int i = 0; NULL != owns && i < made; ++i) {
        release_own(t, &owns[i]);
    }
    return rc;
}

/* Most exchanges: a message or a pair, resolved, of one piece each, in a run that did not fail. Inline into
 * mca_coll_hdring_exec_blocking, which calls it directly. */
static inline __opal_attribute_always_inline__ int x_exchange(const hdring_xport_t *x, const hdring_msg_t *sends, int nsends, const hdring_msg_t *recvs,
                      int nrecvs)
{
    mca_coll_hdring_exec_t *t = x->ctx;
    if (OPAL_LIKELY(NULL != t->resolved && nsends <= 1 && nrecvs <= 1 && !t->w.poisoned)) {
        const mca_coll_hdring_resolved_t *r = &t->resolved[sends - t->sched->msgs];
        const mca_coll_hdring_resolved_t *s = 0 == nsends ? NULL : r, *v = 0 == nrecvs ? NULL : r + nsends;
        if (OPAL_LIKELY((NULL == s || 1 == s->side.m.pieces) && (NULL == v || 1 == v->side.m.pieces))) {
            return mca_coll_hdring_msg_exchange_at(&t->w, NULL == s ? NULL : &s->side,
                                                   NULL == s                      ? NULL
                                                   : OPAL_UNLIKELY(s->contribution) ? (char *) t->contribution.buf
                                                                                    : t->base[s->buf] + s->off,
                                                   NULL == v ? NULL : &v->side,
                                                   NULL == v ? NULL : t->base[v->buf] + v->off);
        }
    }
    return exchange(x, sends, nsends, recvs, nrecvs);
}

/* ---- messages in flight ----
 * Each started message holds a slot until it is waited for; a run that fails may leave some, which
 * mca_coll_hdring_exec_end withdraws before the call returns (its buffers may go with it). */

static int x_start(const hdring_xport_t *x, const hdring_msg_t *msg, bool is_send, hdring_req_t *req)
{
    mca_coll_hdring_exec_t *t = x->ctx;
    const uint32_t free_slots = ~t->inflight.used;
    if (0 == free_slots) {
        return mca_coll_hdring_wire_failed(&t->w, OMPI_ERR_OUT_OF_RESOURCE);
    }
    const int slot = __builtin_ctz(free_slots);
    mca_coll_hdring_resolved_t own;
    mca_coll_hdring_side_t s;
    int rc = make_side(t, msg, is_send, &own, &s);
    if (OMPI_SUCCESS == rc) {
        /* a message resolved as it comes keeps its derived type until it is waited for */
        s.m.derived = NULL == t->resolved && own.side.m.derived;
        rc = mca_coll_hdring_msg_post(&t->w, &s.m, s.peer, is_send, t->inflight.req[slot]);
        if (OMPI_SUCCESS != rc) {
            mca_coll_hdring_msg_release(&s.m);
        }
    }
    if (OMPI_SUCCESS != rc) {
        return mca_coll_hdring_wire_failed(&t->w, rc);
    }
    t->inflight.msg[slot] = s.m;
    t->inflight.used |= 1u << slot;
    t->inflight.receives = is_send ? t->inflight.receives & ~(1u << slot) : t->inflight.receives | 1u << slot;
    *req = slot;
    return HDRING_OK;
}

static void settle(mca_coll_hdring_exec_t *t, int slot)
{
    mca_coll_hdring_msg_release(&t->inflight.msg[slot]);
    t->inflight.used &= ~(1u << slot);
}

/* Waits for the slots' messages, all of them at once (one wait for all their pieces). */
static int x_wait(const hdring_xport_t *x, hdring_req_t *reqs, int n)
{
    mca_coll_hdring_exec_t *t = x->ctx;
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
    rc = mca_coll_hdring_settled(&t->w, rc, statuses, nwaiting);
    for (int i = 0; i < count; ++i) {
        if (OMPI_SUCCESS == rc && (t->inflight.receives & 1u << slots[i])) {
            rc = mca_coll_hdring_msg_received(&t->w, &t->inflight.msg[slots[i]], &statuses[first[i]]);
        }
        settle(t, slots[i]);
    }
    return OMPI_SUCCESS == rc ? HDRING_OK : mca_coll_hdring_wire_failed(&t->w, rc);
}

/* ---- local work ---- */

static inline char *addr_of(const mca_coll_hdring_exec_t *t, hdring_loc_t at)
{
    return t->base[at.buf] + (ptrdiff_t) at.off * t->w.extent;
}

static int copy_range(const mca_coll_hdring_exec_t *t, char *dst, char *src, size_t count)
{
    return dst == src ? OMPI_SUCCESS : ompi_datatype_copy_content_same_ddt(t->w.dtype, count, dst, src);
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
static int reduce_3buff(const mca_coll_hdring_exec_t *t, struct ompi_op_t *op, char *left, char *right, char *dst,
                        size_t count)
{
    struct ompi_datatype_t *dtype = t->w.dtype;
    if (ompi_op_is_intrinsic(op) && ompi_datatype_is_predefined(dtype) &&
        NULL != op->o_3buff_intrinsic.fns[ompi_op_ddt_map[dtype->id]]) {
        while (count > 0) { /* one pass */
            const int n = count > INT_MAX ? INT_MAX : (int) count;
            ompi_3buff_op_reduce(op, right, left, dst, n, dtype);
            left += (ptrdiff_t) n * t->w.extent;
            right += (ptrdiff_t) n * t->w.extent;
            dst += (ptrdiff_t) n * t->w.extent;
            count -= (size_t) n;
        }
        return OMPI_SUCCESS;
    }
    int rc = copy_range(t, dst, right, count);
    if (OMPI_SUCCESS == rc) {
        ompi_op_reduce(op, left, dst, count, dtype);
    }
    return rc;
}

static int x_reduce(const hdring_xport_t *x, hdring_loc_t left_at, hdring_loc_t right_at, hdring_loc_t dst_at,
                    size_t count, unsigned flags)
{
    mca_coll_hdring_exec_t *t = x->ctx;
    if (OPAL_UNLIKELY(t->w.poisoned)) {
        return HDRING_OK;
    }
    struct ompi_op_t *op = t->op;
    char *left = addr_of(t, left_at), *right = addr_of(t, right_at), *dst = addr_of(t, dst_at);
    int rc = OMPI_SUCCESS;

    if (dst == right) {
        ompi_op_reduce(op, left, right, count, t->w.dtype); /* canonical */
    } else if (dst == left) {
        if (ompi_op_is_commute(op) && !(flags & HDRING_REDUCE_REPLICATED)) {
            ompi_op_reduce(op, right, left, count, t->w.dtype); /* roles swapped: computed on this rank only */
        } else {
            ompi_op_reduce(op, left, right, count, t->w.dtype); /* canonical, into right, then back */
            rc = copy_range(t, left, right, count);
        }
    } else {
        rc = reduce_3buff(t, op, left, right, dst, count);
    }
    return OMPI_SUCCESS == rc ? HDRING_OK : mca_coll_hdring_wire_failed(&t->w, rc);
}

static int x_copy(const hdring_xport_t *x, hdring_loc_t src, hdring_loc_t dst, size_t count)
{
    mca_coll_hdring_exec_t *t = x->ctx;
    const int rc = t->w.poisoned ? OMPI_SUCCESS : copy_range(t, addr_of(t, dst), addr_of(t, src), count);
    return OMPI_SUCCESS == rc ? HDRING_OK : mca_coll_hdring_wire_failed(&t->w, rc);
}

static void *x_take(const hdring_xport_t *x, size_t bytes)
{
    const mca_coll_hdring_exec_t *t = x->ctx;
    return t->w.take(t->w.take_ctx, bytes);
}

/* ---- nonblocking ----
 * An exchange is posted (sends first) into the run's room and left in flight; a test completes it once every
 * request has. Started messages (slots) are tested the same way. A test looks at the requests' completion only: it
 * never calls Open MPI's progress engine, which calls these tests (coll_hdring_prepared.c). */

/* x_post_exchange's quick path: a message or a pair, resolved, of one piece each (s, v: the send and the receive, or
 * NULL), the send posted first, the receive's description kept for the test. */
static inline int post_pair(mca_coll_hdring_exec_t *t, const mca_coll_hdring_resolved_t *s,
                            const mca_coll_hdring_resolved_t *v)
{
    ompi_request_t **reqs = t->room.reqs;
    const int nrecvs = NULL != v;
    int rc = OMPI_SUCCESS;
    if (NULL != s) {
        char *at = OPAL_UNLIKELY(s->contribution) ? (char *) t->contribution.buf : t->base[s->buf] + s->off;
        rc = MCA_PML_CALL(isend(at, s->side.m.n, s->side.m.type, s->side.peer, t->w.tag, MCA_PML_BASE_SEND_STANDARD,
                                t->w.comm, &reqs[nrecvs]));
    }
    if (NULL != v && OMPI_SUCCESS == rc) {
        rc = MCA_PML_CALL(irecv(t->base[v->buf] + v->off, v->side.m.n, v->side.m.type, v->side.peer, t->w.tag,
                                t->w.comm, &reqs[0]));
        if (OMPI_SUCCESS != rc && NULL != s) {
            mca_coll_hdring_msg_unpost(&reqs[1], 1, true);
        }
    }
    mca_coll_hdring_wire_fill(&t->w);
    if (OPAL_UNLIKELY(OMPI_SUCCESS != rc)) {
        return mca_coll_hdring_wire_failed(&t->w, rc);
    }
    t->posted.recv = NULL == v ? NULL : &v->side;
    t->posted.quick = true;
    t->posted.n = t->posted.nreqs = nrecvs + (NULL != s);
    t->posted.nrecvs = nrecvs;
    return HDRING_OK;
}

/* An exchange post_pair does not take: wider, in pieces, or poisoned. */
static int __opal_attribute_noinline__ post_exchange(const hdring_xport_t *x, const hdring_msg_t *sends, int nsends,
                                                     const hdring_msg_t *recvs, int nrecvs)
{
    mca_coll_hdring_exec_t *t = x->ctx;
    mca_coll_hdring_side_t *sides = t->room.sides;
    t->posted.recv = NULL;
    t->posted.quick = false;
    const int n = nsends + nrecvs;
    int made = 0, nreqs = 0, recv_reqs = 0, rc = OMPI_SUCCESS;

    if (n > t->room.nsides) { /* a recorded run's room holds its widest exchange */
        return mca_coll_hdring_wire_failed(&t->w, OMPI_ERR_OUT_OF_RESOURCE);
    }
    for (; made < n && OMPI_SUCCESS == rc; made += OMPI_SUCCESS == rc) {
        const bool is_send = made >= nrecvs;
        rc = make_side(t, is_send ? &sends[made - nrecvs] : &recvs[made], is_send, NULL, &sides[made]);
        nreqs += OMPI_SUCCESS == rc ? sides[made].m.pieces : 0;
        recv_reqs = is_send ? recv_reqs : nreqs;
    }
    if (OMPI_SUCCESS == rc && nreqs > t->room.nreqs) {
        rc = OMPI_ERR_OUT_OF_RESOURCE;
    }
    /* The sends are posted first: a receive whose message is already here reads it as it is posted, and posted
     * before the sends that copy would hold the peer's copy of this rank's message back (2 ranks, allreduce of
     * 256 KiB: 1.2-1.5x the blocking call's time, 1.0x with the sends first). */
    int sent = 0, received = 0;
    if (OMPI_SUCCESS == rc) {
        rc = mca_coll_hdring_msg_post_sides(&t->w, sides, nrecvs, n, true, &t->room.reqs[recv_reqs], &sent);
    }
    if (OMPI_SUCCESS == rc) {
        rc = mca_coll_hdring_msg_post_sides(&t->w, sides, 0, nrecvs, false, t->room.reqs, &received);
    }
    mca_coll_hdring_wire_fill(&t->w);
    if (OMPI_SUCCESS != rc) { /* the posted receives cancelled, the posted sends left to complete */
        mca_coll_hdring_msg_unpost(t->room.reqs, received, false);
        mca_coll_hdring_msg_unpost(&t->room.reqs[recv_reqs], sent, true);
        t->posted.n = 0;
        return mca_coll_hdring_wire_failed(&t->w, rc);
    }
    t->posted.n = n;
    t->posted.nrecvs = nrecvs;
    t->posted.nreqs = nreqs;
    return HDRING_OK;
}

static inline __opal_attribute_always_inline__ int x_post_exchange(const hdring_xport_t *x, const hdring_msg_t *sends,
                                                                   int nsends, const hdring_msg_t *recvs, int nrecvs)
{
    mca_coll_hdring_exec_t *t = x->ctx;
    if (OPAL_LIKELY(NULL != t->resolved && nsends <= 1 && nrecvs <= 1 && !t->w.poisoned)) {
        const mca_coll_hdring_resolved_t *r = &t->resolved[sends - t->sched->msgs];
        const mca_coll_hdring_resolved_t *s = 0 == nsends ? NULL : r, *v = 0 == nrecvs ? NULL : r + nsends;
        if (OPAL_LIKELY((NULL == s || 1 == s->side.m.pieces) && (NULL == v || 1 == v->side.m.pieces))) {
            return post_pair(t, s, v);
        }
    }
    return post_exchange(x, sends, nsends, recvs, nrecvs);
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

/* x_test_exchange's quick path, for an exchange post_pair posted that has completed: its requests freed, their
 * statuses read. An Open MPI status. */
static inline int collect_pair(mca_coll_hdring_exec_t *t)
{
    int rc = OMPI_SUCCESS;
    for (int i = 0; i < t->posted.nreqs; ++i) {
        ompi_request_t *req = t->room.reqs[i];
        const int r = mca_coll_hdring_settled(&t->w, req->req_status.MPI_ERROR, &req->req_status, 1);
        rc = OMPI_SUCCESS == rc ? r : rc;
        if (OMPI_SUCCESS == rc && i < t->posted.nrecvs) {
            mca_coll_hdring_msg_check_received(&t->w, &t->posted.recv->m, &req->req_status);
        }
        ompi_request_free(&t->room.reqs[i]);
    }
    return rc;
}

/* A completed exchange that post_pair did not post. */
static int __opal_attribute_noinline__ test_exchange(mca_coll_hdring_exec_t *t)
{
    const mca_coll_hdring_side_t *sides = t->room.sides;
    ompi_status_public_t *statuses = t->room.statuses;
    int rc = OMPI_SUCCESS;

    for (int i = 0, first = 0; i < t->posted.n; first += sides[i++].m.pieces) {
        const int pieces = sides[i].m.pieces;
        const int r = mca_coll_hdring_settled(&t->w, collect(&t->room.reqs[first], pieces, &statuses[first]),
                                              &statuses[first], pieces);
        rc = OMPI_SUCCESS == rc ? r : rc;
        if (OMPI_SUCCESS == rc && i < t->posted.nrecvs) {
            rc = mca_coll_hdring_msg_received(&t->w, &sides[i].m, &statuses[first]);
        }
    }
    t->posted.n = t->posted.nreqs = 0;
    return OMPI_SUCCESS == rc ? HDRING_OK : mca_coll_hdring_wire_failed(&t->w, rc);
}

static inline __opal_attribute_always_inline__ int x_test_exchange(const hdring_xport_t *x, bool *done)
{
    mca_coll_hdring_exec_t *t = x->ctx;
    *done = all_complete(t->room.reqs, t->posted.nreqs);
    if (!*done) {
        return HDRING_OK;
    }
    if (OPAL_LIKELY(t->posted.quick)) {
        const int rc = collect_pair(t);
        t->posted.n = t->posted.nreqs = 0;
        t->posted.quick = false;
        return OMPI_SUCCESS == rc ? HDRING_OK : mca_coll_hdring_wire_failed(&t->w, rc);
    }
    return test_exchange(t);
}

static int x_test(const hdring_xport_t *x, hdring_req_t *reqs, int n, bool *done)
{
    const mca_coll_hdring_exec_t *t = x->ctx;
    *done = true;
    for (int i = 0; i < n && *done; ++i) {
        if (HDRING_REQ_NONE != reqs[i]) {
            *done = all_complete(t->inflight.req[reqs[i]], t->inflight.msg[reqs[i]].pieces);
        }
    }
    return *done ? x_wait(x, reqs, n) : HDRING_OK;
}

static const hdring_transport_ops_t exec_ops = {
    .exchange = x_exchange,
    .start = x_start,
    .wait = x_wait,
    .reduce = x_reduce,
    .copy = x_copy,
    .take = x_take,
    .post_exchange = x_post_exchange,
    .test_exchange = x_test_exchange,
    .test = x_test,
};

/* ---- runs ---- */

int mca_coll_hdring_exec_steps(mca_coll_hdring_exec_t *t)
{
    return OPAL_UNLIKELY(t->blocking) ? hdring_exec_steps(&t->at, &t->xport, &exec_ops, true)
                                      : hdring_exec_steps(&t->at, &t->xport, &exec_ops, false);
}

bool mca_coll_hdring_exec_ready(const mca_coll_hdring_exec_t *t)
{
    if (0 != t->posted.nreqs) { /* an exchange in flight */
        return all_complete(t->room.reqs, t->posted.nreqs);
    }
    const hdring_exec_t *e = &t->at;
    if (NULL == t->sched || e->next >= t->sched->nsteps || HDRING_STEP_WAIT != t->sched->steps[e->next].kind) {
        return true; /* something to post, to do, or to end */
    }
    for (uint32_t slots = t->sched->steps[e->next].slots; 0 != slots; slots &= slots - 1) {
        const hdring_req_t slot = e->live[__builtin_ctz(slots)];
        if (HDRING_REQ_NONE != slot && !all_complete(t->inflight.req[slot], t->inflight.msg[slot].pieces)) {
            return false;
        }
    }
    return true;
}

int mca_coll_hdring_exec_blocking(mca_coll_hdring_exec_t *t, int tag, bool fill_in_flight)
{
    mca_coll_hdring_exec_start(t, tag, true, fill_in_flight);
    t->status = hdring_exec_steps(&t->at, &t->xport, &exec_ops, true);
    return mca_coll_hdring_exec_end(t);
}

void mca_coll_hdring_exec_init(mca_coll_hdring_exec_t *t, struct ompi_communicator_t *comm,
                               struct ompi_datatype_t *dtype, struct ompi_op_t *op, const hdring_topo_t *topo,
                               bool locality_order, size_t pieces_bytes, size_t max_message,
                               void *(*take)(void *ctx, size_t bytes), void *take_ctx)
{
    const int rank = ompi_comm_rank(comm);
    const bool renumbered = locality_order && NULL != topo && NULL != topo->order;

    t->w = (mca_coll_hdring_wire_t) {.comm = comm, .dtype = dtype, .take = take, .take_ctx = take_ctx,
                                     .fill.status = OMPI_SUCCESS};
    ompi_datatype_type_extent(dtype, &t->w.extent);
    ompi_datatype_type_size(dtype, &t->w.dtype_size);
    t->op = op;
    t->rank_of = renumbered ? topo->order : NULL;
    t->node_of = NULL == topo || 1 == topo->shape.nodes ? NULL : topo->node_of;
    t->node = NULL == t->node_of ? 0 : t->node_of[rank];
    t->pieces_bytes = pieces_bytes;
    t->max_message = max_message;
    t->contribution.count = 0;
    t->contribution.buf = NULL;
    mca_coll_hdring_exec_of(t, NULL, NULL);
    t->room = (mca_coll_hdring_room_t) {0};
    t->inflight.used = 0;
    t->posted.n = t->posted.nreqs = 0;
    for (int b = 0; b < HDRING_NBUFS; ++b) {
        t->base[b] = NULL;
    }
    t->xport = (hdring_xport_t) {&exec_ops, t, renumbered ? topo->vrank_of[rank] : rank, ompi_comm_size(comm), NULL,
                                 0};
}

int mca_coll_hdring_exec_resolve(const mca_coll_hdring_exec_t *t, const hdring_schedule_t *sched,
                                 mca_coll_hdring_resolved_t *resolved, void *(*take)(void *ctx, size_t bytes),
                                 void *take_ctx)
{
    int rc = OMPI_SUCCESS;
    memset(resolved, 0, sched->nmsgs * sizeof(*resolved));
    for (size_t k = 0; k < sched->nsteps && OMPI_SUCCESS == rc; ++k) {
        const hdring_step_t *st = &sched->steps[k];
        const size_t n = HDRING_STEP_EXCHANGE == st->kind ? (size_t) (st->nsends + st->nrecvs)
                         : HDRING_STEP_START == st->kind  ? 1
                                                          : 0;
        for (size_t i = 0; i < n && OMPI_SUCCESS == rc; ++i) {
            const size_t at = st->first + i;
            const bool is_send = HDRING_STEP_START == st->kind ? st->is_send : i < (size_t) st->nsends;
            rc = resolve(t, &sched->msgs[at], is_send, take, take_ctx, &resolved[at]);
        }
    }
    if (OMPI_SUCCESS != rc) {
        mca_coll_hdring_exec_unresolve(resolved, sched->nmsgs);
    }
    return rc;
}

void mca_coll_hdring_exec_unresolve(mca_coll_hdring_resolved_t *resolved, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        mca_coll_hdring_msg_release(&resolved[i].side.m);
    }
}

void mca_coll_hdring_exec_contribute(mca_coll_hdring_exec_t *t, bool fill_in_flight)
{
    t->w.fill.status = OMPI_SUCCESS;
    t->w.fill.dst = t->base[HDRING_BUF_OUT] + (ptrdiff_t) t->contribution.off * t->w.extent;
    t->w.fill.src = t->contribution.buf;
    t->w.fill.n = t->contribution.n;
    t->w.fill.count = (int) t->contribution.count;
    t->w.fill.stype = t->contribution.type;
    if (!fill_in_flight) {
        mca_coll_hdring_wire_fill(&t->w);
    }
}

int mca_coll_hdring_exec_direct(mca_coll_hdring_exec_t *t, hdring_alg_t alg, const hdring_args_t *a, int tag)
{
    mca_coll_hdring_exec_of(t, NULL, NULL);
    mca_coll_hdring_exec_start(t, tag, true, false);
    t->status = hdring_schedule_stream(&t->xport, alg, a);
    return t->status;
}

int mca_coll_hdring_exec_finish(mca_coll_hdring_exec_t *t)
{
    int rc;
    if (OPAL_LIKELY(HDRING_OK == t->status && !t->w.poisoned)) {
        mca_coll_hdring_wire_fill(&t->w); /* a schedule with no exchange to overlap it */
        rc = t->w.fill.status;
    } else if (t->w.poisoned || HDRING_ERR_TRANSPORT == t->status) {
        rc = t->w.error;
    } else {
        rc = HDRING_ERR_NOMEM == t->status ? OMPI_ERR_OUT_OF_RESOURCE : OMPI_ERR_NOT_SUPPORTED;
    }
    for (int slot = 0; slot < HDRING_MAX_INFLIGHT && OPAL_UNLIKELY(0 != t->inflight.used); ++slot) {
        if (t->inflight.used & 1u << slot) { /* receives cancelled, sends left to complete */
            mca_coll_hdring_msg_unpost(t->inflight.req[slot], t->inflight.msg[slot].pieces,
                                       !(t->inflight.receives & 1u << slot));
            settle(t, slot);
        }
    }
    t->posted.n = t->posted.nreqs = 0; /* (an exchange is tested until it completes: none is left) */
    t->w.error = OMPI_SUCCESS;        /* the next run starts clean */
    t->w.poisoned = false;
    t->w.fill.dst = NULL;
    return rc;
}
