/*
 * coll/hdring transport over the PML: the hdring_transport.h operations for one collective call.
 *
 * Element offsets become addresses through the datatype's extent, so derived datatypes work unchanged.
 * A message larger than INT_MAX elements (possible for reduce_scatter and allgather totals) is sent in chunks.
 * Algorithm ranks are rotated so that algorithm rank 0 is the root (bcast; 0 elsewhere).
 */
#include "ompi_config.h"

#include <limits.h>
#include <stdlib.h>

#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/pml/pml.h"
#include "ompi/op/op.h"
#include "ompi/request/request.h"

#include "coll_hdring.h"

#define STACK_REQUESTS 16

static char *loc_addr(const mca_coll_hdring_pml_t *t, hdring_loc_t at)
{
    return t->base[at.buf] + (ptrdiff_t) at.off * t->extent;
}

static int comm_rank_of(const mca_coll_hdring_pml_t *t, int peer) { return (peer + t->root) % t->xport.size; }

static size_t chunks_of(size_t count) { return (count + INT_MAX - 1) / INT_MAX; }

static int transport_failed(mca_coll_hdring_pml_t *t, int ompi_error)
{
    t->error = ompi_error;
    return HDRING_ERR_TRANSPORT;
}

static int post(mca_coll_hdring_pml_t *t, const hdring_msg_t *msg, bool is_send, ompi_request_t **reqs, size_t *nreqs)
{
    char *addr = loc_addr(t, msg->at);
    size_t left = msg->count;
    const int peer = comm_rank_of(t, msg->peer);

    while (left > 0) {
        const int n = left > INT_MAX ? INT_MAX : (int) left;
        int rc = is_send ? MCA_PML_CALL(isend(addr, n, t->dtype, peer, t->tag, MCA_PML_BASE_SEND_STANDARD, t->comm,
                                              &reqs[*nreqs]))
                         : MCA_PML_CALL(irecv(addr, n, t->dtype, peer, t->tag, t->comm, &reqs[*nreqs]));
        if (OMPI_SUCCESS != rc) {
            return rc;
        }
        ++*nreqs;
        addr += (ptrdiff_t) n * t->extent;
        left -= (size_t) n;
    }
    return OMPI_SUCCESS;
}

/* One message, or one send and one receive, of at most INT_MAX elements: most exchanges of every algorithm.
 * Blocking calls (isend + recv for the pair, as Open MPI's own sendrecv does) cost far less per call than
 * posting both and waiting on the array. */
static int exchange_simple(mca_coll_hdring_pml_t *t, const hdring_msg_t *send, const hdring_msg_t *recv)
{
    ompi_request_t *req;
    int rc;

    if (NULL == recv) {
        rc = MCA_PML_CALL(send(loc_addr(t, send->at), (int) send->count, t->dtype, comm_rank_of(t, send->peer),
                               t->tag, MCA_PML_BASE_SEND_STANDARD, t->comm));
    } else if (NULL == send) {
        rc = MCA_PML_CALL(recv(loc_addr(t, recv->at), (int) recv->count, t->dtype, comm_rank_of(t, recv->peer),
                               t->tag, t->comm, MPI_STATUS_IGNORE));
    } else {
        rc = MCA_PML_CALL(isend(loc_addr(t, send->at), (int) send->count, t->dtype, comm_rank_of(t, send->peer),
                                t->tag, MCA_PML_BASE_SEND_STANDARD, t->comm, &req));
        if (OMPI_SUCCESS != rc) {
            return transport_failed(t, rc);
        }
        rc = MCA_PML_CALL(recv(loc_addr(t, recv->at), (int) recv->count, t->dtype, comm_rank_of(t, recv->peer),
                               t->tag, t->comm, MPI_STATUS_IGNORE));
        if (OMPI_SUCCESS != rc) {
            ompi_request_free(&req);
            return transport_failed(t, rc);
        }
        rc = ompi_request_wait(&req, MPI_STATUS_IGNORE);
    }
    return OMPI_SUCCESS == rc ? HDRING_OK : transport_failed(t, rc);
}

