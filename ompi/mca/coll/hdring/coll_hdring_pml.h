/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring transport over the PML: what the core's algorithms and schedules run on (hdring_transport.h).
 *
 * One transport (mca_coll_hdring_pml_t) per run of a schedule or algorithm. Blocking exchanges take the
 * cheapest path the PML offers for their shape (one receive posted and one blocking send for a pair; small sends
 * alone one by one, blocking); nonblocking ones are posted into room the run provides and tested later. Messages
 * between ranks of a node that holds more ranks than cores may go as pieces that ob1 sends inline
 * (coll_hdring_inline_pieces_bytes).
 *
 * A rank that fails locally (no memory for its scratch, a bcast root that cannot pack) runs the rest of the call
 * poisoned: every message it sends is empty and it does no local work, so its peers still find every message of
 * the schedule; a rank that receives an empty message where it expects data is poisoned by it and passes it on.
 * Every rank then returns an error instead of one of them leaving the others waiting.
 */
#ifndef MCA_COLL_HDRING_PML_H
#define MCA_COLL_HDRING_PML_H

#include "coll_hdring.h"

BEGIN_C_DECLS

/* A transport for one run on comm, its messages tagged `tag`, of elements of dtype (reduced with op, NULL when
 * nothing is reduced). topo: where the ranks sit (NULL: all on one node, in rank order); locality_order: algorithm
 * ranks are positions in topo's locality order. Messages within a node of more than 256 bytes and at most
 * pieces_bytes go in pieces; more than max_message elements as one message of a derived datatype. Its take
 * serves from `tables`. Buffers unset (t->base), no room for nonblocking exchanges. */
void mca_coll_hdring_pml_init(mca_coll_hdring_pml_t *t, struct ompi_communicator_t *comm, int tag,
                              struct ompi_datatype_t *dtype, struct ompi_op_t *op, const hdring_topo_t *topo,
                              bool locality_order, size_t pieces_bytes, size_t max_message,
                              mca_coll_hdring_tables_t *tables);
/* Room for a nonblocking exchange of up to nsides messages and nreqs requests (pieces count one each). */
/* Makes t, initialized and used by a run that ended, ready for another run with the same arguments. */
void mca_coll_hdring_pml_again(mca_coll_hdring_pml_t *t);
void mca_coll_hdring_pml_room(mca_coll_hdring_pml_t *t, mca_coll_hdring_pml_side_t *sides, int nsides,
                              struct ompi_request_t **reqs, int nreqs);
/* Elements [off, off + count) of OUT are (n, type) at buf: allgather's own contribution in the send buffer.
 * Sends of exactly that range read buf instead, so the peer reads memory this rank has not just written (at 2
 * ranks on shared memory, sending the freshly written OUT block measured 15% slower for 64 KiB to 4 MiB). The
 * bytes are copied into OUT now, or with in_flight by the first exchange, after it posts its messages and before
 * it waits for them (by the end of the first step at the latest), so the copy overlaps their flight: only where
 * the schedule allows it (mca_coll_hdring_task_t.fills_in_flight). OUT's base must be set. The copy's Open MPI
 * status; in flight OMPI_SUCCESS, the copy's own kept in same_bytes.fill_status. */
int mca_coll_hdring_pml_contribute(mca_coll_hdring_pml_t *t, size_t off, size_t count, const void *buf, int n,
                                   struct ompi_datatype_t *type, bool in_flight);
/* mca_coll_hdring_pml_poison (coll_hdring.h) runs the rest of the call poisoned (above). */
/* Open MPI error code for a run's hdring status; a poisoned run's reason whatever the status. */
int mca_coll_hdring_pml_error(const mca_coll_hdring_pml_t *t, int rc);
/* After a run that failed: the messages it left in flight withdrawn (receives cancelled, sends left to
 * complete). Nothing when there are none. */
void mca_coll_hdring_pml_withdraw(mca_coll_hdring_pml_t *t);
static inline bool mca_coll_hdring_pml_in_flight(const mca_coll_hdring_pml_t *t)
{
    return 0 != t->inflight.used || 0 != t->posted.n;
}

END_C_DECLS

#endif