static int pml_exchange(void *ctx, const hdring_msg_t *sends, int nsends, const hdring_msg_t *recvs, int nrecvs)
{
    mca_coll_hdring_pml_t *t = ctx;
    ompi_request_t *stack_reqs[STACK_REQUESTS], **reqs = stack_reqs;
    const hdring_msg_t *one_send = NULL, *one_recv = NULL;
    size_t want = 0, nreqs = 0, nonempty = 0;
    int rc = OMPI_SUCCESS;

    for (int i = 0; i < nsends; ++i) {
        want += chunks_of(sends[i].count);
        one_send = 0 != sends[i].count ? &sends[i] : one_send;
    }
    for (int i = 0; i < nrecvs; ++i) {
        want += chunks_of(recvs[i].count);
        one_recv = 0 != recvs[i].count ? &recvs[i] : one_recv;
    }
    for (int i = 0; i < nsends; ++i) {
        nonempty += 0 != sends[i].count;
    }
    for (int i = 0; i < nrecvs; ++i) {
        nonempty += 0 != recvs[i].count;
    }
    if (0 == want) {
        return HDRING_OK;
    }
    if (want == nonempty && want <= 2 && (want == 1 || (NULL != one_send && NULL != one_recv))) {
        return exchange_simple(t, one_send, one_recv);
    }
    if (want > STACK_REQUESTS) {
        reqs = malloc(want * sizeof(*reqs));
        if (NULL == reqs) {
            return transport_failed(t, OMPI_ERR_OUT_OF_RESOURCE);
        }
    }
    /* Receives first, so a peer's send finds its match posted. */
    for (int i = 0; i < nrecvs && OMPI_SUCCESS == rc; ++i) {
        rc = post(t, &recvs[i], false, reqs, &nreqs);
    }
    for (int i = 0; i < nsends && OMPI_SUCCESS == rc; ++i) {
        rc = post(t, &sends[i], true, reqs, &nreqs);
    }
    if (OMPI_SUCCESS == rc) {
        rc = ompi_request_wait_all(nreqs, reqs, MPI_STATUSES_IGNORE);
    } else {
        for (size_t i = 0; i < nreqs; ++i) {
            ompi_request_free(&reqs[i]);
        }
    }
    if (reqs != stack_reqs) {
        free(reqs);
    }
    return OMPI_SUCCESS == rc ? HDRING_OK : transport_failed(t, rc);
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

static int pml_reduce(void *ctx, hdring_loc_t left_at, hdring_loc_t right_at, hdring_loc_t dst_at, size_t count,
                      unsigned flags)
{
    mca_coll_hdring_pml_t *t = ctx;
    char *left = loc_addr(t, left_at), *right = loc_addr(t, right_at), *dst = loc_addr(t, dst_at);
    int rc = OMPI_SUCCESS;

    if (0 == count) {
        return HDRING_OK;
    }
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
    return OMPI_SUCCESS == rc ? HDRING_OK : transport_failed(t, rc);
}

static int pml_copy(void *ctx, hdring_loc_t src, hdring_loc_t dst, size_t count)
{
    mca_coll_hdring_pml_t *t = ctx;
    int rc = 0 == count ? OMPI_SUCCESS : copy_range(t, loc_addr(t, dst), loc_addr(t, src), count);
    return OMPI_SUCCESS == rc ? HDRING_OK : transport_failed(t, rc);
}

static const hdring_transport_ops_t pml_ops = {
    .exchange = pml_exchange,
    .reduce = pml_reduce,
    .copy = pml_copy,
};

void mca_coll_hdring_pml_init(mca_coll_hdring_pml_t *t, struct ompi_communicator_t *comm,
                              struct ompi_datatype_t *dtype, struct ompi_op_t *op, int tag, int root)
{
    const int size = ompi_comm_size(comm);

    t->comm = comm;
    t->dtype = dtype;
    t->op = op;
    t->tag = tag;
    t->root = root;
    ompi_datatype_type_extent(dtype, &t->extent);
    for (int b = 0; b < HDRING_NBUFS; ++b) {
        t->base[b] = NULL;
    }
    t->own_scratch = NULL;
    t->error = OMPI_SUCCESS;
    t->xport.ops = &pml_ops;
    t->xport.ctx = t;
    t->xport.size = size;
    t->xport.rank = (ompi_comm_rank(comm) - root + size) % size;
}

int mca_coll_hdring_pml_error(const mca_coll_hdring_pml_t *t, int rc)
{
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
